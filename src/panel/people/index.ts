// People of a company: the people page (/panel/people), invitation links (/panel/join/:token) and
// the header's company switcher (/panel/switch-company).
import type { FastifyInstance } from 'fastify';
import { depsOf, type PanelDeps, under } from '../shell/deps.ts';
import { joinPages } from './join.pages.ts';
import { peoplePages } from './people.pages.ts';
import { switchPages } from './switch.pages.ts';

export async function peoplePlugin(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  await app.register(peoplePages, under('/people', deps));
  await app.register(joinPages, under('/join', deps));
  await app.register(switchPages, depsOf(deps));
}

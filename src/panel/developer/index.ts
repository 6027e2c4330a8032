// The developer's menu: API keys (/panel/keys), webhooks (/panel/webhooks) and the sandbox inbox
// (/panel/inbox), each under its own URL.
import type { FastifyInstance } from 'fastify';
import { type PanelDeps, under } from '../shell/deps.ts';
import { inboxPages } from './inbox.pages.ts';
import { keysPages } from './keys.pages.ts';
import { webhooksPages } from './webhooks.pages.ts';

export async function developerPlugin(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  await app.register(keysPages, under('/keys', deps));
  await app.register(webhooksPages, under('/webhooks', deps));
  await app.register(inboxPages, under('/inbox', deps));
}

// Everything under /panel/checks: the list, a check's page and its PDF (checks.pages.ts), printing
// (print.pages.ts), and writing, editing, deleting and voiding (write/).
import type { FastifyInstance } from 'fastify';
import { depsOf, type PanelDeps } from '../shell/deps.ts';
import { checksPages } from './checks.pages.ts';
import { printPages } from './print.pages.ts';
import { checkFormPages } from './write/routes.ts';

export async function checksPlugin(app: FastifyInstance, options: PanelDeps): Promise<void> {
  const deps = depsOf(options);
  await app.register(checksPages, deps);
  await app.register(checkFormPages, deps);
  await app.register(printPages, deps);
}

// What each panel route needs: one action of the roles table (domain/people/roles.ts), declared on
// the route itself so the page and its rule are read together. The panel's hook checks the
// signed-in person's role against it before the handler runs; hiding a link is not enforcement.
import type { Action } from '../../domain/people/roles.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The action of the roles table a person must hold to use this route. */
    action?: Action;
    /** The route answers JSON to the page's script, never a page: the header's extras are not loaded for it. */
    answersJson?: boolean;
  }
}

/** Route options naming the action a route needs: `app.post('/panel/checks/print', needs('checks.print'), …)`. */
export function needs(action: Action): { config: { action: Action } } {
  return { config: { action } };
}

/** `needs(action)` for a route that answers the page's script in JSON (no header to draw). */
export function needsForJson(action: Action): { config: { action: Action; answersJson: true } } {
  return { config: { action, answersJson: true } };
}

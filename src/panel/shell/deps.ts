// What every panel page module is given. Its own module, so that page modules do not import
// panel.ts, which imports them.
import type { ApiKeys } from '../../services/api-key.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import type { SharedLimits } from '../../services/shared-limits.service.ts';

export interface PanelDeps {
  ctx: ServiceContext;
  keys: ApiKeys;
  /** Sign-in, sign-up and reset attempts, counted where every server sees them. */
  limits: SharedLimits;
}

/**
 * A menu folder's plugin options: the dependencies, and the URL prefix Fastify registers it under,
 * so each folder's routes are written relative to the address the menu links to.
 */
export function under(prefix: string, deps: PanelDeps): PanelDeps & { prefix: string } {
  return { ...depsOf(deps), prefix };
}

/**
 * The dependencies alone, from a plugin's options: Fastify hands a plugin's options on as given, so a
 * folder registered under a prefix passes this to its pages, or they would get the prefix twice.
 */
export function depsOf(options: PanelDeps): PanelDeps {
  return { ctx: options.ctx, keys: options.keys, limits: options.limits };
}

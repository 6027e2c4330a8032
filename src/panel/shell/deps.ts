// What every panel page module is given. Its own module, so that page modules do not import
// panel.ts, which imports them (issue 15, point 7).
import type { ApiKeys } from '../../services/api-key.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import type { SharedLimits } from '../../services/shared-limits.service.ts';

export interface PanelDeps {
  ctx: ServiceContext;
  keys: ApiKeys;
  /** Sign-in, sign-up and reset attempts, counted where every server sees them. */
  limits: SharedLimits;
}

// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 20;
export const name = 'shared-limits';

/**
 * The abuse limits counted where every server sees them, so N servers allow one
 * address what one server allows (they were counted per process: two servers judged 10 sign-in
 * guesses where the documented limit is 5).
 * - `name`: what is counted, e.g. `sign-in-pair:` and an HMAC of the address and email under the
 *   server secret (never the address, the email or a key itself).
 * - `hits`: the times (ms) of the counted events still in the window, oldest first,
 *   comma-separated: at most the limit of them, so the row stays small (a sliding window, exact).
 * - `n`: a running total, for the per-key request rate that servers share in batches.
 * - `expires_at`: after it the row counts nothing and the sweep deletes it.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE limit_counters (
      name TEXT PRIMARY KEY,
      hits TEXT NOT NULL DEFAULT '',
      n BIGINT NOT NULL DEFAULT 0,
      expires_at BIGINT NOT NULL
    )`,
    'CREATE INDEX limit_counters_expiry ON limit_counters (expires_at)',
  ];
}

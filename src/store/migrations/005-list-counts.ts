// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 5;
export const name = 'list-counts';

/**
 * How many checks each account and environment has in each status, kept in step by every write
 * that adds, moves or removes a check, so `meta.total` of an unfiltered or status-filtered list is
 * one row read instead of a count over every check (docs/benchmarks.md).
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE check_counts (
      account_id TEXT NOT NULL,
      env TEXT NOT NULL,
      status INTEGER NOT NULL,
      n BIGINT NOT NULL,
      PRIMARY KEY (account_id, env, status)
    )`,
    'INSERT INTO check_counts (account_id, env, status, n) SELECT account_id, env, status, COUNT(*) FROM checks GROUP BY account_id, env, status',
  ];
}

// The list's totals and change counter: check_counts (migration 005), the number of an owner's
// checks in each status, moved by every write that adds, removes or moves a check; and
// check_changes (migration 011), the counter that triggers move on every change to the owner's
// checks or payees, against which searches and page anchors are remembered.
import type { Owner } from '../../domain/owner.ts';
import type { Queryable } from '../db.ts';
import { owned } from '../owned-queries.ts';
import { sql } from '../sql.ts';
import { defineTable, insertStatement, rowValues } from '../table.ts';

/** The check_counts table as stored (migration 005): one row per owner and status. */
interface CheckCountsRow {
  account_id: string;
  env: string;
  status: number;
  n: number;
}

const CHECK_COUNTS = defineTable<CheckCountsRow>()('check_counts', ['account_id', 'env', 'status', 'n']);

// A new owner and status starts at `delta`; a known one moves by it.
const ADD_TO_COUNT = insertStatement(CHECK_COUNTS, {
  tail: ' ON CONFLICT (account_id, env, status) DO UPDATE SET n = check_counts.n + excluded.n',
});

/** Adds `delta` to the number of the owner's checks in `status` (check_counts, migration 005). */
export async function addToCount(q: Queryable, owner: Owner, status: number, delta: number): Promise<void> {
  await q.run(ADD_TO_COUNT, rowValues(CHECK_COUNTS, { account_id: owner.accountId, env: owner.env, status, n: delta }));
}

/** The owner's checks in `status`, or in all statuses, from check_counts (one row, not a count). */
export async function totalFromCounts(q: Queryable, owner: Owner, status: number | null): Promise<number> {
  const s =
    status === null
      ? sql`SELECT SUM(n) AS n FROM check_counts WHERE ${owned(owner)}`
      : sql`SELECT n FROM check_counts WHERE ${owned(owner)} AND status = ${status}`;
  const row = await q.get<{ n: number | null }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

/** The counter every write to the owner's checks or payees moves on (migration 011's triggers). */
export async function checkChanges(q: Queryable, owner: Owner): Promise<number> {
  const s = sql`SELECT n FROM check_changes WHERE ${owned(owner)}`;
  const row = await q.get<{ n: number | string }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

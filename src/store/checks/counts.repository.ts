// The list's totals and change counter: check_counts (migration 005), the number of an owner's
// checks in each status, moved by every write that adds, removes or moves a check; and
// check_changes (migration 011), the counter that triggers move on every change to the owner's
// checks or payees, against which searches and page anchors are remembered.
import type { Owner } from '../../domain/owner.ts';
import type { Queryable } from '../db.ts';

/** Adds `delta` to the number of the owner's checks in `status` (check_counts, migration 005). */
export async function addToCount(q: Queryable, owner: Owner, status: number, delta: number): Promise<void> {
  await q.run(
    `INSERT INTO check_counts (account_id, env, status, n) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, env, status) DO UPDATE SET n = check_counts.n + excluded.n`,
    [owner.accountId, owner.env, status, delta],
  );
}

/** The owner's checks in `status`, or in all statuses, from check_counts (one row, not a count). */
export async function totalFromCounts(q: Queryable, owner: Owner, status: number | null): Promise<number> {
  const row =
    status === null
      ? await q.get<{ n: number | null }>('SELECT SUM(n) AS n FROM check_counts WHERE account_id = ? AND env = ?', [
          owner.accountId,
          owner.env,
        ])
      : await q.get<{ n: number | null }>(
          'SELECT n FROM check_counts WHERE account_id = ? AND env = ? AND status = ?',
          [owner.accountId, owner.env, status],
        );
  return Number(row?.n ?? 0);
}

/** The counter every write to the owner's checks or payees moves on (migration 011's triggers). */
export async function checkChanges(q: Queryable, owner: Owner): Promise<number> {
  const row = await q.get<{ n: number | string }>('SELECT n FROM check_changes WHERE account_id = ? AND env = ?', [
    owner.accountId,
    owner.env,
  ]);
  return Number(row?.n ?? 0);
}

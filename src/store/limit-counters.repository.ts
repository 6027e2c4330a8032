// Counters of the abuse limits, shared by every server on the database (migration 020). Every
// read that leads to a decision locks its row for the rest of the transaction (PostgreSQL:
// FOR UPDATE; SQLite: the transaction's write lock), so two servers deciding at once decide one
// after the other.
import type { Queryable } from './db.ts';

/** The event times (ms) counted under `name`, oldest first; the row is locked until commit. */
export async function lockedHits(q: Queryable, name: string, now: number): Promise<number[]> {
  // The row is made first when missing, so that there is always a row to lock: two servers
  // counting a new name at once then wait on one row instead of both reading nothing.
  await q.run('INSERT INTO limit_counters (name, expires_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [name, now]);
  const row = await q.get<{ hits: string }>(
    `SELECT hits FROM limit_counters WHERE name = ?${q.dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
    [name],
  );
  const text = row?.hits ?? '';
  return text === '' ? [] : text.split(',').map(Number);
}

/** Replaces the event times of `name`; the row is dead after `expiresAt` (null: as it was). */
export async function writeHits(
  q: Queryable,
  name: string,
  hits: readonly number[],
  expiresAt: number | null,
): Promise<void> {
  await q.run('UPDATE limit_counters SET hits = ?, expires_at = COALESCE(?, expires_at) WHERE name = ?', [
    hits.join(','),
    expiresAt,
    name,
  ]);
}

/** Forgets every event of `name`. */
export async function clearHits(q: Queryable, name: string): Promise<void> {
  await q.run('DELETE FROM limit_counters WHERE name = ?', [name]);
}

/**
 * Adds each delta to the running total of its name and answers the new totals by name: one
 * statement for all of them, atomic on both databases whoever else adds at the same moment.
 */
export async function addToTotals(
  q: Queryable,
  deltas: readonly { name: string; delta: number }[],
  expiresAt: number,
): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  if (deltas.length === 0) return totals;
  const rows = await q.all<{ name: string; n: number | string }>(
    `INSERT INTO limit_counters (name, n, expires_at) VALUES ${deltas.map(() => '(?, ?, ?)').join(', ')}
     ON CONFLICT (name) DO UPDATE SET n = limit_counters.n + excluded.n, expires_at = excluded.expires_at
     RETURNING name, n`,
    deltas.flatMap((d) => [d.name, d.delta, expiresAt]),
  );
  for (const row of rows) totals.set(row.name, Number(row.n));
  return totals;
}

/** Deletes up to `batch` rows that expired before `now`; answers how many. */
export async function deleteExpired(q: Queryable, now: number, batch: number): Promise<number> {
  return q.run(
    'DELETE FROM limit_counters WHERE name IN (SELECT name FROM limit_counters WHERE expires_at < ? LIMIT ?)',
    [now, batch],
  );
}

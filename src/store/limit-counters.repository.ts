// Counters of the abuse limits, shared by every server on the database (migration 020). Every
// read that leads to a decision locks its row for the rest of the transaction (PostgreSQL:
// FOR UPDATE; SQLite: the transaction's write lock), so two servers deciding at once decide one
// after the other.
import type { Queryable } from './db.ts';
import { sql } from './sql.ts';
import { defineTable, insertStatement, rowValues } from './table.ts';

/** The limit_counters table as stored (migration 020): event times, or a running total. */
interface LimitCountersRow {
  name: string;
  /** Event times (ms), comma-separated, oldest first; '' when none. */
  hits: string;
  /** A running total (addToTotals). */
  n: number;
  expires_at: number;
}

const LIMIT_COUNTERS = defineTable<LimitCountersRow>()('limit_counters', ['name', 'hits', 'n', 'expires_at']);

const MAKE_OR_TOUCH = insertStatement(LIMIT_COUNTERS, {
  tail: ' ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING hits',
});

const ADD_TO_TOTAL =
  ' ON CONFLICT (name) DO UPDATE SET n = limit_counters.n + excluded.n, expires_at = excluded.expires_at RETURNING name, n';

/** The totals statement for `rows` names, made once per count (the caller sends a bounded batch). */
const addTexts = new Map<number, string>();
function addToTotalsText(rows: number): string {
  let text = addTexts.get(rows);
  if (text === undefined) {
    text = insertStatement(LIMIT_COUNTERS, { rows, tail: ADD_TO_TOTAL });
    addTexts.set(rows, text);
  }
  return text;
}

/** The event times (ms) counted under `name`, oldest first; the row is locked until commit. */
export async function lockedHits(q: Queryable, name: string, now: number): Promise<number[]> {
  // One statement that makes the row when missing and otherwise touches it, so that there is
  // always a row to lock (two servers counting a new name at once wait on one row instead of both
  // reading nothing) and the lock and the read are one round trip.
  const row = await q.get<Pick<LimitCountersRow, 'hits'>>(
    MAKE_OR_TOUCH,
    rowValues(LIMIT_COUNTERS, { name, hits: '', n: 0, expires_at: now }),
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
  const s = sql`UPDATE limit_counters SET hits = ${hits.join(',')}, expires_at = COALESCE(${expiresAt}, expires_at) WHERE name = ${name}`;
  await q.run(s.text, s.params);
}

/** Forgets every event of `name`. */
export async function clearHits(q: Queryable, name: string): Promise<void> {
  const s = sql`DELETE FROM limit_counters WHERE name = ${name}`;
  await q.run(s.text, s.params);
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
    addToTotalsText(deltas.length),
    deltas.flatMap((d) => rowValues(LIMIT_COUNTERS, { name: d.name, hits: '', n: d.delta, expires_at: expiresAt })),
  );
  for (const row of rows) totals.set(row.name, Number(row.n));
  return totals;
}

/** Deletes up to `batch` rows that expired before `now`; answers how many. */
export async function deleteExpired(q: Queryable, now: number, batch: number): Promise<number> {
  const s = sql`DELETE FROM limit_counters WHERE name IN (SELECT name FROM limit_counters WHERE expires_at < ${now} LIMIT ${batch})`;
  return q.run(s.text, s.params);
}

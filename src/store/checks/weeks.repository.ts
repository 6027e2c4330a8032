// Checks written and cleared per week, for the panel's home: counted and added
// up by the database over a range of an index of each bank account, never by reading the checks.
// Callers have already found the bank accounts among the owner's (as in check-register.repository.ts),
// so their ids scope every query here.
import type { Queryable } from '../db.ts';
import { weeksAfter } from '../dialect.ts';
import { inList, raw, sql } from '../sql.ts';

export interface WeekTotal {
  bankAccountId: string;
  /** Weeks after the first day of the range: 0 for its first seven days. */
  week: number;
  count: number;
  totalCents: number;
}

interface Row {
  bank_account_id: string;
  week: number | string;
  n: number | string;
  cents: number | string | null;
}

const toTotal = (r: Row): WeekTotal => ({
  bankAccountId: r.bank_account_id,
  week: Number(r.week),
  count: Number(r.n),
  totalCents: Number(r.cents ?? 0),
});

/**
 * Per bank account and week, the checks whose `column` date falls in `from`..`to` (both included)
 * and what they add up to, read from a range of `index`, which carries the amount. SQLite, without
 * statistics, may otherwise take checks_bank_issue_date and read every row for its amount.
 */
async function byWeek(
  q: Queryable,
  column: 'issue_date' | 'cleared_date',
  index: 'checks_register' | 'checks_cleared',
  bankAccountIds: readonly string[],
  from: string,
  to: string,
): Promise<WeekTotal[]> {
  if (bankAccountIds.length === 0) return [];
  const indexedBy = raw(q.dialect === 'sqlite' ? ` INDEXED BY ${index}` : '');
  const date = raw(column);
  const s = sql`SELECT bank_account_id, ${weeksAfter(q.dialect, column, from)} AS week, COUNT(*) AS n, SUM(COALESCE(amount_cents, 0)) AS cents
     FROM checks${indexedBy}
     WHERE bank_account_id IN ${inList(bankAccountIds)} AND ${date} >= ${from} AND ${date} <= ${to}
     GROUP BY bank_account_id, week`;
  const rows = await q.all<Row>(s.text, s.params);
  return rows.map(toTotal);
}

/** The checks written (dated) in each week, of every status: a voided check was still written. */
export function writtenByWeek(q: Queryable, bankAccountIds: readonly string[], from: string, to: string) {
  return byWeek(q, 'issue_date', 'checks_register', bankAccountIds, from, to);
}

/** The checks the bank paid (cleared date) in each week: a range of checks_cleared (migration 023). */
export function clearedByWeek(q: Queryable, bankAccountIds: readonly string[], from: string, to: string) {
  return byWeek(q, 'cleared_date', 'checks_cleared', bankAccountIds, from, to);
}

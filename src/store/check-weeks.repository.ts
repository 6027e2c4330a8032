// Checks written and cleared per week, for the panel's home (issue 24, item 7): counted and added
// up by the database over a range of an index of each bank account, never by reading the checks.
// Callers have already found the bank accounts among the owner's (as in register.repository.ts),
// so their ids scope every query here.
import type { Queryable } from './db.ts';
import { weeksAfter } from './dialect.ts';

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
 * Per bank account and week, the checks whose date falls in `from`..`to` (both included) and what
 * they add up to; checks of every status (a voided check was still written). A range of
 * checks_register, which carries the amount.
 */
export async function writtenByWeek(
  q: Queryable,
  bankAccountIds: readonly string[],
  from: string,
  to: string,
): Promise<WeekTotal[]> {
  if (bankAccountIds.length === 0) return [];
  // SQLite, without statistics, may take checks_bank_issue_date and read every row for its amount.
  const index = q.dialect === 'sqlite' ? ' INDEXED BY checks_register' : '';
  const rows = await q.all<Row>(
    `SELECT bank_account_id, ${weeksAfter(q.dialect, 'issue_date')} AS week, COUNT(*) AS n, SUM(COALESCE(amount_cents, 0)) AS cents
     FROM checks${index}
     WHERE bank_account_id IN (${bankAccountIds.map(() => '?').join(', ')}) AND issue_date >= ? AND issue_date <= ?
     GROUP BY bank_account_id, week`,
    [from, ...bankAccountIds, from, to],
  );
  return rows.map(toTotal);
}

/**
 * Per bank account and week, the checks the bank paid (cleared date) in `from`..`to` (both
 * included) and what they add up to. A range of checks_cleared (migration 023).
 */
export async function clearedByWeek(
  q: Queryable,
  bankAccountIds: readonly string[],
  from: string,
  to: string,
): Promise<WeekTotal[]> {
  if (bankAccountIds.length === 0) return [];
  const index = q.dialect === 'sqlite' ? ' INDEXED BY checks_cleared' : '';
  const rows = await q.all<Row>(
    `SELECT bank_account_id, ${weeksAfter(q.dialect, 'cleared_date')} AS week, COUNT(*) AS n, SUM(COALESCE(amount_cents, 0)) AS cents
     FROM checks${index}
     WHERE bank_account_id IN (${bankAccountIds.map(() => '?').join(', ')}) AND cleared_date >= ? AND cleared_date <= ?
     GROUP BY bank_account_id, week`,
    [from, ...bankAccountIds, from, to],
  );
  return rows.map(toTotal);
}

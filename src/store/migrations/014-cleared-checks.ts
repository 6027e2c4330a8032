// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 14;
export const name = 'cleared-checks';

/**
 * The register and clearing (docs/reconciliation.md).
 * - `cleared_date`: the day the bank paid the check (YYYY-MM-DD), NULL while it is outstanding.
 *   Clearing is not a status: the seven status codes stay as clients know them.
 * - `checks_register`: a bank account's checks in register order (issue date, then creation),
 *   carrying every column a page's running totals read, so a page is found on the index alone.
 * - `checks_outstanding`: only the outstanding checks (issued, not void, not cleared), in register
 *   order, so the outstanding count and total of a bank account, and the outstanding total before
 *   any page of its register, cost as many index entries as there are outstanding checks —
 *   usually few, however long the account's history.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    'ALTER TABLE checks ADD COLUMN cleared_date TEXT',
    'CREATE INDEX checks_register ON checks (bank_account_id, issue_date, created_at, id, status, cleared_date, amount_cents)',
    'CREATE INDEX checks_outstanding ON checks (bank_account_id, issue_date, created_at, id, amount_cents) WHERE status IN (1, 2, 3, 4) AND cleared_date IS NULL',
  ];
}

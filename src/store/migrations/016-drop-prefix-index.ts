// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 16;
export const name = 'drop-prefix-index';

/**
 * `checks_bank_issue_date (bank_account_id, issue_date)` from migration 013 is a prefix of
 * `checks_register (bank_account_id, issue_date, created_at, id, …)` from 014: the positive pay
 * export's range read uses the longer one as well, and every check insert paid for both.
 */
export function up(_t: ColumnTypes): string[] {
  return ['DROP INDEX IF EXISTS checks_bank_issue_date'];
}

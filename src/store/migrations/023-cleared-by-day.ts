// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 23;
export const name = 'cleared-by-day';

/**
 * The panel's home counts each bank account's checks cleared in each of the last
 * 12 weeks. `checks_cleared` holds only cleared checks, by bank account and cleared date, with the
 * amount: those weeks are one range of it, read on the index alone, however long the history is.
 * (The checks written in those weeks are a range of `checks_register`, migration 014.)
 */
export function up(_t: ColumnTypes): string[] {
  return [
    'CREATE INDEX checks_cleared ON checks (bank_account_id, cleared_date, amount_cents) WHERE cleared_date IS NOT NULL',
  ];
}

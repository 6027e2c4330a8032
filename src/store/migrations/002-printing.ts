// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 2;
export const name = 'printing';

/** Which custom 'from' address prints as the drawer on a bank account's checks (null: the account's company). */
export function up(_t: ColumnTypes): string[] {
  return ['ALTER TABLE bank_accounts ADD COLUMN custom_from_address_id TEXT REFERENCES addresses(id)'];
}

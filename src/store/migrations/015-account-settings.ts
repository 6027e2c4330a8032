// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 15;
export const name = 'account-settings';

/**
 * What payees see of the sender: the company's postal address and public phone
 * (the owner's verified `phone` stays the one codes are texted to), and a logo image for the
 * account and, overriding it on that account's checks, for a bank account (docs/panel.md).
 */
export function up(t: ColumnTypes): string[] {
  return [
    "ALTER TABLE accounts ADD COLUMN company_address TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE accounts ADD COLUMN company_phone TEXT NOT NULL DEFAULT ''",
    `ALTER TABLE accounts ADD COLUMN logo ${t.blob}`,
    `ALTER TABLE bank_accounts ADD COLUMN logo ${t.blob}`,
  ];
}

// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 21;
export const name = 'field-clients';

/**
 * What the hosted service's clients send that we had nowhere to keep:
 * - a bank account's holder details and the bank's city, state and zip, one column per concept
 *   (the hosted `bankRoutingNumber` and `bankAddress1` are our `routing_number` and `bank_address`);
 * - a voucher made on its own (`POST /vouchers`) names its payee;
 * - quickpay finds an existing payee by name and address (docs/api-notes.md): an index so that the
 *   lookup reads the owner's payees of that name only.
 */
export function up(_t: ColumnTypes): string[] {
  const text = (table: string, column: string) => `ALTER TABLE ${table} ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`;
  return [
    text('bank_accounts', 'nick_name'),
    text('bank_accounts', 'address_line1'),
    text('bank_accounts', 'address_line2'),
    text('bank_accounts', 'phone'),
    text('bank_accounts', 'city'),
    text('bank_accounts', 'state'),
    text('bank_accounts', 'zip'),
    text('bank_accounts', 'bank_city'),
    text('bank_accounts', 'bank_state'),
    text('bank_accounts', 'bank_zip'),
    'ALTER TABLE vouchers ADD COLUMN payee_id TEXT',
    'CREATE INDEX payees_owner_name ON payees (account_id, env, name)',
  ];
}

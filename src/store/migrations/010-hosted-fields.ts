// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 10;
export const name = 'hosted-fields';

/**
 * The fields clients of the hosted service send that we did not keep: a category's
 * `type`, and what `POST /mailchecks` takes beyond the check and the shipping choice. Shipping and
 * paper types are renumbered to the hosted service's ids (shipping 1 First Class, 3 First Class
 * with tracking, 4 Priority Mail, 5 Express Mail, 12 FedEx standard overnight, 20 FedEx Saturday;
 * paper 7 regular, 8 hologram, 9 ultra hologram), so queued mailings keep what they asked for.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    "ALTER TABLE categories ADD COLUMN type TEXT NOT NULL DEFAULT ''",
    'ALTER TABLE mailings ADD COLUMN inform_type_id INTEGER',
    'ALTER TABLE mailings ADD COLUMN enable_sms_inform INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE mailings ADD COLUMN enable_email_inform INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE mailings ADD COLUMN payee_email TEXT',
    'ALTER TABLE mailings ADD COLUMN payee_phone TEXT',
    'ALTER TABLE mailings ADD COLUMN shipping_to_custom_address INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE mailings ADD COLUMN from_address_id TEXT',
    'ALTER TABLE mailings ADD COLUMN custom_shipping_type_id INTEGER',
    // Old ids: 1 First-Class, 2 First-Class with tracking, 3 Priority, 4 Overnight; paper 1 standard, 2 premium.
    'UPDATE mailings SET shipping_type_id = CASE shipping_type_id WHEN 2 THEN 3 WHEN 3 THEN 4 WHEN 4 THEN 12 ELSE shipping_type_id END',
    'UPDATE mailings SET paper_type_id = CASE paper_type_id WHEN 1 THEN 7 WHEN 2 THEN 8 ELSE paper_type_id END',
  ];
}

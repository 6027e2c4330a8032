// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 33;
export const name = 'positive-pay-layouts';

/**
 * Positive pay in the bank's own layout (docs/positive-pay.md, "Layouts as data"):
 * - `positive_pay_layouts`: a company's custom layouts, typed in from its bank's spec sheet; the
 *   layout description is kept as JSON (formats/positive-pay-layouts/layout.ts), checked before
 *   it is stored.
 * - `bank_accounts.positive_pay_layout`: the layout chosen for the account, a preset's name or a
 *   custom layout's id; null keeps the behaviour from before (the export names its format).
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE positive_pay_layouts (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      layout TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    'CREATE INDEX positive_pay_layouts_account ON positive_pay_layouts (account_id, created_at)',
    'ALTER TABLE bank_accounts ADD COLUMN positive_pay_layout TEXT',
  ];
}

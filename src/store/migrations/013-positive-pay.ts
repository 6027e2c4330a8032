// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 13;
export const name = 'positive-pay';

/**
 * Every positive pay export is recorded (who, when, which bank account and
 * range, which layout, how many checks and for how much), and the two reads an export makes of a
 * bank account's checks get an index each: issued checks by issue date, voided ones by status.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE positive_pay_exports (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id),
      from_date TEXT NOT NULL,
      to_date TEXT NOT NULL,
      format TEXT NOT NULL,
      issued_count INTEGER NOT NULL,
      issued_total_cents BIGINT NOT NULL,
      void_count INTEGER NOT NULL,
      void_total_cents BIGINT NOT NULL,
      file_sha256 TEXT NOT NULL,
      file_bytes INTEGER NOT NULL,
      created_via TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    'CREATE INDEX positive_pay_exports_recent ON positive_pay_exports (account_id, env, created_at, id)',
    'CREATE INDEX checks_bank_issue_date ON checks (bank_account_id, issue_date)',
    'CREATE INDEX checks_bank_status ON checks (bank_account_id, status)',
  ];
}

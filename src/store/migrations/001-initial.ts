// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 1;
export const name = 'initial';

export function up(t: ColumnTypes): string[] {
  return [
    `CREATE TABLE settings (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL
    )`,
    `CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      company TEXT NOT NULL,
      email TEXT NOT NULL UNIQUE,
      email_verified_at BIGINT,
      phone TEXT NOT NULL DEFAULT '',
      phone_verified_at BIGINT,
      time_zone TEXT NOT NULL DEFAULT 'UTC',
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      name TEXT NOT NULL,
      key_hash TEXT NOT NULL UNIQUE,
      display_prefix TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT,
      revoked_at BIGINT
    )`,
    `CREATE INDEX api_keys_account ON api_keys (account_id, created_at)`,
    `CREATE TABLE bank_accounts (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      name TEXT NOT NULL,
      bank_name TEXT NOT NULL DEFAULT '',
      bank_address TEXT NOT NULL DEFAULT '',
      routing_number TEXT NOT NULL,
      account_number TEXT NOT NULL,
      next_serial BIGINT NOT NULL,
      signature ${t.blob},
      created_at BIGINT NOT NULL,
      deleted_at BIGINT
    )`,
    `CREATE INDEX bank_accounts_owner ON bank_accounts (account_id, env, created_at)`,
    `CREATE TABLE payees (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      name TEXT NOT NULL,
      nick_name TEXT NOT NULL DEFAULT '',
      company TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      phone TEXT NOT NULL DEFAULT '',
      address1 TEXT NOT NULL DEFAULT '',
      address2 TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL DEFAULT '',
      state TEXT NOT NULL DEFAULT '',
      zip TEXT NOT NULL DEFAULT '',
      country TEXT NOT NULL DEFAULT '',
      created_at BIGINT NOT NULL,
      deleted_at BIGINT
    )`,
    `CREATE INDEX payees_owner ON payees (account_id, env, created_at)`,
    `CREATE TABLE categories (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      name TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX categories_owner ON categories (account_id, env, created_at)`,
    `CREATE TABLE addresses (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      kind TEXT NOT NULL,
      name TEXT NOT NULL,
      company_name TEXT NOT NULL DEFAULT '',
      address_line1 TEXT NOT NULL DEFAULT '',
      address_line2 TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL DEFAULT '',
      state TEXT NOT NULL DEFAULT '',
      zip TEXT NOT NULL DEFAULT '',
      country TEXT NOT NULL DEFAULT '',
      phone TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      note TEXT NOT NULL DEFAULT '',
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX addresses_owner ON addresses (account_id, env, kind, created_at)`,
    `CREATE TABLE vouchers (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      voucher_number TEXT NOT NULL DEFAULT '',
      voucher_date TEXT,
      memo TEXT NOT NULL DEFAULT '',
      items TEXT NOT NULL DEFAULT '[]',
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE checks (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id),
      payee_id TEXT REFERENCES payees(id),
      category_id TEXT REFERENCES categories(id),
      voucher_id TEXT REFERENCES vouchers(id),
      serial_number TEXT NOT NULL,
      issue_date TEXT NOT NULL,
      amount_cents BIGINT,
      memo TEXT,
      note TEXT,
      account_number TEXT,
      invoice_number TEXT,
      reference_id TEXT,
      no_sign INTEGER NOT NULL DEFAULT 0,
      no_amount INTEGER NOT NULL DEFAULT 0,
      no_date INTEGER NOT NULL DEFAULT 0,
      no_payee INTEGER NOT NULL DEFAULT 0,
      custom_elements TEXT NOT NULL DEFAULT '{}',
      status INTEGER NOT NULL DEFAULT 0,
      search_text TEXT NOT NULL DEFAULT '',
      created_at BIGINT NOT NULL,
      CONSTRAINT checks_serial_number_unique UNIQUE (bank_account_id, serial_number),
      CONSTRAINT checks_reference_id_unique UNIQUE (account_id, env, reference_id)
    )`,
    `CREATE INDEX checks_recent ON checks (account_id, env, created_at, id)`,
    `CREATE INDEX checks_by_status ON checks (account_id, env, status, created_at, id)`,
    `CREATE TABLE check_statements (
      id ${t.serialPk},
      check_id TEXT NOT NULL REFERENCES checks(id),
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX check_statements_check ON check_statements (check_id, id)`,
    `CREATE TABLE deliveries (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      check_id TEXT REFERENCES checks(id),
      channel TEXT NOT NULL,
      recipient TEXT NOT NULL,
      payload TEXT NOT NULL DEFAULT '{}',
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT NOT NULL,
      last_error TEXT,
      created_at BIGINT NOT NULL,
      sent_at BIGINT
    )`,
    `CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at)`,
    `CREATE INDEX deliveries_check ON deliveries (check_id)`,
  ];
}

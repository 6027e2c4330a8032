// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 4;
export const name = 'lifecycle';

export function up(t: ColumnTypes): string[] {
  return [
    `CREATE TABLE mailings (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      check_id TEXT NOT NULL REFERENCES checks(id),
      shipping_type_id INTEGER NOT NULL,
      paper_type_id INTEGER NOT NULL,
      to_address_id TEXT,
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    'CREATE INDEX mailings_check ON mailings (check_id)',
    'CREATE INDEX mailings_status ON mailings (status, created_at)',
    `CREATE TABLE idempotency_keys (
      account_id TEXT NOT NULL,
      env TEXT NOT NULL,
      idem_key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      state TEXT NOT NULL,
      response_status INTEGER,
      response_type TEXT,
      response_body ${t.blob},
      created_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, env, idem_key)
    )`,
    'CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at)',
    `CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      url TEXT NOT NULL,
      secret TEXT NOT NULL,
      events TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      deleted_at BIGINT
    )`,
    'CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (account_id, env)',
    `CREATE TABLE events (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    // Webhook deliveries ride the same outbox as emails: channel 'webhook', one row per endpoint.
    'ALTER TABLE deliveries ADD COLUMN endpoint_id TEXT',
    'ALTER TABLE deliveries ADD COLUMN event_id TEXT',
    'ALTER TABLE deliveries ADD COLUMN response_status INTEGER',
    'CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, created_at)',
    // Checks are also found by payee (term filter on payee names).
    'CREATE INDEX checks_payee ON checks (payee_id)',
  ];
}

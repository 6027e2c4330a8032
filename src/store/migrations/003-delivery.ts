// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 3;
export const name = 'delivery';

export function up(t: ColumnTypes): string[] {
  return [
    // A claimed row is leased: if its worker dies, the row is claimed again once the lease ends.
    'ALTER TABLE deliveries ADD COLUMN lease_until BIGINT',
    // Payee pages (/c/<token>): only a hash of the token is stored.
    `CREATE TABLE check_links (
      token_hash TEXT PRIMARY KEY,
      check_id TEXT NOT NULL REFERENCES checks(id),
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      expires_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE attachments (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      env TEXT NOT NULL,
      check_id TEXT NOT NULL REFERENCES checks(id),
      filename TEXT NOT NULL,
      content_type TEXT NOT NULL,
      size INTEGER NOT NULL,
      data ${t.blob} NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    'CREATE INDEX attachments_check ON attachments (check_id, created_at)',
    // What test keys "sent": nothing leaves the machine in the test environment.
    `CREATE TABLE sandbox_messages (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      delivery_id TEXT NOT NULL,
      check_id TEXT,
      channel TEXT NOT NULL,
      recipient TEXT NOT NULL,
      subject TEXT NOT NULL DEFAULT '',
      text_body TEXT NOT NULL,
      html_body TEXT NOT NULL DEFAULT '',
      link TEXT NOT NULL DEFAULT '',
      attachments TEXT NOT NULL DEFAULT '[]',
      created_at BIGINT NOT NULL
    )`,
    'CREATE INDEX sandbox_messages_account ON sandbox_messages (account_id, created_at)',
  ];
}

// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 6;
export const name = 'panel';

/** The developer panel: passwords, browser sessions, and one-time account tokens. */
export function up(_t: ColumnTypes): string[] {
  return [
    // NULL for accounts made by `checkwriter keys create`: they set one through "forgot password".
    'ALTER TABLE accounts ADD COLUMN password_hash TEXT',
    // Only a SHA-256 of the session cookie is stored, so a leaked table opens no session.
    `CREATE TABLE panel_sessions (
      id_hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    'CREATE INDEX panel_sessions_account ON panel_sessions (account_id)',
    // Email-verification links, phone codes and password-reset links. The token or code itself is
    // derived from the id with the service secret when the message is sent; only its hash is here.
    `CREATE TABLE account_tokens (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      purpose TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      used_at BIGINT
    )`,
    'CREATE INDEX account_tokens_account ON account_tokens (account_id, purpose, created_at)',
  ];
}

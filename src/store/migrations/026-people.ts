// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 26;
export const name = 'people';

/**
 * An account becomes a company with people in it (domain/people/roles.ts):
 * - `people`: one row per person — one email (lower-cased), one password, across every company
 *   they belong to.
 * - `memberships`: a person's role in one company, and whether they approve checks besides it.
 * - `invitations`: single-use links an owner or admin sends; only the hash of the link's token.
 * - `panel_sessions` gain the person signed in and when they were last seen (idle timeout); the
 *   session's `account_id` is the company they are working in.
 *
 * Every existing account gets one person (its email and password) as its owner, and its open
 * sessions become that person's, so nobody is signed out by the upgrade. The person's id is
 * derived from the account's, so the upgrade is the same on every server that runs it.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE people (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL DEFAULT '',
      password_hash TEXT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE memberships (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      person_id TEXT NOT NULL REFERENCES people(id),
      role TEXT NOT NULL,
      approves INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, person_id)
    )`,
    'CREATE INDEX memberships_person ON memberships (person_id)',
    `CREATE TABLE invitations (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      email TEXT NOT NULL,
      role TEXT NOT NULL,
      approves INTEGER NOT NULL DEFAULT 0,
      invited_by TEXT NOT NULL REFERENCES people(id),
      token_hash TEXT NOT NULL UNIQUE,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      used_at BIGINT,
      revoked_at BIGINT
    )`,
    'CREATE INDEX invitations_account ON invitations (account_id, created_at)',
    `INSERT INTO people (id, email, name, password_hash, created_at)
      SELECT 'per_' || substr(id, 6), lower(email), '', password_hash, created_at FROM accounts`,
    `INSERT INTO memberships (account_id, person_id, role, approves, created_at)
      SELECT id, 'per_' || substr(id, 6), 'owner', 0, created_at FROM accounts`,
    'ALTER TABLE panel_sessions ADD COLUMN person_id TEXT REFERENCES people(id)',
    'ALTER TABLE panel_sessions ADD COLUMN last_seen_at BIGINT',
    `UPDATE panel_sessions SET person_id = 'per_' || substr(account_id, 6), last_seen_at = created_at`,
    'CREATE INDEX panel_sessions_person ON panel_sessions (person_id)',
  ];
}

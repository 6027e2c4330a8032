// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 30;
export const name = 'second-factors';

/**
 * A person's second factors (docs/team.md, "Second factor"):
 * - `person_totp`: one authenticator app per person. The secret is sealed like bank account
 *   numbers (a copy of the database yields no factor); `confirmed_at` is null until a first code
 *   proves the app has it; `last_step` is the time step of the last code accepted, so a code seen
 *   over a shoulder or in a log cannot be used again within its window.
 * - `recovery_codes`: ten single-use codes per person, only an HMAC of each under the server
 *   secret; `used_at` set once, by the one request that wins the update.
 * - `passkeys`: WebAuthn credentials — the credential id, its public key (COSE, base64url), the
 *   signature counter, transports, the person's name for it.
 * - `panel_sessions`: `factor_at` when the factor was last proven in this session (step-up asks
 *   again past ten minutes); `factor_pending` 1 between the right password and the factor, when
 *   the session reaches only the factor page; `webauthn_challenge` the passkey ceremony under way.
 * - `accounts.factor_required`: the owner requires a second factor of everyone in the company.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE person_totp (
      person_id TEXT PRIMARY KEY REFERENCES people(id),
      sealed_secret TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      confirmed_at BIGINT,
      last_step BIGINT
    )`,
    `CREATE TABLE recovery_codes (
      person_id TEXT NOT NULL REFERENCES people(id),
      code_hash TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      used_at BIGINT,
      PRIMARY KEY (person_id, code_hash)
    )`,
    `CREATE TABLE passkeys (
      id TEXT PRIMARY KEY,
      person_id TEXT NOT NULL REFERENCES people(id),
      public_key TEXT NOT NULL,
      counter BIGINT NOT NULL,
      transports TEXT NOT NULL DEFAULT '',
      name TEXT NOT NULL DEFAULT '',
      created_at BIGINT NOT NULL,
      last_used_at BIGINT
    )`,
    'CREATE INDEX passkeys_person ON passkeys (person_id)',
    'ALTER TABLE panel_sessions ADD COLUMN factor_at BIGINT',
    'ALTER TABLE panel_sessions ADD COLUMN factor_pending INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE panel_sessions ADD COLUMN webauthn_challenge TEXT',
    'ALTER TABLE accounts ADD COLUMN factor_required INTEGER NOT NULL DEFAULT 0',
  ];
}

// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 27;
export const name = 'people-tokens-and-key-authors';

/**
 * - `account_tokens.person_id`: a password-reset link resets one person's password (a person may
 *   belong to several companies; the token's `account_id` stays the company whose outbox sent it).
 *   Older links name nobody and reset the account's owner made by migration 026.
 * - `api_keys.created_by`: the person who made a key, shown on the keys page; older keys: NULL.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    'ALTER TABLE account_tokens ADD COLUMN person_id TEXT REFERENCES people(id)',
    'ALTER TABLE api_keys ADD COLUMN created_by TEXT REFERENCES people(id)',
  ];
}

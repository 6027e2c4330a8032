// The `settings` table (migration 001): a name and its value, one row a name. The server's own
// bookkeeping lives here (the data key's id, the secret's check value), never a secret.
import type { Queryable } from './db.ts';
import { sql } from './sql.ts';
import { defineTable, insertStatement, rowValues } from './table.ts';

/** The settings table as stored (migration 001). */
interface SettingsRow {
  name: string;
  value: string;
}

const SETTINGS = defineTable<SettingsRow>()('settings', ['name', 'value']);

// First writer wins: a value another process stored meanwhile is kept, and read back.
const INSERT_UNLESS_SET = insertStatement(SETTINGS, { tail: ' ON CONFLICT (name) DO NOTHING' });
const INSERT_OR_REPLACE = insertStatement(SETTINGS, {
  tail: ' ON CONFLICT (name) DO UPDATE SET value = excluded.value',
});

export async function readSetting(q: Queryable, name: string): Promise<string | undefined> {
  const s = sql`SELECT value FROM settings WHERE name = ${name}`;
  return (await q.get<{ value: string }>(s.text, s.params))?.value;
}

/** Stores `value` unless another process stored one first; answers the value that won. */
export async function initSetting(q: Queryable, name: string, value: string): Promise<string> {
  await q.run(INSERT_UNLESS_SET, rowValues(SETTINGS, { name, value }));
  const stored = await readSetting(q, name);
  return stored ?? value;
}

/** Stores `value`, replacing what was there. */
export async function writeSetting(q: Queryable, name: string, value: string): Promise<void> {
  await q.run(INSERT_OR_REPLACE, rowValues(SETTINGS, { name, value }));
}

export async function deleteSetting(q: Queryable, name: string): Promise<void> {
  const s = sql`DELETE FROM settings WHERE name = ${name}`;
  await q.run(s.text, s.params);
}

// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';

export const id = 17;
export const name = 'search-by-owner';

/**
 * Search in a shared SQLite database. Migration 011's FTS5 index keyed each check by its
 * rowid, so one owner's matches were interleaved with every other owner's: an exact count tested
 * each match's owner in `checks` (~440 ms for "services" at 1M checks beside 0.8M of others'). Here
 * every owner (account and environment) gets a number in `search_owners`, and the index keys a
 * check by `owner_no << 40 | rowid`: an owner's entries form one rowid range, which FTS5 seeks in
 * its doclists, so a count reads only the owner's own matches (~75 ms for 250,000) however many
 * other owners share the file. `owner_no` is an INTEGER PRIMARY KEY so that VACUUM keeps it;
 * check rowids stay below 2^40 (a trillion inserts) and 2^23 owners fit in the 64-bit key.
 *
 * The index is contentless (it keeps trigrams, not the text, and never reads `checks`): its rowids
 * are no longer the checks' rowids, and a delete is told the old text by the trigger, which has it.
 * PostgreSQL's GIN index is on the checks table itself: nothing to do there.
 */
export function up(_t: ColumnTypes): string[] {
  return [];
}

export async function data(tx: Queryable): Promise<void> {
  if (tx.dialect !== 'sqlite') return;
  for (const statement of sqliteStatements()) await tx.run(statement);
}

/** The index key of a check: its owner's number in the high bits, its rowid in the low 40. */
const key = (row: 'new' | 'old') =>
  `(((SELECT owner_no FROM search_owners WHERE account_id = ${row}.account_id AND env = ${row}.env) << 40) | ${row}.rowid)`;

const ownerOf = (row: 'new' | 'old') =>
  `INSERT INTO search_owners (account_id, env) VALUES (${row}.account_id, ${row}.env) ON CONFLICT DO NOTHING;`;

const bump = (row: 'new' | 'old') =>
  `INSERT INTO check_changes (account_id, env, n) VALUES (${row}.account_id, ${row}.env, 1)
   ON CONFLICT (account_id, env) DO UPDATE SET n = check_changes.n + 1;`;

const indexed = (row: 'new' | 'old') =>
  `INSERT INTO check_search (rowid, search_text) VALUES (${key(row)}, ${row}.search_text);`;

const unindexed = (row: 'new' | 'old') =>
  `INSERT INTO check_search (check_search, rowid, search_text) VALUES ('delete', ${key(row)}, ${row}.search_text);`;

function sqliteStatements(): string[] {
  return [
    // 011's triggers write to the old index; the insert and delete ones also moved check_changes,
    // which the new ones do too (the update and payee counters are 011's, left as they are).
    'DROP TRIGGER IF EXISTS check_search_insert',
    'DROP TRIGGER IF EXISTS check_search_update',
    'DROP TRIGGER IF EXISTS check_search_delete',
    'DROP TABLE IF EXISTS check_search',
    `CREATE TABLE IF NOT EXISTS search_owners (
      owner_no INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL,
      env TEXT NOT NULL,
      UNIQUE (account_id, env)
    )`,
    // `case_sensitive 1`: search_text and the term are both lower-cased before they get here, so a
    // phrase of trigrams is an exact substring match with no second opinion on case folding.
    `CREATE VIRTUAL TABLE check_search USING fts5(search_text, content='', tokenize='trigram case_sensitive 1')`,
    `INSERT INTO search_owners (account_id, env)
       SELECT DISTINCT account_id, env FROM checks ORDER BY account_id, env ON CONFLICT DO NOTHING`,
    `INSERT INTO check_search (rowid, search_text)
       SELECT (o.owner_no << 40) | c.rowid, c.search_text
       FROM checks c JOIN search_owners o ON o.account_id = c.account_id AND o.env = c.env
       ORDER BY 1`,
    `CREATE TRIGGER check_search_insert AFTER INSERT ON checks BEGIN
       ${ownerOf('new')}
       ${indexed('new')}
       ${bump('new')}
     END`,
    `CREATE TRIGGER check_search_update AFTER UPDATE OF search_text, account_id, env ON checks BEGIN
       ${unindexed('old')}
       ${ownerOf('new')}
       ${indexed('new')}
     END`,
    `CREATE TRIGGER check_search_delete AFTER DELETE ON checks BEGIN
       ${unindexed('old')}
       ${bump('old')}
     END`,
  ];
}

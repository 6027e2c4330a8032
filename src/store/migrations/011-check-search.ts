// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';

export const id = 11;
export const name = 'check-search';

/**
 * Search at a million checks:
 * - `check_changes`: a counter per account and environment that every write to its checks (and
 *   every change to a payee, whose name the term filter matches) moves on, kept by triggers so no
 *   write path can forget it. A search's total is computed once and reused while it stands still.
 * - an index on the amount, for a term that reads as an amount.
 * - a trigram index of `search_text`, kept by the database in the writing transaction: an FTS5
 *   trigram table on SQLite (dialect-specific, in `data` below), pg_trgm's GIN on PostgreSQL.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE check_changes (
      account_id TEXT NOT NULL,
      env TEXT NOT NULL,
      n BIGINT NOT NULL,
      PRIMARY KEY (account_id, env)
    )`,
    'CREATE INDEX checks_amount ON checks (account_id, env, amount_cents)',
  ];
}

export async function data(tx: Queryable): Promise<void> {
  const statements = tx.dialect === 'sqlite' ? sqliteStatements() : await postgresStatements(tx);
  for (const statement of statements) await tx.run(statement);
}

const SQLITE_BUMP = (row: 'new' | 'old') =>
  `INSERT INTO check_changes (account_id, env, n) VALUES (${row}.account_id, ${row}.env, 1)
   ON CONFLICT (account_id, env) DO UPDATE SET n = check_changes.n + 1;`;

function sqliteStatements(): string[] {
  return [
    // External content: the index holds trigrams only and reads the text from `checks` by rowid
    // (SQLite's VACUUM keeps rowids: it copies tables whole). `case_sensitive 1` because
    // search_text and the term are both lower-cased before they get here, so a phrase of trigrams
    // is an exact substring match with no second opinion on case folding.
    `CREATE VIRTUAL TABLE check_search USING fts5(
      search_text, content='checks', content_rowid='rowid', tokenize='trigram case_sensitive 1')`,
    `INSERT INTO check_search (check_search) VALUES ('rebuild')`,
    `CREATE TRIGGER check_search_insert AFTER INSERT ON checks BEGIN
       INSERT INTO check_search (rowid, search_text) VALUES (new.rowid, new.search_text);
       ${SQLITE_BUMP('new')}
     END`,
    `CREATE TRIGGER check_search_update AFTER UPDATE OF search_text ON checks BEGIN
       INSERT INTO check_search (check_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
       INSERT INTO check_search (rowid, search_text) VALUES (new.rowid, new.search_text);
     END`,
    `CREATE TRIGGER check_changes_update AFTER UPDATE ON checks BEGIN ${SQLITE_BUMP('new')} END`,
    `CREATE TRIGGER check_search_delete AFTER DELETE ON checks BEGIN
       INSERT INTO check_search (check_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
       ${SQLITE_BUMP('old')}
     END`,
    `CREATE TRIGGER check_changes_payee_update AFTER UPDATE ON payees BEGIN ${SQLITE_BUMP('new')} END`,
    `CREATE TRIGGER check_changes_payee_delete AFTER DELETE ON payees BEGIN ${SQLITE_BUMP('old')} END`,
  ];
}

/**
 * pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it. It lives in
 * one schema per database; it goes to `public` when missing, so that schemas sharing a server
 * (tests, tenants) do not take it with them when one is dropped, and the operator class is named
 * with the schema it is in.
 */
async function postgresStatements(tx: Queryable): Promise<string[]> {
  await tx.run('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  const row = await tx.get<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
  );
  const schema = row?.schema ?? 'public';
  // Statement-level triggers: a batch of a thousand checks moves the counter once, not a thousand
  // times (each row update would leave a dead tuple behind on PostgreSQL).
  const bump = (table: string, event: string, rows: 'NEW' | 'OLD') =>
    `CREATE TRIGGER ${table}_changes_${event.toLowerCase()} AFTER ${event} ON ${table}
     REFERENCING ${rows} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION check_changes_bump()`;
  return [
    `CREATE INDEX checks_search ON checks USING gin (search_text "${schema}".gin_trgm_ops)`,
    `CREATE FUNCTION check_changes_bump() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       INSERT INTO check_changes (account_id, env, n)
         SELECT DISTINCT account_id, env, 1 FROM changed
         ON CONFLICT (account_id, env) DO UPDATE SET n = check_changes.n + 1;
       RETURN NULL;
     END
     $body$`,
    bump('checks', 'INSERT', 'NEW'),
    bump('checks', 'UPDATE', 'NEW'),
    bump('checks', 'DELETE', 'OLD'),
    bump('payees', 'UPDATE', 'NEW'),
    bump('payees', 'DELETE', 'OLD'),
  ];
}

// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';

export const id = 22;
export const name = 'search-texts-by-owner';

/** Partitions of check_texts: a tenant's count reads its own partition, shared with 1/32 of the others. */
export const CHECK_TEXT_PARTITIONS = 32;

/**
 * Counting a broad term ("services", a quarter of a tenant's million checks) on
 * PostgreSQL. Migration 019's GIN index finds the tenant's 250,000 candidates, but the count then
 * rechecks each on the wide `checks` heap (~40,000 pages, ~270 ms on a quiet machine). Counting
 * every one of the tenant's texts in a narrow table, where they sit in a partition of their own
 * owner's hash, is a sequential read of ~100 MB instead: ~85–110 ms at a million, in parallel.
 *
 * `check_texts` holds each check's search_text beside its owner's number (`search_owners`, as on
 * SQLite since 017) and nothing else; statement-level triggers keep it with `checks` in the same
 * transaction (an insert of a thousand checks is one statement here too). It has no trigram index:
 * a term matching few checks is still counted on 019's GIN index, which also serves every search
 * with a status or a reference id; checks/search.ts chooses by a sample of the newest checks.
 * SQLite's FTS5 index (017) counts from the index alone: nothing to do there.
 */
export function up(_t: ColumnTypes): string[] {
  return [];
}

export async function data(tx: Queryable): Promise<void> {
  if (tx.dialect !== 'postgres') return;
  for (const statement of postgresStatements()) await tx.run(statement);
}

function postgresStatements(): string[] {
  const partitions = Array.from(
    { length: CHECK_TEXT_PARTITIONS },
    (_, i) =>
      `CREATE TABLE check_texts_${i} PARTITION OF check_texts
       FOR VALUES WITH (MODULUS ${CHECK_TEXT_PARTITIONS}, REMAINDER ${i})`,
  );
  return [
    `CREATE TABLE IF NOT EXISTS search_owners (
       owner_no INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       account_id TEXT NOT NULL,
       env TEXT NOT NULL,
       UNIQUE (account_id, env)
     )`,
    `CREATE TABLE check_texts (
       owner_no INTEGER NOT NULL,
       check_id TEXT NOT NULL,
       search_text TEXT NOT NULL,
       PRIMARY KEY (owner_no, check_id)
     ) PARTITION BY HASH (owner_no)`,
    ...partitions,
    `INSERT INTO search_owners (account_id, env)
       SELECT DISTINCT account_id, env FROM checks ORDER BY account_id, env ON CONFLICT DO NOTHING`,
    `INSERT INTO check_texts (owner_no, check_id, search_text)
       SELECT o.owner_no, c.id, c.search_text
       FROM checks c JOIN search_owners o ON o.account_id = c.account_id AND o.env = c.env`,
    // Read committed (the store's level): the second statement's snapshot sees an owner another
    // transaction added first, since ON CONFLICT DO NOTHING waited for it to commit.
    `CREATE FUNCTION check_texts_added() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       INSERT INTO search_owners (account_id, env)
         SELECT DISTINCT account_id, env FROM added ORDER BY account_id, env ON CONFLICT DO NOTHING;
       INSERT INTO check_texts (owner_no, check_id, search_text)
         SELECT o.owner_no, a.id, a.search_text
         FROM added a JOIN search_owners o ON o.account_id = a.account_id AND o.env = a.env;
       RETURN NULL;
     END
     $body$`,
    // Only rows whose text changed are written (a status move leaves check_texts alone).
    `CREATE FUNCTION check_texts_changed() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       UPDATE check_texts t SET search_text = n.search_text
         FROM now_rows n JOIN was_rows w ON w.id = n.id
         JOIN search_owners o ON o.account_id = n.account_id AND o.env = n.env
         WHERE n.search_text IS DISTINCT FROM w.search_text
           AND t.owner_no = o.owner_no AND t.check_id = n.id;
       RETURN NULL;
     END
     $body$`,
    `CREATE FUNCTION check_texts_removed() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       DELETE FROM check_texts t USING removed r, search_owners o
         WHERE o.account_id = r.account_id AND o.env = r.env AND t.owner_no = o.owner_no AND t.check_id = r.id;
       RETURN NULL;
     END
     $body$`,
    `CREATE TRIGGER checks_texts_insert AFTER INSERT ON checks
     REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION check_texts_added()`,
    `CREATE TRIGGER checks_texts_update AFTER UPDATE ON checks
     REFERENCING OLD TABLE AS was_rows NEW TABLE AS now_rows FOR EACH STATEMENT EXECUTE FUNCTION check_texts_changed()`,
    `CREATE TRIGGER checks_texts_delete AFTER DELETE ON checks
     REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION check_texts_removed()`,
  ];
}

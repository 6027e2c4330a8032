// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';

export const id = 19;
export const name = 'search-index-by-owner';

/**
 * A broad search in a shared PostgreSQL database. Migration 011's pg_trgm GIN
 * index holds trigrams only, so its bitmap for "services" held every owner's matches (500,000 of
 * 2,000,000 checks beside a neighbour) and the heap recheck then read the whole table and dropped
 * the other owner's half by the owner filter (~960 ms p99). Here the GIN index also holds the owner
 * (btree_gin's operator classes for the two owner columns), so the bitmap is the intersection of
 * the owner's posting lists with the trigrams': the owner's candidates alone, and the recheck reads
 * only pages that hold them. Every search the store sends names the owner (checks/search.ts), so
 * 011's index has no query left and is dropped (one GIN index to keep up on every write, not two).
 *
 * btree_gin, like pg_trgm, ships with PostgreSQL's contrib package and is trusted since
 * PostgreSQL 13 (a database owner may create it). It goes to `public` when missing, for the same
 * reason as pg_trgm (011): schemas sharing a server do not take it with them when one is dropped.
 * A role that may not create it needs an administrator to run `CREATE EXTENSION btree_gin` once
 * (README, "PostgreSQL"). SQLite's index is keyed by owner since migration 017: nothing to do here.
 */
export function up(_t: ColumnTypes): string[] {
  return [];
}

export async function data(tx: Queryable): Promise<void> {
  if (tx.dialect !== 'postgres') return;
  await tx.run('CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public');
  const schemaOf = async (extension: string): Promise<string> => {
    const row = await tx.get<{ schema: string }>(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ?`,
      [extension],
    );
    return row?.schema ?? 'public';
  };
  const trgm = await schemaOf('pg_trgm');
  const btree = await schemaOf('btree_gin');
  await tx.run(
    `CREATE INDEX checks_search_by_owner ON checks USING gin (
       account_id "${btree}".text_ops, env "${btree}".text_ops, search_text "${trgm}".gin_trgm_ops)`,
  );
  await tx.run('DROP INDEX IF EXISTS checks_search');
}

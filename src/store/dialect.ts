// The few places where SQLite and PostgreSQL SQL differ. Everything else is shared SQL.
import type { Dialect, Queryable } from './db.ts';
import { Sql, sql } from './sql.ts';

/** PostgreSQL channel that carries API key revocations to every server process. */
export const KEYS_CHANNEL = 'checkwriter_keys';

export interface ColumnTypes {
  /** Auto-incrementing integer primary key. */
  serialPk: string;
  blob: string;
}

export function columnTypes(dialect: Dialect): ColumnTypes {
  return dialect === 'sqlite'
    ? { serialPk: 'INTEGER PRIMARY KEY AUTOINCREMENT', blob: 'BLOB' }
    : { serialPk: 'BIGSERIAL PRIMARY KEY', blob: 'BYTEA' };
}

/** Case-insensitive substring match of `column` against a bound, already lower-cased `%term%`. */
export function containsIgnoreCase(dialect: Dialect, column: string): string {
  // SQLite's LIKE is case-insensitive for ASCII; PostgreSQL needs ILIKE. Both escape with '\'.
  return dialect === 'sqlite' ? `${column} LIKE ? ESCAPE '\\'` : `${column} ILIKE ? ESCAPE '\\'`;
}

/** Tells the other server processes that API keys changed (PostgreSQL; SQLite uses data_version). */
export async function announceKeysChanged(q: Queryable): Promise<void> {
  if (q.dialect === 'postgres') await q.run(`SELECT pg_notify('${KEYS_CHANNEL}', '')`);
}

/** Serialises migrations between processes starting at once (PostgreSQL advisory lock). */
export async function lockForMigrations(q: Queryable): Promise<void> {
  if (q.dialect === 'postgres') await q.get('SELECT pg_advisory_xact_lock(7305442001)');
}

/** Whether a table of this name exists (in the search_path on PostgreSQL); a read, never a write. */
export async function tableExists(q: Queryable, table: string): Promise<boolean> {
  const s =
    q.dialect === 'postgres'
      ? sql`SELECT to_regclass(${table})::text AS found`
      : sql`SELECT name AS found FROM sqlite_master WHERE type = 'table' AND name = ${table}`;
  const row = await q.get<{ found: string | null }>(s.text, s.params);
  return row !== undefined && row.found !== null;
}

/** Row locks that let several workers claim different rows at once (PostgreSQL); SQLite has one writer. */
export function skipLocked(dialect: Dialect): string {
  return dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
}

/**
 * Row locks for a check-then-write on a record another request may delete (PostgreSQL; SQLite
 * has one writer, so its transactions never interleave). A use takes `FOR SHARE` on the record
 * it names, a delete `FOR UPDATE` before its guarded DELETE: whichever comes second waits for
 * the first to commit, then sees what it did (READ COMMITTED reads afresh per statement).
 */
export function forShare(dialect: Dialect): string {
  return dialect === 'postgres' ? ' FOR SHARE' : '';
}

export function forUpdate(dialect: Dialect): string {
  return dialect === 'postgres' ? ' FOR UPDATE' : '';
}

/**
 * PostgreSQL: a statement of this transaction that waits for another transaction's row or key
 * (an idempotency key another request holds) gives up after `ms` with LockTimeout. `null` puts
 * back the server's default. SQLite has one writer at a time, so nothing waits there.
 */
export async function waitForLocksAtMost(q: Queryable, ms: number | null): Promise<void> {
  if (q.dialect !== 'postgres') return;
  await q.run(
    ms === null ? 'SET LOCAL lock_timeout TO DEFAULT' : `SET LOCAL lock_timeout = ${Math.max(1, Math.floor(ms))}`,
  );
}

/**
 * Whole weeks from `from` to the date in `column` (both YYYY-MM-DD text, the column's date not
 * before `from`): 0 for its first seven days, 1 for the next seven, …
 */
export function weeksAfter(dialect: Dialect, column: string, from: string): Sql {
  return new Sql(
    dialect === 'sqlite'
      ? `CAST((julianday(${column}) - julianday(?)) / 7 AS INTEGER)`
      : `((CAST(${column} AS DATE) - CAST(? AS DATE)) / 7)`,
    [from],
  );
}

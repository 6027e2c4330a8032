// Helpers for queries scoped by owner (account and environment): every query of a record a check
// refers to carries this scope, so another account's id is indistinguishable from an unknown one.
import type { Owner } from '../domain/owner.ts';
import type { Paged } from '../domain/paging.ts';
import type { Dialect, Queryable, SqlValue } from './db.ts';
import { containsIgnoreCase, forShare } from './dialect.ts';

/** A page of a list as the store reads it: how many, from where, and the search term. */
export interface Page {
  limit: number;
  offset: number;
  term: string | null;
}

export const LIVE = 'account_id = ? AND env = ? AND deleted_at IS NULL';
export const OWNED = 'account_id = ? AND env = ?';

/**
 * The owner test for rows already picked by a key (`id IN (...)`, a bank account's serial numbers),
 * on the table or alias `table`. SQLite's planner has no statistics (we run no ANALYZE), so it takes
 * `account_id = ? AND env = ?` for a selective index and walks every row the owner has instead of
 * looking the keys up: 600 ms for 50 checks of a 100,000-check account. The unary plus makes the
 * owner a test on each row found. PostgreSQL plans from its own statistics and gets the plain form.
 */
export function ownerOfKeyedRows(dialect: Dialect, table = ''): string {
  const column = `${dialect === 'sqlite' ? '+' : ''}${table === '' ? '' : `${table}.`}`;
  return `${column}account_id = ? AND ${column}env = ?`;
}

/** As `ownerOfKeyedRows`, for tables whose rows are soft-deleted (LIVE). */
export function liveKeyedRows(dialect: Dialect, table = ''): string {
  return `${ownerOfKeyedRows(dialect, table)} AND ${table === '' ? '' : `${table}.`}deleted_at IS NULL`;
}

/**
 * How to read a page of a newest-first list of `total` rows so that no page skips more than half
 * of it: a page in the far half is counted from the oldest end (ascending), and its rows are then
 * put back in list order by the caller.
 */
export function fromNearerEnd(
  offset: number,
  limit: number,
  total: number,
): { offset: number; limit: number; ascending: boolean } {
  if (offset <= total / 2) return { offset, limit, ascending: false };
  const rows = Math.min(limit, total - offset);
  return { offset: Math.max(0, total - offset - rows), limit: rows, ascending: true };
}

/** `%term%` with LIKE's wildcards escaped, lower-cased. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function paged<Row, T>(
  q: Queryable,
  table: string,
  where: string,
  params: SqlValue[],
  searchColumns: readonly string[],
  page: Page,
  map: (row: Row) => T,
  columns = '*',
): Promise<Paged<T>> {
  let clause = where;
  const args = [...params];
  if (page.term !== null && page.term !== '') {
    clause += ` AND (${searchColumns.map((c) => containsIgnoreCase(q.dialect, c)).join(' OR ')})`;
    for (let i = 0; i < searchColumns.length; i += 1) args.push(likePattern(page.term));
  }
  const count = await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`, args);
  const rows = await q.all<Row>(
    `SELECT ${columns} FROM ${table} WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    [...args, page.limit, page.offset],
  );
  return { total: Number(count?.n ?? 0), items: rows.map(map) };
}

/**
 * Which of `ids` exist for this owner in `table`. With `share`, those found stay locked against a
 * delete until the caller's transaction ends (PostgreSQL; dialect.ts, forShare): a write that
 * names them cannot find them gone.
 */
export async function existingIds(
  q: Queryable,
  owner: Owner,
  table: 'categories' | 'vouchers',
  ids: readonly string[],
  lock: 'share' | null = null,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await q.all<{ id: string }>(
    `SELECT id FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${ownerOfKeyedRows(q.dialect)}${lock === 'share' ? forShare(q.dialect) : ''}`,
    [...ids, owner.accountId, owner.env],
  );
  return new Set(rows.map((r) => r.id));
}

// Queries scoped by owner (account and environment): every query of a record a check refers to
// carries this scope, so another account's id is indistinguishable from an unknown one.
//
// How a repository scopes a query: splice `owned(owner, options)` into a `sql` template
// (store/sql.ts); the filter brings its own two parameters, in the place its text puts them:
//
//   sql`UPDATE payees SET deleted_at = ${now} WHERE id = ${id} AND ${owned(owner, { live: true })}`
//   sql`SELECT ... FROM checks c WHERE c.id IN ${inList(ids)} AND ${owned(owner, { alias: 'c', keyed: q.dialect })}`
//
// Lists go through `pagedRows` with the filter as their `where`. Also here: the paging helpers
// (`fromNearerEnd`, `likePattern`) and `existingIds`, the owner's ids among those a write names.
import type { Owner } from '../domain/owner.ts';
import type { Paged } from '../domain/paging.ts';
import type { Dialect, Queryable } from './db.ts';
import { containsIgnoreCase, forShare } from './dialect.ts';
import { inList, joinSql, raw, Sql, sql } from './sql.ts';

/** A page of a list as the store reads it: how many, from where, and the search term. */
export interface Page {
  limit: number;
  offset: number;
  term: string | null;
}

export interface OwnedOptions {
  /** The table's alias in the query (`c` for `checks c`); none for a one-table query. */
  readonly alias?: string;
  /** Only rows not soft-deleted (`deleted_at IS NULL`). */
  readonly live?: boolean;
  /**
   * The rows are already picked by a key (`id IN (...)`, a bank account's serial numbers): pass
   * the query's dialect. SQLite's planner has no statistics (we run no ANALYZE), so it takes
   * `account_id = ? AND env = ?` for a selective index and walks every row the owner has instead
   * of looking the keys up: 600 ms for 50 checks of a 100,000-check account. On SQLite a unary
   * plus then makes the owner a test on each row found; PostgreSQL plans from its own statistics
   * and gets the plain form.
   */
  readonly keyed?: Dialect;
}

/**
 * The four texts of one alias: index 1 = live, 2 = keyed on SQLite. Built once per alias (a
 * handful, all written in the source), so a call looks its text up and builds no string.
 */
const textsByAlias = new Map<string, readonly string[]>();

function ownerTexts(alias: string): readonly string[] {
  let texts = textsByAlias.get(alias);
  if (texts === undefined) {
    const table = alias === '' ? '' : `${alias}.`;
    const plain = `${table}account_id = ? AND ${table}env = ?`;
    const keyed = `+${table}account_id = ? AND +${table}env = ?`;
    const live = ` AND ${table}deleted_at IS NULL`;
    texts = [plain, plain + live, keyed, keyed + live];
    textsByAlias.set(alias, texts);
  }
  return texts;
}

/** The owner filter and its two parameters, as one fragment to splice into a `sql` template. */
export function owned(owner: Owner, options: OwnedOptions = {}): Sql {
  const texts = ownerTexts(options.alias ?? '');
  const text = texts[(options.live === true ? 1 : 0) + (options.keyed === 'sqlite' ? 2 : 0)] as string;
  return new Sql(text, [owner.accountId, owner.env]);
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

/** A newest-first page of `table`'s rows that `where` keeps, with their count. */
export async function pagedRows<Row, T>(
  q: Queryable,
  list: {
    table: string;
    where: Sql;
    searchColumns: readonly string[];
    page: Page;
    map: (row: Row) => T;
    columns?: string;
  },
): Promise<Paged<T>> {
  const { where, searchColumns, page, map } = list;
  let clause = where;
  if (page.term !== null && page.term !== '') {
    const pattern = likePattern(page.term);
    const anyColumn = joinSql(
      searchColumns.map((c) => new Sql(containsIgnoreCase(q.dialect, c), [pattern])),
      ' OR ',
    );
    clause = sql`${where} AND (${anyColumn})`;
  }
  const table = raw(list.table);
  const count = sql`SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`;
  const total = await q.get<{ n: number }>(count.text, count.params);
  const read = sql`SELECT ${raw(list.columns ?? '*')} FROM ${table} WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`;
  const rows = await q.all<Row>(read.text, read.params);
  return { total: Number(total?.n ?? 0), items: rows.map(map) };
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
  const s = sql`SELECT id FROM ${raw(table)} WHERE id IN ${inList(ids)} AND ${owned(owner, { keyed: q.dialect })}${raw(lock === 'share' ? forShare(q.dialect) : '')}`;
  const rows = await q.all<{ id: string }>(s.text, s.params);
  return new Set(rows.map((r) => r.id));
}

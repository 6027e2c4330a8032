// Pages of the check list by status and referenceId (GET /checks without a term; search.ts
// has the term): the total from check_counts, the page's ids from the list's index (from the nearer
// end, or from a page anchor deep in the list), then those rows in full.
import type { Check } from '../../domain/check.ts';
import type { Owner } from '../../domain/owner.ts';
import type { Paged } from '../../domain/paging.ts';
import { totalFromCounts } from './counts.repository.ts';
import { checksInListOrder } from './checks.repository.ts';
import type { Queryable } from '../db.ts';
import { fromNearerEnd, owned } from '../owned-queries.ts';
import { joinSql, raw, type Sql, sql } from '../sql.ts';

/** The list filters that need no search: status and referenceId (search.ts has the term). */
export interface CheckFilter {
  status: number | null;
  referenceId: string | null;
  limit: number;
  offset: number;
}

/** A place in the list order (newest first: created_at DESC, id DESC). */
export interface ListKey {
  createdAt: number;
  id: string;
}

const NEWEST_FIRST = raw('created_at DESC, id DESC');
const OLDEST_FIRST = raw('created_at ASC, id ASC');

function listWhere(owner: Owner, filter: Pick<CheckFilter, 'status' | 'referenceId'>): Sql {
  const conditions = [owned(owner)];
  if (filter.status !== null) conditions.push(sql`status = ${filter.status}`);
  if (filter.referenceId !== null) conditions.push(sql`reference_id = ${filter.referenceId}`);
  return joinSql(conditions, ' AND ');
}

async function pageIds(q: Queryable, s: Sql): Promise<string[]> {
  const rows = await q.all<{ id: string }>(s.text, s.params);
  return rows.map((r) => r.id);
}

/**
 * A page of the list. `from` starts the count at a known place (a page anchor) instead of the
 * list's head: the page is then at most a few thousand index entries away, however deep it is.
 */
export async function listChecks(
  q: Queryable,
  owner: Owner,
  filter: CheckFilter,
  from: { key: ListKey; skip: number } | null = null,
): Promise<Paged<Check>> {
  const where = listWhere(owner, filter);
  // Totals of unfiltered and status-filtered lists come from check_counts: one row, not a count.
  let total: number;
  if (filter.referenceId === null) total = await totalFromCounts(q, owner, filter.status);
  else {
    const count = sql`SELECT COUNT(*) AS n FROM checks WHERE ${where}`;
    total = Number((await q.get<{ n: number }>(count.text, count.params))?.n ?? 0);
  }
  if (filter.offset >= total) return { total, items: [] };
  if (from !== null) {
    const ids = await pageIds(
      q,
      sql`SELECT id FROM checks WHERE ${where} AND (created_at, id) <= (${from.key.createdAt}, ${from.key.id})
       ORDER BY created_at DESC, id DESC LIMIT ${filter.limit} OFFSET ${from.skip}`,
    );
    return { total, items: await checksInListOrder(q, ids) };
  }
  // Pages are found on the (account, env[, status], created_at, id) index alone, and only the
  // page's rows are then read in full (checksInListOrder puts them back newest first).
  const read = fromNearerEnd(filter.offset, filter.limit, total);
  const order = read.ascending ? OLDEST_FIRST : NEWEST_FIRST;
  const ids = await pageIds(
    q,
    sql`SELECT id FROM checks WHERE ${where} ORDER BY ${order} LIMIT ${read.limit} OFFSET ${read.offset}`,
  );
  return { total, items: await checksInListOrder(q, ids) };
}

/**
 * The place of every `every`-th check of the owner's list (positions 0, every, 2 × every, …),
 * counted by the database over the list's index in one pass.
 */
export async function listAnchors(
  q: Queryable,
  owner: Owner,
  status: number | null,
  every: number,
): Promise<ListKey[]> {
  const s = sql`SELECT created_at, id FROM (
       SELECT created_at, id, ROW_NUMBER() OVER (ORDER BY created_at DESC, id DESC) AS n FROM checks WHERE ${listWhere(owner, { status, referenceId: null })}
     ) ranked WHERE (n - 1) % ${every} = 0 ORDER BY n`;
  const rows = await q.all<{ created_at: number | string; id: string }>(s.text, s.params);
  return rows.map((r) => ({ createdAt: Number(r.created_at), id: r.id }));
}

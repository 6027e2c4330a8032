// Pages of the check list by status and referenceId (GET /checks without a term; search.ts
// has the term): the total from check_counts, the page's ids from the list's index (from the nearer
// end, or from a page anchor deep in the list), then those rows in full.
import type { Check } from '../../domain/check.ts';
import type { Owner } from '../../domain/owner.ts';
import type { Paged } from '../../domain/paging.ts';
import { totalFromCounts } from './counts.repository.ts';
import { checksInListOrder } from './checks.repository.ts';
import type { Queryable, SqlValue } from '../db.ts';
import { fromNearerEnd } from '../owned-queries.ts';

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

function listWhere(
  owner: Owner,
  filter: Pick<CheckFilter, 'status' | 'referenceId'>,
): { where: string; args: SqlValue[] } {
  let where = 'account_id = ? AND env = ?';
  const args: SqlValue[] = [owner.accountId, owner.env];
  if (filter.status !== null) {
    where += ' AND status = ?';
    args.push(filter.status);
  }
  if (filter.referenceId !== null) {
    where += ' AND reference_id = ?';
    args.push(filter.referenceId);
  }
  return { where, args };
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
  const { where, args } = listWhere(owner, filter);
  // Totals of unfiltered and status-filtered lists come from check_counts: one row, not a count.
  const total =
    filter.referenceId === null
      ? await totalFromCounts(q, owner, filter.status)
      : Number((await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM checks WHERE ${where}`, args))?.n ?? 0);
  if (filter.offset >= total) return { total, items: [] };
  if (from !== null) {
    const page = await q.all<{ id: string }>(
      `SELECT id FROM checks WHERE ${where} AND (created_at, id) <= (?, ?)
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...args, from.key.createdAt, from.key.id, filter.limit, from.skip],
    );
    return {
      total,
      items: await checksInListOrder(
        q,
        page.map((r) => r.id),
      ),
    };
  }
  // Pages are found on the (account, env[, status], created_at, id) index alone, and only the
  // page's rows are then read in full (checksInListOrder puts them back newest first).
  const read = fromNearerEnd(filter.offset, filter.limit, total);
  const order = read.ascending ? 'created_at ASC, id ASC' : 'created_at DESC, id DESC';
  const page = await q.all<{ id: string }>(`SELECT id FROM checks WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`, [
    ...args,
    read.limit,
    read.offset,
  ]);
  return {
    total,
    items: await checksInListOrder(
      q,
      page.map((r) => r.id),
    ),
  };
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
  const { where, args } = listWhere(owner, { status, referenceId: null });
  const rows = await q.all<{ created_at: number | string; id: string }>(
    `SELECT created_at, id FROM (
       SELECT created_at, id, ROW_NUMBER() OVER (ORDER BY created_at DESC, id DESC) AS n FROM checks WHERE ${where}
     ) ranked WHERE (n - 1) % ? = 0 ORDER BY n`,
    [...args, every],
  );
  return rows.map((r) => ({ createdAt: Number(r.created_at), id: r.id }));
}

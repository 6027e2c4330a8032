// GET /checks and the panel's check list: pages by status and referenceId from the checks
// repository, term searches from check-search.ts with their totals remembered (issue 13).
import type { Check } from '../domain/check.ts';
import { parseAmountToCents } from '../domain/money.ts';
import type { Owner } from '../domain/owner.ts';
import type { Db } from '../store/db.ts';
import * as search from '../store/check-search.ts';
import * as checks from '../store/checks.repository.ts';
import type { ServiceContext } from './context.ts';
import { type Found, SearchCache } from './search-cache.ts';

export interface ListQuery {
  perPage: number;
  page: number;
  term: string | null;
  status: number | null;
  referenceId: string | null;
}

/**
 * A search with at most this many matches keeps every id (newest first), so all its pages are
 * slices; a broader one keeps its total and walks for each page. 2,000 ids are about 100 kB.
 */
const FEW_MATCHES = 2_000;
const REMEMBERED_SEARCHES = 256;
const caches = new WeakMap<Db, SearchCache>();

function cacheFor(db: Db): SearchCache {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new SearchCache(REMEMBERED_SEARCHES);
    caches.set(db, cache);
  }
  return cache;
}

export async function listChecks(
  ctx: ServiceContext,
  owner: Owner,
  query: ListQuery,
): Promise<{ total: number; checks: Check[] }> {
  const offset = (query.page - 1) * query.perPage;
  if (query.term === null || query.term === '') {
    const result = await checks.listChecks(ctx.db, owner, {
      status: query.status,
      referenceId: query.referenceId,
      limit: query.perPage,
      offset,
    });
    return { total: result.total, checks: result.items };
  }
  const parsed = parseAmountToCents(query.term);
  const filter: search.SearchFilter = {
    status: query.status,
    referenceId: query.referenceId,
    term: query.term,
    termCents: 'cents' in parsed ? parsed.cents : null,
  };
  const found = await findMatches(ctx.db, owner, filter);
  if (offset >= found.total) return { total: found.total, checks: [] };
  const ids =
    found.ids !== null
      ? found.ids.slice(offset, offset + query.perPage)
      : await search.matchPageIds(ctx.db, owner, filter, { limit: query.perPage, offset, total: found.total });
  return { total: found.total, checks: await checks.checksInListOrder(ctx.db, ids) };
}

/** The search's total (and ids, when few), from the cache while the owner's checks are unchanged. */
async function findMatches(db: Db, owner: Owner, filter: search.SearchFilter): Promise<Found> {
  const cache = cacheFor(db);
  // Read before counting: a write landing in between leaves the entry one change behind, and the
  // next request counts again rather than trusting it.
  const changes = await search.checkChanges(db, owner);
  const key = JSON.stringify([
    owner.accountId,
    owner.env,
    filter.status,
    filter.referenceId,
    filter.term.toLowerCase(),
  ]);
  const cached = cache.get(key, changes);
  if (cached !== undefined) return cached;
  const total = await search.countMatches(db, owner, filter);
  const ids = total <= FEW_MATCHES ? await search.allMatchIds(db, owner, filter) : null;
  const found: Found = { changes, total: ids === null ? total : ids.length, ids };
  cache.set(key, found);
  return found;
}

// GET /checks and the panel's check list: pages by status and referenceId from the checks
// repository, term searches from store/checks/search.ts with their totals remembered.
import type { Check } from '../../domain/check.ts';
import { parseAmountToCents } from '../../domain/money.ts';
import type { Owner } from '../../domain/owner.ts';
import type { Db } from '../../store/db.ts';
import * as search from '../../store/checks/search.ts';
import * as counts from '../../store/checks/counts.repository.ts';
import * as pages from '../../store/checks/pages.repository.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import type { ServiceContext } from '../context.ts';
import { type AsOf, ChangeKeyedCache } from '../change-keyed-cache.ts';

export interface ListQuery {
  perPage: number;
  page: number;
  term: string | null;
  status: number | null;
  referenceId: string | null;
}

/** What a search found: its total and, when the matches are few, every id newest first. */
interface Found extends AsOf {
  total: number;
  ids: readonly string[] | null;
}

/** The place of every ANCHOR_EVERY-th check of a list, and when it was last counted. */
interface Anchors extends AsOf {
  keys: readonly pages.ListKey[];
  builtAt: number;
}

/**
 * A search with at most this many matches keeps every id (newest first), so all its pages are
 * slices; a broader one keeps its total and walks for each page. 2,000 ids are about 100 kB.
 */
const FEW_MATCHES = 2_000;
/**
 * Pages deeper than this start from an anchor: a keyset seek, then at most ANCHOR_EVERY index
 * entries skipped. 1,000,000 checks make 1,000 anchors (about 60 kB).
 */
const ANCHORS_FROM = 10_000;
const ANCHOR_EVERY = 1_000;
/**
 * Counting the anchors reads the whole list's index once (a few hundred ms at a million checks).
 * While the owner's checks keep changing, a list recounts them at most this often and pages in
 * between skip from the nearer end as before.
 */
const ANCHORS_RECOUNT_MS = 10_000;
const REMEMBERED = 256;

interface Caches {
  searches: ChangeKeyedCache<Found>;
  anchors: ChangeKeyedCache<Anchors>;
}
const caches = new WeakMap<Db, Caches>();

function cachesFor(db: Db): Caches {
  let found = caches.get(db);
  if (found === undefined) {
    found = { searches: new ChangeKeyedCache(REMEMBERED), anchors: new ChangeKeyedCache(REMEMBERED) };
    caches.set(db, found);
  }
  return found;
}

/** What listing needs of the service context: the database, and the clock for recounting anchors. */
type ListContext = Pick<ServiceContext, 'db' | 'now'>;

export async function listChecks(
  ctx: ListContext,
  owner: Owner,
  query: ListQuery,
): Promise<{ total: number; checks: Check[] }> {
  const offset = (query.page - 1) * query.perPage;
  if (query.term === null || query.term === '') {
    const filter = { status: query.status, referenceId: query.referenceId, limit: query.perPage, offset };
    const from =
      query.referenceId === null && offset >= ANCHORS_FROM ? await anchorFor(ctx, owner, query.status, offset) : null;
    const result = await pages.listChecks(ctx.db, owner, filter, from);
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
  const cache = cachesFor(db).searches;
  // Read before counting: a write landing in between leaves the entry one change behind, and the
  // next request counts again rather than trusting it.
  const changes = await counts.checkChanges(db, owner);
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

/** The anchor at or before `offset` and how far past it the page starts; null to skip from the nearer end. */
async function anchorFor(
  ctx: ListContext,
  owner: Owner,
  status: number | null,
  offset: number,
): Promise<{ key: pages.ListKey; skip: number } | null> {
  const cache = cachesFor(ctx.db).anchors;
  const changes = await counts.checkChanges(ctx.db, owner);
  const key = JSON.stringify([owner.accountId, owner.env, status]);
  let anchors = cache.get(key, changes);
  if (anchors === undefined) {
    const stale = cache.peek(key);
    if (stale !== undefined && ctx.now() - stale.builtAt < ANCHORS_RECOUNT_MS) return null;
    anchors = { changes, keys: await pages.listAnchors(ctx.db, owner, status, ANCHOR_EVERY), builtAt: ctx.now() };
    cache.set(key, anchors);
  }
  const index = Math.floor(offset / ANCHOR_EVERY);
  const anchor = anchors.keys[index];
  return anchor === undefined ? null : { key: anchor, skip: offset - index * ANCHOR_EVERY };
}

// The `term` filter of GET /checks at a million checks. A check matches when the term
// (lower-cased) is a substring of its search_text, or of its payee's current name, or equals its
// amount when the term reads as one. The three are counted as disjoint parts, each on its own
// index: the trigram index for the text (FTS5 on SQLite, keyed by owner since migration 017; on
// PostgreSQL pg_trgm's GIN, keyed by owner with btree_gin since migration 019, so that a bitmap
// holds the owner's candidates alone), the payee index for payees whose name matches, and for the
// amount an FTS5 table of one token a check on SQLite (keyed by owner like the text, migration
// 035: cheaper to write than a b-tree keyed by amount) and the amount index on PostgreSQL.
import type { Owner } from '../../domain/owner.ts';
import type { Dialect, Queryable } from '../db.ts';
import { containsIgnoreCase } from '../dialect.ts';
import { fromNearerEnd, likePattern, owned } from '../owned-queries.ts';
import { joinSql, raw, Sql, sql } from '../sql.ts';

export interface SearchFilter {
  status: number | null;
  referenceId: string | null;
  /** Not empty. */
  term: string;
  /** The term read as an amount, when it is one. */
  termCents: number | null;
}

const CHECK = raw('c.');
const TESTED_CHECK = raw('+c.');

/**
 * The owner and the non-term filters, on the checks table aliased `c`. `tested` marks them as
 * tests on rows found by another index: SQLite's unary plus keeps its planner from walking the
 * owner's index instead (without statistics it prefers two equal columns to the payee index).
 */
function scope(dialect: Dialect, owner: Owner, f: SearchFilter, tested = false): Sql {
  const c = tested && dialect === 'sqlite' ? TESTED_CHECK : CHECK;
  const conditions = [owned(owner, tested ? { alias: 'c', keyed: dialect } : { alias: 'c' })];
  if (f.status !== null) conditions.push(sql`${c}status = ${f.status}`);
  if (f.referenceId !== null) conditions.push(sql`${c}reference_id = ${f.referenceId}`);
  return joinSql(conditions, ' AND ');
}

/** Whether `column` holds `needle` (already lower-cased) as an exact substring, row by row. */
function holds(dialect: Dialect, column: string, needle: string): Sql {
  return new Sql(dialect === 'sqlite' ? `instr(${column}, ?) > 0` : `strpos(${column}, ?) > 0`, [needle]);
}

/** Whether `column` holds `term` in any case (LIKE on SQLite, ILIKE on PostgreSQL). */
function containsTerm(dialect: Dialect, column: string, term: string): Sql {
  return new Sql(containsIgnoreCase(dialect, column), [likePattern(term)]);
}

/** How payees `p` join to their checks `c`: CROSS JOIN fixes SQLite's join order (PostgreSQL's takes no ON). */
function payeeJoin(dialect: Dialect): Sql {
  return dialect === 'sqlite' ? CROSS_JOIN : JOIN;
}
const CROSS_JOIN = raw('CROSS JOIN');
const JOIN = raw('JOIN');

function payeesNamed(owner: Owner, term: string, dialect: Dialect): Sql {
  return sql`SELECT id FROM payees WHERE ${owned(owner)} AND ${containsTerm(dialect, 'name', term)}`;
}

/**
 * FTS5's trigram index answers a phrase of three or more characters from the index alone; a
 * shorter term has no trigram and is matched row by row.
 */
function usesTrigrams(term: string): boolean {
  return [...term].length >= 3;
}

/** FTS5 phrase syntax: the term in double quotes, a double quote inside doubled. */
function phrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** The low 40 bits of an FTS5 key (migration 017): the check's rowid. Part of the text, not a parameter. */
const ROWID_BITS = raw('1099511627775');
const F_ROWID = raw('f.rowid');
const A_ROWID = raw('a.rowid');

/**
 * SQLite: the owner's text matches in the FTS5 index `f`, a rowid range there (FTS5 seeks it in
 * its doclists, so other owners' matches are never read). An owner who never had a check has no
 * number: the range is then below owner 1's and holds nothing (a NULL bound would make FTS5 read
 * every owner's matches, ~130 ms at 1M, to find none).
 */
function ownMatches(owner: Owner, needle: string): Sql {
  return sql`check_search MATCH ${phrase(needle)} AND ${inOwnRange(F_ROWID, owner)}`;
}

/** SQLite: an FTS5 key (`f.rowid`, `a.rowid`) in the owner's range (migrations 017, 035). */
function inOwnRange(rowid: Sql, owner: Owner): Sql {
  const low = sql`COALESCE((SELECT owner_no << 40 FROM search_owners WHERE ${owned(owner)}), -1)`;
  return sql`${rowid} BETWEEN ${low} AND ${low} + ${ROWID_BITS}`;
}

/**
 * SQLite: the owner's checks of an amount in the FTS5 amount table `a` (migration 035): one token
 * a check, the amount in cents as SQLite writes an integer, so the match is an exact equality.
 */
function ownAmounts(owner: Owner, cents: number): Sql {
  return sql`check_amounts MATCH ${`"${cents}"`} AND ${inOwnRange(A_ROWID, owner)}`;
}

/** SQLite: the owner's checks of an amount joined to their checks `c`, filtered by `where`. */
function checksOfAmount(owner: Owner, cents: number, where: Sql): Sql {
  return sql`FROM check_amounts a CROSS JOIN checks c ON c.rowid = (a.rowid & ${ROWID_BITS})
           WHERE ${ownAmounts(owner, cents)} AND ${where}`;
}

/** SQLite: the owner's text matches joined to their checks `c`, filtered by `where`. */
function matchedChecks(owner: Owner, needle: string, where: Sql): Sql {
  return sql`FROM check_search f CROSS JOIN checks c ON c.rowid = (f.rowid & ${ROWID_BITS})
           WHERE ${ownMatches(owner, needle)} AND ${where}`;
}

/**
 * The three disjoint parts of a search, each a FROM … WHERE … over checks `c`:
 * text matches; payee-name matches whose text does not match; amount matches that neither the
 * text nor the payee's name matches.
 */
function parts(q: Queryable, owner: Owner, f: SearchFilter): [text: Sql, ...others: Sql[]] {
  const needle = f.term.toLowerCase();
  const s = scope(q.dialect, owner, f);
  const text: Sql =
    q.dialect === 'sqlite' && usesTrigrams(needle)
      ? matchedChecks(owner, needle, s)
      : q.dialect === 'sqlite'
        ? sql`FROM checks c WHERE ${s} AND ${holds(q.dialect, 'c.search_text', needle)}`
        : // LIKE (case-sensitive) on the lower-cased text is what pg_trgm's GIN index serves; with
          // the owner's equalities it is one condition on checks_search_by_owner (migration 019).
          sql`FROM checks c WHERE ${s} AND c.search_text LIKE ${likePattern(needle)} ESCAPE '\\'`;
  const notText = sql`NOT ${holds(q.dialect, 'c.search_text', needle)}`;
  const tested = scope(q.dialect, owner, f, true);
  // From the matching payees to their checks (the payee index): written as `payee_id IN (…)`
  // SQLite walks every check of the owner instead, testing each.
  const byPayee = sql`FROM payees p ${payeeJoin(q.dialect)} checks c ON c.payee_id = p.id
           WHERE ${owned(owner, { alias: 'p' })} AND ${containsTerm(q.dialect, 'p.name', f.term)}
           AND ${tested} AND ${notText}`;
  if (f.termCents === null) return [text, byPayee];
  const notPayee = sql`(c.payee_id IS NULL OR c.payee_id NOT IN (${payeesNamed(owner, f.term, q.dialect)}))`;
  const byAmount =
    q.dialect === 'sqlite'
      ? checksOfAmount(owner, f.termCents, sql`${tested} AND ${notText} AND ${notPayee}`)
      : sql`FROM checks c WHERE ${s} AND c.amount_cents = ${f.termCents} AND ${notText} AND ${notPayee}`;
  return [text, byPayee, byAmount];
}

/**
 * SQLite, a term of three or more characters and no other filter: the text part counted in the
 * owner's range of the index alone, without reading `checks` (~90 ms for 250,000 matches at 1M).
 */
function textCountFromIndex(q: Queryable, owner: Owner, f: SearchFilter): Sql | null {
  const needle = f.term.toLowerCase();
  if (q.dialect !== 'sqlite' || !usesTrigrams(needle) || f.status !== null || f.referenceId !== null) return null;
  return sql`(SELECT COUNT(*) FROM check_search f WHERE ${ownMatches(owner, needle)})`;
}

const AMOUNT = raw('c.amount_cents');
// Unary plus (SQLite) keeps the planner on the trigram index, off the amount index.
const TESTED_AMOUNT = raw('+c.amount_cents');

/**
 * A term that reads as an amount (three or more characters on SQLite, where the text part needs
 * trigrams): the amount part (checks of that amount that neither the text nor the payee's name
 * matches) counted as every check of the amount (on the amount index alone: SQLite's FTS5 amount
 * table, PostgreSQL's b-tree) less those the text matches (from the trigram index: few) less those
 * only the payee's name matches. Testing each check of the amount instead reads every one of them
 * from the table: ~100 ms on SQLite, ~250 ms on PostgreSQL for 100,000 checks of one amount at 1M.
 * With a status or reference id filter, SQLite reads each check of the amount (the amount table
 * holds neither). Null otherwise.
 */
function amountCountByDifference(q: Queryable, owner: Owner, f: SearchFilter): Sql | null {
  const needle = f.term.toLowerCase();
  if (f.termCents === null || (q.dialect === 'sqlite' && !usesTrigrams(needle))) return null;
  const s = scope(q.dialect, owner, f);
  const tested = scope(q.dialect, owner, f, true);
  const amount = q.dialect === 'sqlite' ? TESTED_AMOUNT : AMOUNT;
  const textWithAmount =
    q.dialect === 'sqlite'
      ? matchedChecks(owner, needle, sql`${tested} AND ${amount} = ${f.termCents}`)
      : sql`FROM checks c WHERE ${s} AND c.amount_cents = ${f.termCents} AND c.search_text LIKE ${likePattern(needle)} ESCAPE '\\'`;
  const ofAmount =
    q.dialect === 'postgres'
      ? sql`FROM checks c WHERE ${s} AND c.amount_cents = ${f.termCents}`
      : f.status === null && f.referenceId === null
        ? sql`FROM check_amounts a WHERE ${ownAmounts(owner, f.termCents)}`
        : checksOfAmount(owner, f.termCents, tested);
  return sql`((SELECT COUNT(*) ${ofAmount})
          - (SELECT COUNT(*) ${textWithAmount})
          - (SELECT COUNT(*) FROM payees p ${payeeJoin(q.dialect)} checks c ON c.payee_id = p.id
             WHERE ${owned(owner, { alias: 'p' })} AND ${containsTerm(q.dialect, 'p.name', f.term)}
               AND ${tested} AND ${amount} = ${f.termCents} AND NOT ${holds(q.dialect, 'c.search_text', needle)}))`;
}

/** Newest checks read to judge whether a term is broad (PostgreSQL). */
const SAMPLE = 1000;
/** A term matching this share of the sample is counted by reading every text of the owner. */
const BROAD_SHARE = 0.1;
const SAMPLE_LIMIT = raw(String(SAMPLE));

/**
 * PostgreSQL, no status or reference id: the text part counted over the owner's narrow texts
 * (check_texts, migration 022) when the term matches a good share of the owner's newest checks.
 * Counting 250,000 matches of a million on the GIN index rechecks each on the wide checks heap
 * (~270 ms); reading all million ~45-byte texts of the owner's partition takes ~100 ms, and less
 * as the share grows. A term matching few stays on the GIN index (a millisecond for a thousand).
 * The owner's number is read with the sample and sent back as a literal: the planner then keeps
 * to its one partition.
 */
export async function textCountFromTexts(q: Queryable, owner: Owner, f: SearchFilter): Promise<Sql | null> {
  if (q.dialect !== 'postgres' || f.status !== null || f.referenceId !== null) return null;
  const needle = f.term.toLowerCase();
  // One round trip: the sample's share and the owner's number (null: never had a check).
  const s = sql`SELECT COUNT(*) AS seen, COUNT(*) FILTER (WHERE ${holds(q.dialect, 'search_text', needle)}) AS matched,
       (SELECT owner_no FROM search_owners WHERE ${owned(owner)}) AS owner_no
     FROM (
       SELECT search_text FROM checks WHERE ${owned(owner)} ORDER BY created_at DESC, id DESC LIMIT ${SAMPLE_LIMIT}
     ) newest`;
  const sample = await q.get<{ seen: number | string; matched: number | string; owner_no: number | null }>(
    s.text,
    s.params,
  );
  const seen = Number(sample?.seen ?? 0);
  const ownerNo = sample?.owner_no ?? null;
  if (seen === 0 || ownerNo === null || Number(sample?.matched ?? 0) < seen * BROAD_SHARE) return null;
  return sql`(SELECT COUNT(*) FROM check_texts t WHERE t.owner_no = ${ownerNo} AND ${holds(q.dialect, 't.search_text', needle)})`;
}

/** How many of the owner's checks match: one statement, so one snapshot. */
export async function countMatches(q: Queryable, owner: Owner, f: SearchFilter): Promise<number> {
  const counted = (p: Sql): Sql => sql`(SELECT COUNT(*) ${p})`;
  const [text, byPayee, byAmount] = parts(q, owner, f);
  const all = [textCountFromIndex(q, owner, f) ?? (await textCountFromTexts(q, owner, f)) ?? counted(text)];
  if (byPayee !== undefined) all.push(counted(byPayee));
  if (byAmount !== undefined) all.push(amountCountByDifference(q, owner, f) ?? counted(byAmount));
  const s = sql`SELECT ${joinSql(all, ' + ')} AS n`;
  const row = await q.get<{ n: number | string }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

/** Every match's id, newest first: for a search with few matches, whose pages are then slices. */
export async function allMatchIds(q: Queryable, owner: Owner, f: SearchFilter): Promise<string[]> {
  const matches = joinSql(
    parts(q, owner, f).map((p) => sql`SELECT c.id, c.created_at ${p}`),
    ' UNION ALL ',
  );
  const s = sql`SELECT id FROM (${matches}) m
     ORDER BY created_at DESC, id DESC`;
  const rows = await q.all<{ id: string }>(s.text, s.params);
  return rows.map((r) => r.id);
}

const NOTHING = raw('');
const NEWEST_FIRST = raw('c.created_at DESC, c.id DESC');
const OLDEST_FIRST = raw('c.created_at ASC, c.id ASC');

/**
 * One page of a search with many matches, found by walking the owner's checks newest first (or
 * oldest first for a page in the far half) and testing each: when a good share of the checks
 * match, a page is found after a few pages' worth of rows.
 */
export async function matchPageIds(
  q: Queryable,
  owner: Owner,
  f: SearchFilter,
  page: { limit: number; offset: number; total: number },
): Promise<string[]> {
  const needle = f.term.toLowerCase();
  // Unary plus keeps SQLite off the amount index here: the walk must follow created_at.
  const amount = f.termCents === null ? NOTHING : sql` OR +c.amount_cents = ${f.termCents}`;
  const read = fromNearerEnd(page.offset, page.limit, page.total);
  const order = read.ascending ? OLDEST_FIRST : NEWEST_FIRST;
  const s = sql`SELECT c.id FROM checks c WHERE ${scope(q.dialect, owner, f)}
     AND (${holds(q.dialect, 'c.search_text', needle)} OR c.payee_id IN (${payeesNamed(owner, f.term, q.dialect)})${amount})
     ORDER BY ${order} LIMIT ${read.limit} OFFSET ${read.offset}`;
  const rows = await q.all<{ id: string }>(s.text, s.params);
  const ids = rows.map((r) => r.id);
  return read.ascending ? ids.reverse() : ids;
}

// The `term` filter of GET /checks at a million checks. A check matches when the term
// (lower-cased) is a substring of its search_text, or of its payee's current name, or equals its
// amount when the term reads as one. The three are counted as disjoint parts, each on its own
// index: the trigram index for the text (FTS5 on SQLite, keyed by owner since migration 017; on
// PostgreSQL pg_trgm's GIN, keyed by owner with btree_gin since migration 019, so that a bitmap
// holds the owner's candidates alone), the payee index for payees whose name matches, the amount
// index for the amount.
import type { Owner } from '../../domain/owner.ts';
import type { Dialect, Queryable, SqlValue } from '../db.ts';
import { containsIgnoreCase } from '../dialect.ts';
import { fromNearerEnd, likePattern } from '../owned-queries.ts';

export interface SearchFilter {
  status: number | null;
  referenceId: string | null;
  /** Not empty. */
  term: string;
  /** The term read as an amount, when it is one. */
  termCents: number | null;
}

interface Sql {
  text: string;
  args: SqlValue[];
}

/**
 * The owner and the non-term filters, on the checks table aliased `c`. `tested` marks them as
 * tests on rows found by another index: SQLite's unary plus keeps its planner from walking the
 * owner's index instead (without statistics it prefers two equal columns to the payee index).
 */
function scope(dialect: Dialect, owner: Owner, f: SearchFilter, tested = false): Sql {
  const c = tested && dialect === 'sqlite' ? '+c.' : 'c.';
  let text = `${c}account_id = ? AND ${c}env = ?`;
  const args: SqlValue[] = [owner.accountId, owner.env];
  if (f.status !== null) {
    text += ` AND ${c}status = ?`;
    args.push(f.status);
  }
  if (f.referenceId !== null) {
    text += ` AND ${c}reference_id = ?`;
    args.push(f.referenceId);
  }
  return { text, args };
}

/** Whether `column` holds `needle` (already lower-cased) as an exact substring, row by row. */
function holds(dialect: Dialect, column: string): string {
  return dialect === 'sqlite' ? `instr(${column}, ?) > 0` : `strpos(${column}, ?) > 0`;
}

function payeesNamed(owner: Owner, term: string, dialect: Dialect): Sql {
  return {
    text: `SELECT id FROM payees WHERE account_id = ? AND env = ? AND ${containsIgnoreCase(dialect, 'name')}`,
    args: [owner.accountId, owner.env, likePattern(term)],
  };
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

/** The low 40 bits of an FTS5 key (migration 017): the check's rowid. */
const ROWID_BITS = 1099511627775;

/**
 * SQLite: the owner's text matches in the FTS5 index `f`, a rowid range there (FTS5 seeks it in
 * its doclists, so other owners' matches are never read). An owner who never had a check has no
 * number: the range is then below owner 1's and holds nothing (a NULL bound would make FTS5 read
 * every owner's matches, ~130 ms at 1M, to find none).
 */
function ownMatches(owner: Owner, needle: string): Sql {
  const low = 'COALESCE((SELECT owner_no << 40 FROM search_owners WHERE account_id = ? AND env = ?), -1)';
  return {
    text: `check_search MATCH ? AND f.rowid BETWEEN ${low} AND ${low} + ${ROWID_BITS}`,
    args: [phrase(needle), owner.accountId, owner.env, owner.accountId, owner.env],
  };
}

/** SQLite: the owner's text matches joined to their checks `c`, filtered by `where`. */
function matchedChecks(owner: Owner, needle: string, where: Sql): Sql {
  const own = ownMatches(owner, needle);
  return {
    text: `FROM check_search f CROSS JOIN checks c ON c.rowid = (f.rowid & ${ROWID_BITS})
           WHERE ${own.text} AND ${where.text}`,
    args: [...own.args, ...where.args],
  };
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
        ? { text: `FROM checks c WHERE ${s.text} AND ${holds(q.dialect, 'c.search_text')}`, args: [...s.args, needle] }
        : {
            // LIKE (case-sensitive) on the lower-cased text is what pg_trgm's GIN index serves; with
            // the owner's equalities it is one condition on checks_search_by_owner (migration 019).
            text: `FROM checks c WHERE ${s.text} AND c.search_text LIKE ? ESCAPE '\\'`,
            args: [...s.args, likePattern(needle)],
          };
  const payees = payeesNamed(owner, f.term, q.dialect);
  const notText = `NOT ${holds(q.dialect, 'c.search_text')}`;
  const tested = scope(q.dialect, owner, f, true);
  // From the matching payees to their checks (the payee index): written as `payee_id IN (…)`
  // SQLite walks every check of the owner instead, testing each. (CROSS JOIN fixes SQLite's join
  // order; PostgreSQL's CROSS JOIN takes no ON.)
  const byPayee: Sql = {
    text: `FROM payees p ${q.dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN'} checks c ON c.payee_id = p.id
           WHERE p.account_id = ? AND p.env = ? AND ${containsIgnoreCase(q.dialect, 'p.name')}
           AND ${tested.text} AND ${notText}`,
    args: [owner.accountId, owner.env, likePattern(f.term), ...tested.args, needle],
  };
  if (f.termCents === null) return [text, byPayee];
  const byAmount: Sql = {
    text: `FROM checks c WHERE ${s.text} AND c.amount_cents = ? AND ${notText}
           AND (c.payee_id IS NULL OR c.payee_id NOT IN (${payees.text}))`,
    args: [...s.args, f.termCents, needle, ...payees.args],
  };
  return [text, byPayee, byAmount];
}

/**
 * SQLite, a term of three or more characters and no other filter: the text part counted in the
 * owner's range of the index alone, without reading `checks` (~90 ms for 250,000 matches at 1M).
 */
function textCountFromIndex(q: Queryable, owner: Owner, f: SearchFilter): Sql | null {
  const needle = f.term.toLowerCase();
  if (q.dialect !== 'sqlite' || !usesTrigrams(needle) || f.status !== null || f.referenceId !== null) return null;
  const own = ownMatches(owner, needle);
  return { text: `(SELECT COUNT(*) FROM check_search f WHERE ${own.text})`, args: own.args };
}

/**
 * A term that reads as an amount (three or more characters on SQLite, where the text part needs
 * trigrams): the amount part (checks of that amount that neither the text nor the payee's name
 * matches) counted as every check of the amount (on the amount index alone) less those the text
 * matches (from the trigram index: few) less those only the payee's name matches. Testing each
 * check of the amount instead reads every one of them from the table: ~100 ms on SQLite, ~250 ms
 * on PostgreSQL for 100,000 checks of one amount at 1M. Null otherwise.
 */
function amountCountByDifference(q: Queryable, owner: Owner, f: SearchFilter): Sql | null {
  const needle = f.term.toLowerCase();
  if (f.termCents === null || (q.dialect === 'sqlite' && !usesTrigrams(needle))) return null;
  const s = scope(q.dialect, owner, f);
  const tested = scope(q.dialect, owner, f, true);
  // Unary plus (SQLite) keeps the planner on the trigram index, off the amount index.
  const amount = q.dialect === 'sqlite' ? '+c.amount_cents' : 'c.amount_cents';
  const textWithAmount: Sql =
    q.dialect === 'sqlite'
      ? matchedChecks(owner, needle, { text: `${tested.text} AND ${amount} = ?`, args: [...tested.args, f.termCents] })
      : {
          text: `FROM checks c WHERE ${s.text} AND c.amount_cents = ? AND c.search_text LIKE ? ESCAPE '\\'`,
          args: [...s.args, f.termCents, likePattern(needle)],
        };
  return {
    text: `((SELECT COUNT(*) FROM checks c WHERE ${s.text} AND c.amount_cents = ?)
          - (SELECT COUNT(*) ${textWithAmount.text})
          - (SELECT COUNT(*) FROM payees p ${q.dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN'} checks c ON c.payee_id = p.id
             WHERE p.account_id = ? AND p.env = ? AND ${containsIgnoreCase(q.dialect, 'p.name')}
               AND ${tested.text} AND ${amount} = ? AND NOT ${holds(q.dialect, 'c.search_text')}))`,
    args: [
      ...s.args,
      f.termCents,
      ...textWithAmount.args,
      owner.accountId,
      owner.env,
      likePattern(f.term),
      ...tested.args,
      f.termCents,
      needle,
    ],
  };
}

/** Newest checks read to judge whether a term is broad (PostgreSQL). */
const SAMPLE = 1000;
/** A term matching this share of the sample is counted by reading every text of the owner. */
const BROAD_SHARE = 0.1;

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
  const sample = await q.get<{ seen: number | string; matched: number | string; owner_no: number | null }>(
    `SELECT COUNT(*) AS seen, COUNT(*) FILTER (WHERE strpos(search_text, ?) > 0) AS matched,
       (SELECT owner_no FROM search_owners WHERE account_id = ? AND env = ?) AS owner_no
     FROM (
       SELECT search_text FROM checks WHERE account_id = ? AND env = ? ORDER BY created_at DESC, id DESC LIMIT ${SAMPLE}
     ) newest`,
    [needle, owner.accountId, owner.env, owner.accountId, owner.env],
  );
  const seen = Number(sample?.seen ?? 0);
  const ownerNo = sample?.owner_no ?? null;
  if (seen === 0 || ownerNo === null || Number(sample?.matched ?? 0) < seen * BROAD_SHARE) return null;
  return {
    text: `(SELECT COUNT(*) FROM check_texts t WHERE t.owner_no = ? AND strpos(t.search_text, ?) > 0)`,
    args: [ownerNo, needle],
  };
}

/** How many of the owner's checks match: one statement, so one snapshot. */
export async function countMatches(q: Queryable, owner: Owner, f: SearchFilter): Promise<number> {
  const counted = (p: Sql): Sql => ({ text: `(SELECT COUNT(*) ${p.text})`, args: p.args });
  const [text, byPayee, byAmount] = parts(q, owner, f);
  const all = [textCountFromIndex(q, owner, f) ?? (await textCountFromTexts(q, owner, f)) ?? counted(text)];
  if (byPayee !== undefined) all.push(counted(byPayee));
  if (byAmount !== undefined) all.push(amountCountByDifference(q, owner, f) ?? counted(byAmount));
  const row = await q.get<{ n: number | string }>(
    `SELECT ${all.map((c) => c.text).join(' + ')} AS n`,
    all.flatMap((c) => c.args),
  );
  return Number(row?.n ?? 0);
}

/** Every match's id, newest first: for a search with few matches, whose pages are then slices. */
export async function allMatchIds(q: Queryable, owner: Owner, f: SearchFilter): Promise<string[]> {
  const all = parts(q, owner, f);
  const rows = await q.all<{ id: string }>(
    `SELECT id FROM (${all.map((p) => `SELECT c.id, c.created_at ${p.text}`).join(' UNION ALL ')}) m
     ORDER BY created_at DESC, id DESC`,
    all.flatMap((p) => p.args),
  );
  return rows.map((r) => r.id);
}

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
  const s = scope(q.dialect, owner, f);
  const payees = payeesNamed(owner, f.term, q.dialect);
  // Unary plus keeps SQLite off the amount index here: the walk must follow created_at.
  const amount = f.termCents === null ? '' : ' OR +c.amount_cents = ?';
  const read = fromNearerEnd(page.offset, page.limit, page.total);
  const order = read.ascending ? 'c.created_at ASC, c.id ASC' : 'c.created_at DESC, c.id DESC';
  const rows = await q.all<{ id: string }>(
    `SELECT c.id FROM checks c WHERE ${s.text}
     AND (${holds(q.dialect, 'c.search_text')} OR c.payee_id IN (${payees.text})${amount})
     ORDER BY ${order} LIMIT ? OFFSET ?`,
    [...s.args, needle, ...payees.args, ...(f.termCents === null ? [] : [f.termCents]), read.limit, read.offset],
  );
  const ids = rows.map((r) => r.id);
  return read.ascending ? ids.reverse() : ids;
}

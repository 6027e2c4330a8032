// The check register of a bank account and the clearing of checks (migration 014). Callers have
// already found the bank account among the owner's, so its id scopes every query here; the owner
// is still part of each write, as everywhere in the store.
import type { Outstanding } from '../domain/clearing.ts';
import type { Owner } from '../domain/owner.ts';
import type { ChecksRow } from './checks/rows.ts';
import type { Queryable } from './db.ts';
import { owned } from './owned-queries.ts';
import { inList, raw, type Sql, sql } from './sql.ts';

const OUTSTANDING_TEXT = 'status IN (1, 2, 3, 4) AND cleared_date IS NULL';
/** Issued and not yet paid: printed, mailed, emailed or e-printed, no cleared date (not new, void or refunded). */
const OUTSTANDING = raw(OUTSTANDING_TEXT);
/** Register order: the day written on the check, then the order the checks were made. */
const ORDER = raw('issue_date, created_at, id');
/** Register order from its end, for a page nearer the end than the start. */
const ORDER_FROM_END = raw('issue_date DESC, created_at DESC, id DESC');
/** A register row's columns: where it stands, and its amount when it is outstanding. */
const PAGE_COLUMNS = raw(
  `id, issue_date, created_at, CASE WHEN ${OUTSTANDING_TEXT} THEN COALESCE(amount_cents, 0) ELSE 0 END AS out_cents`,
);

/**
 * SQLite's planner, without statistics, prefers the wider checks_register index (it covers
 * status and cleared_date) and would read every check of the account; the partial index holds
 * only the outstanding ones. PostgreSQL picks it by its statistics.
 */
function outstandingIndex(q: Queryable): Sql {
  return q.dialect === 'sqlite' ? BY_OUTSTANDING_INDEX : NO_INDEX_NAMED;
}
const BY_OUTSTANDING_INDEX = raw(' INDEXED BY checks_outstanding');
const NO_INDEX_NAMED = raw('');

/** The outstanding checks of a bank account, counted on the partial index checks_outstanding. */
export async function outstandingOf(q: Queryable, bankAccountId: string): Promise<Outstanding> {
  const s = sql`SELECT COUNT(*) AS n, SUM(amount_cents) AS cents FROM checks${outstandingIndex(q)} WHERE bank_account_id = ${bankAccountId} AND ${OUTSTANDING}`;
  const row = await q.get<{ n: number | string; cents: number | string | null }>(s.text, s.params);
  return { count: Number(row?.n ?? 0), totalCents: Number(row?.cents ?? 0) };
}

/** A place in register order. */
export interface CheckRegisterKey {
  issueDate: string;
  createdAt: number;
  id: string;
}

/**
 * The place of every `every`-th check of the register (positions 0, every, 2 × every, …), counted
 * by the database over the checks_register index in one pass.
 */
export async function checkRegisterAnchors(
  q: Queryable,
  bankAccountId: string,
  every: number,
): Promise<CheckRegisterKey[]> {
  const s = sql`SELECT issue_date, created_at, id FROM (
       SELECT issue_date, created_at, id, ROW_NUMBER() OVER (ORDER BY ${ORDER}) AS n FROM checks WHERE bank_account_id = ${bankAccountId}
     ) ranked WHERE (n - 1) % ${every} = 0 ORDER BY n`;
  const rows = await q.all<{ issue_date: string; created_at: number | string; id: string }>(s.text, s.params);
  return rows.map((r) => ({ issueDate: r.issue_date, createdAt: Number(r.created_at), id: r.id }));
}

/** How many checks the register of a bank account lists (all statuses). */
export async function checkRegisterLength(q: Queryable, bankAccountId: string): Promise<number> {
  const s = sql`SELECT COUNT(*) AS n FROM checks WHERE bank_account_id = ${bankAccountId}`;
  const row = await q.get<{ n: number | string }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

export interface CheckRegisterEntry {
  id: string;
  /** Outstanding total through this check, in register order. */
  runningCents: number;
}

/**
 * One page of the register with the running outstanding total of each row: the page's entries
 * are found on the checks_register index (from the nearer end, so no page skips more than half of
 * it), the outstanding total before the page is summed on the checks_outstanding index (only
 * outstanding checks), and the page's own outstanding amounts are added up row by row.
 */
export async function checkRegisterPage(
  q: Queryable,
  bankAccountId: string,
  limit: number,
  offset: number,
  length: number,
  from: { key: CheckRegisterKey; skip: number } | null = null,
): Promise<CheckRegisterEntry[]> {
  if (offset >= length || limit <= 0) return [];
  const rows = Math.min(limit, length - offset);
  type Row = { id: string; issue_date: string; created_at: number | string; out_cents: number | string };
  let page: Row[];
  if (from !== null) {
    // From a known place (an anchor): fewer than a thousand index entries are skipped.
    const s = sql`SELECT ${PAGE_COLUMNS} FROM checks WHERE bank_account_id = ${bankAccountId} AND (issue_date, created_at, id) >= (${from.key.issueDate}, ${from.key.createdAt}, ${from.key.id})
       ORDER BY ${ORDER} LIMIT ${rows} OFFSET ${from.skip}`;
    page = await q.all<Row>(s.text, s.params);
  } else {
    const fromStart = offset <= length / 2;
    const s = sql`SELECT ${PAGE_COLUMNS} FROM checks WHERE bank_account_id = ${bankAccountId} ORDER BY ${fromStart ? ORDER : ORDER_FROM_END} LIMIT ${rows} OFFSET ${fromStart ? offset : length - offset - rows}`;
    const found = await q.all<Row>(s.text, s.params);
    page = fromStart ? found : found.reverse();
  }
  const [first] = page;
  if (first === undefined) return [];
  const beforePage = sql`SELECT SUM(amount_cents) AS cents FROM checks${outstandingIndex(q)}
     WHERE bank_account_id = ${bankAccountId} AND ${OUTSTANDING} AND (issue_date, created_at, id) < (${first.issue_date}, ${Number(first.created_at)}, ${first.id})`;
  const before = await q.get<{ cents: number | string | null }>(beforePage.text, beforePage.params);
  let running = Number(before?.cents ?? 0);
  return page.map((r) => {
    running += Number(r.out_cents);
    return { id: r.id, runningCents: running };
  });
}

/** What matching a cleared-items row needs to know of a check, and what its event says. */
export interface SerialMatch {
  id: string;
  serial: string;
  amountCents: number | null;
  status: number;
  clearedDate: string | null;
  referenceId: string | null;
  payeeId: string | null;
  /** The date on the check: the bank cannot have paid it before. */
  issueDate: string;
}

/** What matching a cleared-items row reads of a check: columns of the checks table's one definition (checks/rows.ts). */
const SERIAL_MATCH_COLUMNS = [
  'id',
  'serial_number',
  'amount_cents',
  'status',
  'cleared_date',
  'reference_id',
  'payee_id',
  'issue_date',
] as const satisfies readonly (keyof ChecksRow)[];
const SERIAL_MATCH = raw(SERIAL_MATCH_COLUMNS.join(', '));
type SerialMatchRow = Pick<ChecksRow, (typeof SERIAL_MATCH_COLUMNS)[number]>;

/** The checks of a bank account with these serial numbers (serials as stored), on the serial's unique index. */
export async function checksBySerial(
  q: Queryable,
  owner: Owner,
  bankAccountId: string,
  serials: readonly string[],
): Promise<Map<string, SerialMatch>> {
  const found = new Map<string, SerialMatch>();
  for (let at = 0; at < serials.length; at += 500) {
    const chunk = serials.slice(at, at + 500);
    const s = sql`SELECT ${SERIAL_MATCH} FROM checks
       WHERE bank_account_id = ${bankAccountId} AND ${owned(owner, { keyed: q.dialect })} AND serial_number IN ${inList(chunk)}`;
    const rows = await q.all<SerialMatchRow>(s.text, s.params);
    for (const r of rows)
      found.set(r.serial_number, {
        id: r.id,
        serial: r.serial_number,
        amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
        status: Number(r.status),
        clearedDate: r.cleared_date,
        referenceId: r.reference_id,
        payeeId: r.payee_id,
        issueDate: r.issue_date,
      });
  }
  return found;
}

const OWNER_AND_BANK_COLUMNS = [
  'id',
  'account_id',
  'env',
  'bank_account_id',
] as const satisfies readonly (keyof ChecksRow)[];
const OWNER_AND_BANK = raw(OWNER_AND_BANK_COLUMNS.join(', '));

/**
 * Which of these ids are checks of the owner on this bank account. Read by primary key and
 * checked here: an owner filter in the query led SQLite's planner through the owner's whole list.
 */
export async function idsOnBankAccount(
  q: Queryable,
  owner: Owner,
  bankAccountId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const s = sql`SELECT ${OWNER_AND_BANK} FROM checks WHERE id IN ${inList(ids)}`;
  const rows = await q.all<Pick<ChecksRow, (typeof OWNER_AND_BANK_COLUMNS)[number]>>(s.text, s.params);
  return new Set(
    rows
      .filter((r) => r.account_id === owner.accountId && r.env === owner.env && r.bank_account_id === bankAccountId)
      .map((r) => r.id),
  );
}

/**
 * Sets the cleared date of an issued, uncleared check (compare-and-set: 0 when it was not
 * clearable any more, e.g. voided or cleared by a concurrent request).
 */
export async function setCleared(q: Queryable, owner: Owner, id: string, clearedDate: string): Promise<number> {
  const s = sql`UPDATE checks SET cleared_date = ${clearedDate} WHERE id = ${id} AND ${owned(owner)} AND ${OUTSTANDING}`;
  return q.run(s.text, s.params);
}

/** Removes the cleared date of a cleared check (0 when it was not cleared). */
export async function setUncleared(q: Queryable, owner: Owner, id: string): Promise<number> {
  const s = sql`UPDATE checks SET cleared_date = NULL WHERE id = ${id} AND ${owned(owner)} AND cleared_date IS NOT NULL`;
  return q.run(s.text, s.params);
}

/** The cleared date of a check as the database holds it now (inside a transaction: after its writes). */
export async function clearedDateOf(q: Queryable, owner: Owner, id: string): Promise<string | null> {
  const s = sql`SELECT cleared_date FROM checks WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<{ cleared_date: string | null }>(s.text, s.params);
  return row?.cleared_date ?? null;
}

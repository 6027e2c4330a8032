// The check register of a bank account and the clearing of checks (migration 014). Callers have
// already found the bank account among the owner's, so its id scopes every query here; the owner
// is still part of each write, as everywhere in the store.
import type { Outstanding } from '../domain/clearing.ts';
import type { Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { ownerOfKeyedRows } from './owned-queries.ts';

/** Issued and not yet paid: printed, mailed, emailed or e-printed, no cleared date (not new, void or refunded). */
export const OUTSTANDING = 'status IN (1, 2, 3, 4) AND cleared_date IS NULL';
/** Register order: the day written on the check, then the order the checks were made. */
const ORDER = 'issue_date, created_at, id';
const OUTSTANDING_CENTS = `CASE WHEN ${OUTSTANDING} THEN COALESCE(amount_cents, 0) ELSE 0 END`;

/**
 * SQLite's planner, without statistics, prefers the wider checks_register index (it covers
 * status and cleared_date) and would read every check of the account; the partial index holds
 * only the outstanding ones. PostgreSQL picks it by its statistics.
 */
function outstandingIndex(q: Queryable): string {
  return q.dialect === 'sqlite' ? ' INDEXED BY checks_outstanding' : '';
}

/** The outstanding checks of a bank account, counted on the partial index checks_outstanding. */
export async function outstandingOf(q: Queryable, bankAccountId: string): Promise<Outstanding> {
  const row = await q.get<{ n: number | string; cents: number | string | null }>(
    `SELECT COUNT(*) AS n, SUM(amount_cents) AS cents FROM checks${outstandingIndex(q)} WHERE bank_account_id = ? AND ${OUTSTANDING}`,
    [bankAccountId],
  );
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
  const rows = await q.all<{ issue_date: string; created_at: number | string; id: string }>(
    `SELECT issue_date, created_at, id FROM (
       SELECT issue_date, created_at, id, ROW_NUMBER() OVER (ORDER BY ${ORDER}) AS n FROM checks WHERE bank_account_id = ?
     ) ranked WHERE (n - 1) % ? = 0 ORDER BY n`,
    [bankAccountId, every],
  );
  return rows.map((r) => ({ issueDate: r.issue_date, createdAt: Number(r.created_at), id: r.id }));
}

/** How many checks the register of a bank account lists (all statuses). */
export async function checkRegisterLength(q: Queryable, bankAccountId: string): Promise<number> {
  const row = await q.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM checks WHERE bank_account_id = ?', [
    bankAccountId,
  ]);
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
  const columns = `id, issue_date, created_at, ${OUTSTANDING_CENTS} AS out_cents`;
  let page: Row[];
  if (from !== null) {
    // From a known place (an anchor): fewer than a thousand index entries are skipped.
    page = await q.all<Row>(
      `SELECT ${columns} FROM checks WHERE bank_account_id = ? AND (issue_date, created_at, id) >= (?, ?, ?)
       ORDER BY ${ORDER} LIMIT ? OFFSET ?`,
      [bankAccountId, from.key.issueDate, from.key.createdAt, from.key.id, rows, from.skip],
    );
  } else {
    const fromStart = offset <= length / 2;
    const order = fromStart
      ? ORDER
      : ORDER.split(', ')
          .map((c) => `${c} DESC`)
          .join(', ');
    const found = await q.all<Row>(
      `SELECT ${columns} FROM checks WHERE bank_account_id = ? ORDER BY ${order} LIMIT ? OFFSET ?`,
      [bankAccountId, rows, fromStart ? offset : length - offset - rows],
    );
    page = fromStart ? found : found.reverse();
  }
  const [first] = page;
  if (first === undefined) return [];
  const before = await q.get<{ cents: number | string | null }>(
    `SELECT SUM(amount_cents) AS cents FROM checks${outstandingIndex(q)}
     WHERE bank_account_id = ? AND ${OUTSTANDING} AND (issue_date, created_at, id) < (?, ?, ?)`,
    [bankAccountId, first.issue_date, Number(first.created_at), first.id],
  );
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
    const rows = await q.all<{
      id: string;
      serial_number: string;
      amount_cents: number | string | null;
      status: number | string;
      cleared_date: string | null;
      reference_id: string | null;
      payee_id: string | null;
      issue_date: string;
    }>(
      `SELECT id, serial_number, amount_cents, status, cleared_date, reference_id, payee_id, issue_date FROM checks
       WHERE bank_account_id = ? AND ${ownerOfKeyedRows(q.dialect)} AND serial_number IN (${chunk.map(() => '?').join(', ')})`,
      [bankAccountId, owner.accountId, owner.env, ...chunk],
    );
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
  const rows = await q.all<{ id: string; account_id: string; env: string; bank_account_id: string }>(
    `SELECT id, account_id, env, bank_account_id FROM checks WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
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
  return q.run(`UPDATE checks SET cleared_date = ? WHERE id = ? AND account_id = ? AND env = ? AND ${OUTSTANDING}`, [
    clearedDate,
    id,
    owner.accountId,
    owner.env,
  ]);
}

/** Removes the cleared date of a cleared check (0 when it was not cleared). */
export async function setUncleared(q: Queryable, owner: Owner, id: string): Promise<number> {
  return q.run(
    'UPDATE checks SET cleared_date = NULL WHERE id = ? AND account_id = ? AND env = ? AND cleared_date IS NOT NULL',
    [id, owner.accountId, owner.env],
  );
}

/** The cleared date of a check as the database holds it now (inside a transaction: after its writes). */
export async function clearedDateOf(q: Queryable, owner: Owner, id: string): Promise<string | null> {
  const row = await q.get<{ cleared_date: string | null }>(
    'SELECT cleared_date FROM checks WHERE id = ? AND account_id = ? AND env = ?',
    [id, owner.accountId, owner.env],
  );
  return row?.cleared_date ?? null;
}

// The checks: rows by id (one, several, a page's ids in list order) and every write (insert,
// edit, status move, delete, serial reservation), each keeping check_counts in step
// (counts.repository.ts). Pages of the list are in pages.repository.ts, term searches
// in search.ts, the row's shape in rows.ts.
import type { Check, NewCheck } from '../../domain/check.ts';
import type { Owner } from '../../domain/owner.ts';
import { addToCount } from './counts.repository.ts';
import {
  CHECK_COLUMNS,
  CHECK_FROM,
  CHECK_STATEMENTS,
  CHECKS,
  type CheckRow,
  type ChecksRow,
  SELECT_CHECK,
  searchText,
  statementsFor,
  toCheck,
} from './rows.ts';
import type { Queryable } from '../db.ts';
import { ownerOfKeyedRows } from '../owned-queries.ts';
import { insertRows } from '../table.ts';

function checkRow(owner: Owner, c: NewCheck): ChecksRow {
  return {
    id: c.id,
    account_id: owner.accountId,
    env: owner.env,
    bank_account_id: c.bankAccountId,
    payee_id: c.payeeId,
    category_id: c.categoryId,
    voucher_id: c.voucherId,
    serial_number: c.serialNumber,
    issue_date: c.issueDate,
    amount_cents: c.amountCents,
    memo: c.memo,
    note: c.note,
    account_number: c.accountNumber,
    invoice_number: c.invoiceNumber,
    reference_id: c.referenceId,
    no_sign: c.noSign ? 1 : 0,
    no_amount: c.noAmount ? 1 : 0,
    no_date: c.noDate ? 1 : 0,
    no_payee: c.noPayee ? 1 : 0,
    custom_elements: JSON.stringify(c.customElements),
    status: 0,
    search_text: searchText(c),
    created_at: c.createdAt,
    cleared_date: null,
  };
}

export async function insertChecks(q: Queryable, owner: Owner, checks: readonly NewCheck[]): Promise<void> {
  await insertRows(
    q,
    CHECKS,
    checks.map((c) => checkRow(owner, c)),
  );
  if (checks.length > 0) await addToCount(q, owner, 0, checks.length);
}

export async function insertStatements(
  q: Queryable,
  statements: readonly { checkId: string; status: string; at: number }[],
): Promise<void> {
  await insertRows(
    q,
    CHECK_STATEMENTS,
    statements.map((s) => ({ check_id: s.checkId, status: s.status, created_at: s.at })),
  );
}

/**
 * One check with its statements in a single query (one row per statement): GET /checks/{id} is
 * the hottest read, and a second round trip for the statements cost a third of its throughput on
 * PostgreSQL (docs/benchmarks.md).
 */
export async function findCheck(q: Queryable, owner: Owner, id: string): Promise<Check | undefined> {
  const rows = await q.all<CheckRow & { st_status: string | null; st_at: number | null }>(
    `SELECT ${CHECK_COLUMNS}, s.status AS st_status, s.created_at AS st_at ${CHECK_FROM}
     LEFT JOIN check_statements s ON s.check_id = c.id
     WHERE c.id = ? AND c.account_id = ? AND c.env = ? ORDER BY s.id`,
    [id, owner.accountId, owner.env],
  );
  const [first] = rows;
  if (first === undefined) return undefined;
  const statements = rows
    .filter((r) => r.st_status !== null)
    .map((r) => ({ status: r.st_status ?? '', at: Number(r.st_at) }));
  return toCheck(first, statements);
}

export async function findChecks(q: Queryable, owner: Owner, ids: readonly string[]): Promise<Map<string, Check>> {
  const found = new Map<string, Check>();
  if (ids.length === 0) return found;
  const rows = await q.all<CheckRow>(
    `${SELECT_CHECK} WHERE c.id IN (${ids.map(() => '?').join(', ')}) AND ${ownerOfKeyedRows(q.dialect, 'c')}`,
    [...ids, owner.accountId, owner.env],
  );
  const statements = await statementsFor(
    q,
    rows.map((r) => r.id),
  );
  for (const row of rows) found.set(row.id, toCheck(row, statements.get(row.id) ?? []));
  return found;
}

/** These checks in full, newest first (ids already scoped to their owner by the query that found them). */
export async function checksInListOrder(q: Queryable, ids: readonly string[]): Promise<Check[]> {
  if (ids.length === 0) return [];
  const rows = await q.all<CheckRow>(
    `${SELECT_CHECK} WHERE c.id IN (${ids.map(() => '?').join(', ')}) ORDER BY c.created_at DESC, c.id DESC`,
    ids,
  );
  const statements = await statementsFor(q, ids);
  return rows.map((row) => toCheck(row, statements.get(row.id) ?? []));
}

/** Serial numbers already used on these bank accounts, among `serials`. */
export async function takenSerials(
  q: Queryable,
  pairs: readonly { bankAccountId: string; serialNumber: string }[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  if (pairs.length === 0) return taken;
  const rows = await q.all<{ bank_account_id: string; serial_number: string }>(
    `SELECT bank_account_id, serial_number FROM checks WHERE ${pairs.map(() => '(bank_account_id = ? AND serial_number = ?)').join(' OR ')}`,
    pairs.flatMap((p) => [p.bankAccountId, p.serialNumber]),
  );
  for (const row of rows) taken.add(`${row.bank_account_id}/${row.serial_number}`);
  return taken;
}

export async function takenReferenceIds(
  q: Queryable,
  owner: Owner,
  referenceIds: readonly string[],
): Promise<Set<string>> {
  if (referenceIds.length === 0) return new Set();
  const rows = await q.all<{ reference_id: string }>(
    `SELECT reference_id FROM checks WHERE account_id = ? AND env = ? AND reference_id IN (${referenceIds.map(() => '?').join(', ')})`,
    [owner.accountId, owner.env, ...referenceIds],
  );
  return new Set(rows.map((r) => r.reference_id));
}

/**
 * Reserves `count` automatic serial numbers on a bank account, above every explicit serial
 * `floor` of the same batch. The UPDATE takes the bank account's row lock (PostgreSQL) or runs
 * under the write lock (SQLite), so two concurrent batches never get the same numbers.
 */
export async function reserveSerials(
  q: Queryable,
  bankAccountId: string,
  floor: number,
  count: number,
): Promise<number> {
  const row = await q.get<{ next_serial: number }>(
    `UPDATE bank_accounts SET next_serial = (CASE WHEN next_serial > ? THEN next_serial ELSE ? END) + ?
     WHERE id = ? RETURNING next_serial`,
    [floor, floor, count, bankAccountId],
  );
  if (row === undefined) throw new Error(`bank account ${bankAccountId} vanished inside its transaction`);
  return Number(row.next_serial) - count;
}

export async function setVoucher(q: Queryable, owner: Owner, id: string, voucherId: string): Promise<number> {
  return q.run('UPDATE checks SET voucher_id = ? WHERE id = ? AND account_id = ? AND env = ?', [
    voucherId,
    id,
    owner.accountId,
    owner.env,
  ]);
}

/** Moves a check from one status to another; 0 when it was no longer in `from` (a concurrent change). */
export async function moveStatus(q: Queryable, owner: Owner, id: string, from: number, to: number): Promise<number> {
  const moved = await q.run('UPDATE checks SET status = ? WHERE id = ? AND account_id = ? AND env = ? AND status = ?', [
    to,
    id,
    owner.accountId,
    owner.env,
    from,
  ]);
  if (moved === 1 && from !== to) {
    await addToCount(q, owner, from, -1);
    await addToCount(q, owner, to, 1);
  }
  return moved;
}

/**
 * moveStatus for many checks of one status in one statement (a 500-check print: a few statements,
 * not 1,500, inside the transaction every other request's statement waits for on SQLite). Answers
 * how many moved; fewer than `ids` means one changed or went meanwhile.
 */
export async function moveStatuses(
  q: Queryable,
  owner: Owner,
  ids: readonly string[],
  from: number,
  to: number,
): Promise<number> {
  if (ids.length === 0) return 0;
  const moved = await q.run(
    `UPDATE checks SET status = ? WHERE id IN (${ids.map(() => '?').join(', ')}) AND account_id = ? AND env = ? AND status = ?`,
    [to, ...ids, owner.accountId, owner.env, from],
  );
  if (moved > 0 && from !== to) {
    await addToCount(q, owner, from, -moved);
    await addToCount(q, owner, to, moved);
  }
  return moved;
}

/**
 * Locks a check's row for the rest of the transaction if its status is still `status` (answers
 * false if not). A status change is itself a lock; this is for decisions that change no status
 * (queueing a mailing) and for checks made against them, so the two cannot interleave.
 */
export async function lockCheck(q: Queryable, owner: Owner, id: string, status: number): Promise<boolean> {
  return (await moveStatus(q, owner, id, status, status)) === 1;
}

/** The fields a check may change while still new (PUT /checks/{id}). */
export type CheckChanges = Pick<
  Check,
  | 'payeeId'
  | 'categoryId'
  | 'issueDate'
  | 'amountCents'
  | 'memo'
  | 'note'
  | 'accountNumber'
  | 'invoiceNumber'
  | 'referenceId'
  | 'noSign'
  | 'noAmount'
  | 'noDate'
  | 'noPayee'
  | 'customElements'
>;

/** Rewrites the editable fields of a check still in `status` (0 rows when it moved meanwhile). */
export async function updateCheck(
  q: Queryable,
  owner: Owner,
  id: string,
  status: number,
  serialNumber: string,
  c: CheckChanges,
): Promise<number> {
  return q.run(
    `UPDATE checks SET payee_id = ?, category_id = ?, issue_date = ?, amount_cents = ?, memo = ?, note = ?, account_number = ?,
       invoice_number = ?, reference_id = ?, no_sign = ?, no_amount = ?, no_date = ?, no_payee = ?, custom_elements = ?, search_text = ?
     WHERE id = ? AND account_id = ? AND env = ? AND status = ?`,
    [
      c.payeeId,
      c.categoryId,
      c.issueDate,
      c.amountCents,
      c.memo,
      c.note,
      c.accountNumber,
      c.invoiceNumber,
      c.referenceId,
      c.noSign ? 1 : 0,
      c.noAmount ? 1 : 0,
      c.noDate ? 1 : 0,
      c.noPayee ? 1 : 0,
      JSON.stringify(c.customElements),
      searchText({ ...c, serialNumber }),
      id,
      owner.accountId,
      owner.env,
      status,
    ],
  );
}

/**
 * Removes a check still in `status`, with its statements, attachments and mailings; answers 0
 * (and the caller rolls back) when the check had moved on meanwhile.
 */
export async function deleteCheck(q: Queryable, owner: Owner, id: string, status: number): Promise<number> {
  await q.run('DELETE FROM check_statements WHERE check_id = ?', [id]);
  await q.run('DELETE FROM attachments WHERE check_id = ? AND account_id = ? AND env = ?', [
    id,
    owner.accountId,
    owner.env,
  ]);
  await q.run('DELETE FROM mailings WHERE check_id = ? AND account_id = ? AND env = ?', [
    id,
    owner.accountId,
    owner.env,
  ]);
  const removed = await q.run('DELETE FROM checks WHERE id = ? AND account_id = ? AND env = ? AND status = ?', [
    id,
    owner.accountId,
    owner.env,
    status,
  ]);
  if (removed === 1) await addToCount(q, owner, status, -1);
  return removed;
}

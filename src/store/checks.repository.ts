import type { Owner } from '../domain/owner.ts';
import type { Check, CheckStatement, NewCheck } from '../domain/check.ts';
import type { Queryable, SqlValue } from './db.ts';
import type { Paged } from '../domain/paging.ts';
import { fromNearerEnd, ownerOfKeyedRows } from './owned-queries.ts';
import { defineTable, insertRows } from './table.ts';

/** The checks table as stored (migrations 001, 002, 004, 014). */
interface ChecksRow {
  id: string;
  account_id: string;
  env: string;
  bank_account_id: string;
  payee_id: string | null;
  category_id: string | null;
  voucher_id: string | null;
  serial_number: string;
  issue_date: string;
  amount_cents: number | null;
  memo: string | null;
  note: string | null;
  account_number: string | null;
  invoice_number: string | null;
  reference_id: string | null;
  no_sign: number;
  no_amount: number;
  no_date: number;
  no_payee: number;
  custom_elements: string;
  status: number;
  search_text: string;
  created_at: number;
  cleared_date: string | null;
}

const CHECKS = defineTable<ChecksRow>()('checks', [
  'id',
  'account_id',
  'env',
  'bank_account_id',
  'payee_id',
  'category_id',
  'voucher_id',
  'serial_number',
  'issue_date',
  'amount_cents',
  'memo',
  'note',
  'account_number',
  'invoice_number',
  'reference_id',
  'no_sign',
  'no_amount',
  'no_date',
  'no_payee',
  'custom_elements',
  'status',
  'search_text',
  'created_at',
  'cleared_date',
]);

interface CheckStatementsRow {
  check_id: string;
  status: string;
  created_at: number;
}

const CHECK_STATEMENTS = defineTable<CheckStatementsRow>()('check_statements', ['check_id', 'status', 'created_at']);

/** A check as read: its own columns (without the owner and search text) and the names joined in. */
type CheckRow = Omit<ChecksRow, 'account_id' | 'env' | 'search_text'> & {
  bank_account_name: string;
  payee_name: string | null;
};

function toCheck(row: CheckRow, statements: CheckStatement[]): Check {
  return {
    id: row.id,
    bankAccountId: row.bank_account_id,
    bankAccountName: row.bank_account_name,
    payeeId: row.payee_id,
    payeeName: row.payee_name,
    categoryId: row.category_id,
    voucherId: row.voucher_id,
    serialNumber: row.serial_number,
    issueDate: row.issue_date,
    amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
    memo: row.memo,
    note: row.note,
    accountNumber: row.account_number,
    invoiceNumber: row.invoice_number,
    referenceId: row.reference_id,
    noSign: row.no_sign === 1,
    noAmount: row.no_amount === 1,
    noDate: row.no_date === 1,
    noPayee: row.no_payee === 1,
    customElements: JSON.parse(row.custom_elements) as Record<string, string>,
    status: Number(row.status),
    clearedDate: row.cleared_date,
    createdAt: Number(row.created_at),
    statements,
  };
}

// What a read selects: the row's own columns (from the one table definition) and the joined names.
const NOT_READ = new Set(['account_id', 'env', 'search_text']);
const CHECK_COLUMNS = [
  ...CHECKS.columns.filter((column) => !NOT_READ.has(column)).map((column) => `c.${column}`),
  'b.name AS bank_account_name',
  'p.name AS payee_name',
].join(', ');
const CHECK_FROM =
  'FROM checks c JOIN bank_accounts b ON b.id = c.bank_account_id LEFT JOIN payees p ON p.id = c.payee_id';
const SELECT_CHECK = `SELECT ${CHECK_COLUMNS} ${CHECK_FROM}`;

/** Text the term filter searches besides the payee's current name (joined, so renames count). */
export function searchText(
  check: Pick<NewCheck, 'serialNumber' | 'memo' | 'note' | 'invoiceNumber' | 'accountNumber' | 'referenceId'>,
): string {
  return [check.serialNumber, check.memo, check.note, check.invoiceNumber, check.accountNumber, check.referenceId]
    .filter((v): v is string => v !== null && v !== '')
    .join('\n')
    .toLowerCase();
}

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

/** Adds `delta` to the number of the owner's checks in `status` (check_counts, migration 005). */
async function count(q: Queryable, owner: Owner, status: number, delta: number): Promise<void> {
  await q.run(
    `INSERT INTO check_counts (account_id, env, status, n) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, env, status) DO UPDATE SET n = check_counts.n + excluded.n`,
    [owner.accountId, owner.env, status, delta],
  );
}

export async function insertChecks(q: Queryable, owner: Owner, checks: readonly NewCheck[]): Promise<void> {
  await insertRows(
    q,
    CHECKS,
    checks.map((c) => checkRow(owner, c)),
  );
  if (checks.length > 0) await count(q, owner, 0, checks.length);
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

async function statementsFor(q: Queryable, ids: readonly string[]): Promise<Map<string, CheckStatement[]>> {
  const byCheck = new Map<string, CheckStatement[]>();
  if (ids.length === 0) return byCheck;
  const rows = await q.all<{ check_id: string; status: string; created_at: number }>(
    `SELECT check_id, status, created_at FROM check_statements WHERE check_id IN (${ids.map(() => '?').join(', ')}) ORDER BY check_id, id`,
    ids,
  );
  for (const row of rows) {
    let list = byCheck.get(row.check_id);
    if (list === undefined) {
      list = [];
      byCheck.set(row.check_id, list);
    }
    list.push({ status: row.status, at: Number(row.created_at) });
  }
  return byCheck;
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

/** The list filters that need no search: status and referenceId (check-search.ts has the term). */
export interface CheckFilter {
  status: number | null;
  referenceId: string | null;
  limit: number;
  offset: number;
}

async function totalFromCounts(q: Queryable, owner: Owner, status: number | null): Promise<number> {
  const row =
    status === null
      ? await q.get<{ n: number | null }>('SELECT SUM(n) AS n FROM check_counts WHERE account_id = ? AND env = ?', [
          owner.accountId,
          owner.env,
        ])
      : await q.get<{ n: number | null }>(
          'SELECT n FROM check_counts WHERE account_id = ? AND env = ? AND status = ?',
          [owner.accountId, owner.env, status],
        );
  return Number(row?.n ?? 0);
}

/** The counter every write to the owner's checks or payees moves on (migration 011's triggers). */
export async function checkChanges(q: Queryable, owner: Owner): Promise<number> {
  const row = await q.get<{ n: number | string }>('SELECT n FROM check_changes WHERE account_id = ? AND env = ?', [
    owner.accountId,
    owner.env,
  ]);
  return Number(row?.n ?? 0);
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
    await count(q, owner, from, -1);
    await count(q, owner, to, 1);
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
    await count(q, owner, from, -moved);
    await count(q, owner, to, moved);
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
  if (removed === 1) await count(q, owner, status, -1);
  return removed;
}

// The checks: rows by id (one, several, a page's ids in list order) and every write (insert,
// edit, status move, delete, serial reservation), each keeping check_counts in step
// (counts.repository.ts). Pages of the list are in pages.repository.ts, term searches
// in search.ts, the row's shape in rows.ts.
import type { Check, CheckStatement, NewCheck } from '../../domain/check.ts';
import type { Owner } from '../../domain/owner.ts';
import { addToCount } from './counts.repository.ts';
import {
  CHECK_COLUMN_COUNT,
  CHECK_COLUMNS,
  CHECK_ID_INDEX,
  CHECK_FROM,
  CHECK_STATEMENTS,
  CHECKS,
  type CheckRow,
  type ChecksRow,
  searchText,
  statementsFor,
  toCheck,
  toCheckFromValues,
} from './rows.ts';
import { type BatchedRead, type Queryable, readBatched, type SqlValue, valuesOf } from '../db.ts';
import { owned } from '../owned-queries.ts';
import { inList, joinSql, raw, Sql, sql } from '../sql.ts';
import { insertRows } from '../table.ts';

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

/** The columns an edit rewrites, in the order of its SET list: the editable fields and the search text. */
const EDITED = [
  'payee_id',
  'category_id',
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
  'search_text',
] as const satisfies readonly (keyof ChecksRow)[];
const EDIT_SET = EDITED.map((column) => `${column} = ?`).join(', ');

/** The edited columns of a check as stored (an insert writes them too), `search` its search text. */
function editedColumns(c: CheckChanges, search: string): Pick<ChecksRow, (typeof EDITED)[number]> {
  return {
    payee_id: c.payeeId,
    category_id: c.categoryId,
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
    search_text: search,
  };
}

// The edited columns, then the insert's own set one by one: `{ ...editedColumns(c), id, ... }`
// makes V8 build each row the slow way (15 µs a row against 0.15 µs, measured), and a 500-check
// batch builds 500 of them.
function checkRow(owner: Owner, c: NewCheck): ChecksRow {
  const row = editedColumns(c, searchText(c)) as ChecksRow;
  row.id = c.id;
  row.account_id = owner.accountId;
  row.env = owner.env;
  row.bank_account_id = c.bankAccountId;
  row.voucher_id = c.voucherId;
  row.serial_number = c.serialNumber;
  row.status = 0;
  row.created_at = c.createdAt;
  row.cleared_date = null;
  return row;
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

/** Where findCheck's statement columns sit in its rows (read as arrays), after the check's own. */
const ST_STATUS = CHECK_COLUMN_COUNT;
const ST_AT = CHECK_COLUMN_COUNT + 1;

/** The check of the first row with the statements of all of them, oldest first. */
function checkOfRows(rows: readonly (readonly SqlValue[])[]): Check | undefined {
  const first = rows[0];
  if (first === undefined) return undefined;
  const statements: CheckStatement[] = [];
  for (const r of rows) {
    const status = r[ST_STATUS];
    if (status !== null && status !== undefined) statements.push({ status: status as string, at: Number(r[ST_AT]) });
  }
  return toCheckFromValues(first, statements);
}

/**
 * One check with its statements in a single query (one row per statement): GET /checks/{id} is
 * the hottest read, and a second round trip for the statements cost a third of its throughput on
 * PostgreSQL (docs/benchmarks.md).
 */
export async function findCheck(q: Queryable, owner: Owner, id: string): Promise<Check | undefined> {
  const s = sql`SELECT ${CHECK_COLUMNS}, s.status AS st_status, s.created_at AS st_at ${CHECK_FROM}
     LEFT JOIN check_statements s ON s.check_id = c.id
     WHERE c.id = ${id} AND ${owned(owner, { alias: 'c' })} ORDER BY s.id`;
  return checkOfRows(await valuesOf(q, s.text, s.params));
}

/** The approval rule of a check as its read shows it (check_approval_rules, migration 031). */
export interface ReadRule {
  state: string;
  required: number;
  version: number;
  rejectedByLabel: string | null;
  rejectedAt: number | null;
  reason: string | null;
}

/** Where findCheckToRead's rule columns (RULE_COLUMNS) sit in its rows, after the statement's. */
const RULE = CHECK_COLUMN_COUNT + 2;

/** What GET /checks/{id} reads of a check (findCheckToRead). */
export interface CheckToRead {
  check: Check;
  rule: ReadRule | null;
}

const RULE_COLUMNS = raw(
  'r.state AS r_state, r.required AS r_required, r.version AS r_version, r.rejected_by_label AS r_rejected_by_label, r.rejected_at AS r_rejected_at, r.reason AS r_reason',
);

/** A check's read from its rows (findCheckToRead's shape: check, statement, rule columns). */
function checkToReadOfRows(rows: readonly (readonly SqlValue[])[]): CheckToRead | undefined {
  const check = checkOfRows(rows);
  const first = rows[0];
  if (check === undefined || first === undefined) return undefined;
  const state = first[RULE];
  const rejectedAt = first[RULE + 4];
  const rule: ReadRule | null =
    state === null || state === undefined
      ? null
      : {
          state: state as string,
          required: Number(first[RULE + 1]),
          version: Number(first[RULE + 2]),
          rejectedByLabel: first[RULE + 3] as string | null,
          rejectedAt: rejectedAt === null ? null : Number(rejectedAt),
          reason: first[RULE + 5] as string | null,
        };
  return { check, rule };
}

/** One check to read: its id and the owner it must belong to. */
interface CheckKey {
  readonly owner: Owner;
  readonly id: string;
}

/** What a check's read selects (one row per statement): the check, the statement, the rule. */
const TO_READ_COLUMNS = raw(
  `${CHECK_COLUMNS.text}, s.status AS st_status, s.created_at AS st_at, ${RULE_COLUMNS.text}`,
);
/** Its statements and approval rule, joined after the check's own FROM (CHECK_FROM). */
const TO_READ_JOINS = raw(
  'LEFT JOIN check_statements s ON s.check_id = c.id LEFT JOIN check_approval_rules r ON r.check_id = c.id',
);

/** Where the batch's key number (k.i, from 1) sits in its rows: after the rule columns. */
const KEY_INDEX = RULE + 6;

/** `{"a","b"}`: a PostgreSQL text array literal, for `?::text[]` (every element quoted and escaped). */
function textArray(values: readonly string[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) text += ',';
    text += `"${(values[i] as string).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  }
  return `${text}}`;
}

/**
 * findCheckToRead's statement for many checks at once (PostgreSQL: readBatched in postgres.ts
 * sends it for the GETs that arrive together). Each key is matched as its own (id, account, env)
 * triple, so a key finds only a check of its own owner, as findCheckToRead's WHERE does. The
 * same check asked for twice is read once; each caller gets objects of its own.
 */
async function checksToRead(q: Queryable, keys: readonly CheckKey[]): Promise<(CheckToRead | undefined)[]> {
  const slotOf = new Map<string, number>();
  const ids: string[] = [];
  const accounts: string[] = [];
  const envs: string[] = [];
  const slots = keys.map((k) => {
    const name = `${k.id}\u0000${k.owner.accountId}\u0000${k.owner.env}`;
    let slot = slotOf.get(name);
    if (slot === undefined) {
      slot = ids.length;
      slotOf.set(name, slot);
      ids.push(k.id);
      accounts.push(k.owner.accountId);
      envs.push(k.owner.env);
    }
    return slot;
  });
  const s = sql`SELECT ${TO_READ_COLUMNS}, k.i ${CHECK_FROM}
     JOIN unnest(${textArray(ids)}::text[], ${textArray(accounts)}::text[], ${textArray(envs)}::text[])
       WITH ORDINALITY AS k(id, account_id, env, i)
       ON c.id = k.id AND c.account_id = k.account_id AND c.env = k.env
     ${TO_READ_JOINS}
     ORDER BY k.i, s.id`;
  const rows = await valuesOf(q, s.text, s.params);
  // The rows of each slot, in statement order (k.i counts from 1).
  const rowsOf: SqlValue[][][] = ids.map(() => []);
  for (const row of rows) rowsOf[Number(row[KEY_INDEX]) - 1]?.push(row);
  return slots.map((slot) => checkToReadOfRows(rowsOf[slot] ?? []));
}

async function checkToRead(q: Queryable, key: CheckKey): Promise<CheckToRead | undefined> {
  const s = sql`SELECT ${TO_READ_COLUMNS} ${CHECK_FROM} ${TO_READ_JOINS}
     WHERE c.id = ${key.id} AND ${owned(key.owner, { alias: 'c' })} ORDER BY s.id`;
  return checkToReadOfRows(await valuesOf(q, s.text, s.params));
}

const CHECKS_TO_READ: BatchedRead<CheckKey, CheckToRead | undefined> = { one: checkToRead, many: checksToRead };

/**
 * What GET /checks/{id} reads, in one statement: findCheck's check and statements, and the
 * approval rule the check was written under (null: none, as for every check of a company without
 * an approval policy). Folding the rule in saves the read shape a second query on every GET (a
 * round trip on PostgreSQL), and needs no cache that another server's write could make stale: the
 * rule is read with the check, in the same snapshot. The rule is one row per check (its key is the
 * check's id), so the join adds no rows.
 *
 * On PostgreSQL, outside a transaction, the GETs that arrive together share one statement
 * (readBatched, postgres.ts); each still sees every commit made before it asked.
 */
export function findCheckToRead(q: Queryable, owner: Owner, id: string): Promise<CheckToRead | undefined> {
  return readBatched(q, CHECKS_TO_READ, { owner, id });
}

export async function findChecks(q: Queryable, owner: Owner, ids: readonly string[]): Promise<Map<string, Check>> {
  const found = new Map<string, Check>();
  if (ids.length === 0) return found;
  const s = sql`SELECT ${CHECK_COLUMNS} ${CHECK_FROM} WHERE c.id IN ${inList(ids)} AND ${owned(owner, { alias: 'c', keyed: q.dialect })}`;
  const rows = await q.all<CheckRow>(s.text, s.params);
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
  const s = sql`SELECT ${CHECK_COLUMNS} ${CHECK_FROM} WHERE c.id IN ${inList(ids)} ORDER BY c.created_at DESC, c.id DESC`;
  // Rows as arrays: a page is up to 100 rows of CHECK_COLUMNS, each an object the drivers build a
  // property at a time (findCheck says why that costs).
  const rows = await valuesOf(q, s.text, s.params);
  const statements = await statementsFor(q, ids);
  return rows.map((row) => toCheckFromValues(row, statements.get(row[CHECK_ID_INDEX] as string) ?? []));
}

/** Serial numbers already used on these bank accounts, among `serials`. */
export async function takenSerials(
  q: Queryable,
  pairs: readonly { bankAccountId: string; serialNumber: string }[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  if (pairs.length === 0) return taken;
  const either = joinSql(
    pairs.map((p) => sql`(bank_account_id = ${p.bankAccountId} AND serial_number = ${p.serialNumber})`),
    ' OR ',
  );
  const s = sql`SELECT bank_account_id, serial_number FROM checks WHERE ${either}`;
  const rows = await q.all<{ bank_account_id: string; serial_number: string }>(s.text, s.params);
  for (const row of rows) taken.add(`${row.bank_account_id}/${row.serial_number}`);
  return taken;
}

export async function takenReferenceIds(
  q: Queryable,
  owner: Owner,
  referenceIds: readonly string[],
): Promise<Set<string>> {
  if (referenceIds.length === 0) return new Set();
  const s = sql`SELECT reference_id FROM checks WHERE ${owned(owner)} AND reference_id IN ${inList(referenceIds)}`;
  const rows = await q.all<{ reference_id: string }>(s.text, s.params);
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
  const s = sql`UPDATE bank_accounts SET next_serial = (CASE WHEN next_serial > ${floor} THEN next_serial ELSE ${floor} END) + ${count}
     WHERE id = ${bankAccountId} RETURNING next_serial`;
  const row = await q.get<{ next_serial: number }>(s.text, s.params);
  if (row === undefined) throw new Error(`bank account ${bankAccountId} vanished inside its transaction`);
  return Number(row.next_serial) - count;
}

export async function setVoucher(q: Queryable, owner: Owner, id: string, voucherId: string): Promise<number> {
  const s = sql`UPDATE checks SET voucher_id = ${voucherId} WHERE id = ${id} AND ${owned(owner)}`;
  return q.run(s.text, s.params);
}

/** Moves a check from one status to another; 0 when it was no longer in `from` (a concurrent change). */
export async function moveStatus(q: Queryable, owner: Owner, id: string, from: number, to: number): Promise<number> {
  const s = sql`UPDATE checks SET status = ${to} WHERE id = ${id} AND ${owned(owner)} AND status = ${from}`;
  const moved = await q.run(s.text, s.params);
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
  const s = sql`UPDATE checks SET status = ${to} WHERE id IN ${inList(ids)} AND ${owned(owner)} AND status = ${from}`;
  const moved = await q.run(s.text, s.params);
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

/** Rewrites the editable fields of a check still in `status` (0 rows when it moved meanwhile). */
export async function updateCheck(
  q: Queryable,
  owner: Owner,
  id: string,
  status: number,
  serialNumber: string,
  c: CheckChanges,
): Promise<number> {
  const values = editedColumns(c, searchText({ ...c, serialNumber }));
  const set = new Sql(
    EDIT_SET,
    EDITED.map((column) => values[column]),
  );
  const s = sql`UPDATE checks SET ${set} WHERE id = ${id} AND ${owned(owner)} AND status = ${status}`;
  return q.run(s.text, s.params);
}

/**
 * Removes a check still in `status`, with its statements, attachments and mailings; answers 0
 * (and the caller rolls back) when the check had moved on meanwhile.
 */
export async function deleteCheck(q: Queryable, owner: Owner, id: string, status: number): Promise<number> {
  const statements = sql`DELETE FROM check_statements WHERE check_id = ${id}`;
  await q.run(statements.text, statements.params);
  const attachments = sql`DELETE FROM attachments WHERE check_id = ${id} AND ${owned(owner)}`;
  await q.run(attachments.text, attachments.params);
  const mailings = sql`DELETE FROM mailings WHERE check_id = ${id} AND ${owned(owner)}`;
  await q.run(mailings.text, mailings.params);
  const check = sql`DELETE FROM checks WHERE id = ${id} AND ${owned(owner)} AND status = ${status}`;
  const removed = await q.run(check.text, check.params);
  if (removed === 1) await addToCount(q, owner, status, -1);
  return removed;
}

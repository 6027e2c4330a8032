// The checks table as stored and as read (migrations 001, 002, 004, 014): one table definition
// for writes, one SELECT for reads, and the mapping from a row to a Check. Shared by the check
// repositories (checks.repository.ts: rows by id and writes; pages.repository.ts: list pages).
import type { Check, CheckStatement, NewCheck } from '../../domain/check.ts';
import type { Queryable, SqlValue } from '../db.ts';
import { inList, raw, sql } from '../sql.ts';
import { columnList, defineTable } from '../table.ts';

/** The checks table as stored (migrations 001, 002, 004, 014). */
export interface ChecksRow {
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

export const CHECKS = defineTable<ChecksRow>()('checks', [
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

/** The check_statements table as written (migration 001); its `id` is numbered by the database. */
interface CheckStatementsRow {
  check_id: string;
  status: string;
  created_at: number;
}

export const CHECK_STATEMENTS = defineTable<CheckStatementsRow>()('check_statements', [
  'check_id',
  'status',
  'created_at',
]);

const STATEMENT_COLUMNS = raw(columnList(CHECK_STATEMENTS));

/** A check as read: its own columns (without the owner and search text) and the names joined in. */
export type CheckRow = Omit<ChecksRow, 'account_id' | 'env' | 'search_text'> & {
  bank_account_name: string;
  payee_name: string | null;
};

export function toCheck(row: CheckRow, statements: CheckStatement[]): Check {
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

/** The columns of the table a read leaves out: the owner is the caller's, the search text is for searching. */
const NOT_READ: readonly (keyof ChecksRow)[] = ['account_id', 'env', 'search_text'];

// What a read selects: the row's own columns (from the one table definition) and the joined names.
export const CHECK_COLUMNS = raw(
  `${columnList(CHECKS, { alias: 'c', except: NOT_READ })}, b.name AS bank_account_name, p.name AS payee_name`,
);

/** CHECK_COLUMNS' names, in its order: where each value sits in a row read as an array. */
const READ_NAMES: readonly string[] = [
  ...CHECKS.columns.filter((column) => !NOT_READ.includes(column)),
  'bank_account_name',
  'payee_name',
];

/** How many values CHECK_COLUMNS puts first in a row; a query's own columns follow them. */
export const CHECK_COLUMN_COUNT = READ_NAMES.length;

const at = (name: keyof CheckRow): number => READ_NAMES.indexOf(name);
const ID = at('id');
const BANK_ACCOUNT_ID = at('bank_account_id');
const BANK_ACCOUNT_NAME = at('bank_account_name');
const PAYEE_ID = at('payee_id');
const PAYEE_NAME = at('payee_name');
const CATEGORY_ID = at('category_id');
const VOUCHER_ID = at('voucher_id');
const SERIAL_NUMBER = at('serial_number');
const ISSUE_DATE = at('issue_date');
const AMOUNT_CENTS = at('amount_cents');
const MEMO = at('memo');
const NOTE = at('note');
const ACCOUNT_NUMBER = at('account_number');
const INVOICE_NUMBER = at('invoice_number');
const REFERENCE_ID = at('reference_id');
const NO_SIGN = at('no_sign');
const NO_AMOUNT = at('no_amount');
const NO_DATE = at('no_date');
const NO_PAYEE = at('no_payee');
const CUSTOM_ELEMENTS = at('custom_elements');
const STATUS = at('status');
const CLEARED_DATE = at('cleared_date');
const CREATED_AT = at('created_at');

/** Where the check's id sits in a row read as an array. */
export const CHECK_ID_INDEX = ID;

/**
 * toCheck of a row read as an array of values (Queryable.allValues), CHECK_COLUMNS first: the
 * same Check, built straight from the values without a row object in between.
 */
export function toCheckFromValues(v: readonly SqlValue[], statements: CheckStatement[]): Check {
  const amountCents = v[AMOUNT_CENTS];
  return {
    id: v[ID] as string,
    bankAccountId: v[BANK_ACCOUNT_ID] as string,
    bankAccountName: v[BANK_ACCOUNT_NAME] as string,
    payeeId: v[PAYEE_ID] as string | null,
    payeeName: v[PAYEE_NAME] as string | null,
    categoryId: v[CATEGORY_ID] as string | null,
    voucherId: v[VOUCHER_ID] as string | null,
    serialNumber: v[SERIAL_NUMBER] as string,
    issueDate: v[ISSUE_DATE] as string,
    amountCents: amountCents === null ? null : Number(amountCents),
    memo: v[MEMO] as string | null,
    note: v[NOTE] as string | null,
    accountNumber: v[ACCOUNT_NUMBER] as string | null,
    invoiceNumber: v[INVOICE_NUMBER] as string | null,
    referenceId: v[REFERENCE_ID] as string | null,
    noSign: v[NO_SIGN] === 1,
    noAmount: v[NO_AMOUNT] === 1,
    noDate: v[NO_DATE] === 1,
    noPayee: v[NO_PAYEE] === 1,
    customElements: JSON.parse(v[CUSTOM_ELEMENTS] as string) as Record<string, string>,
    status: Number(v[STATUS]),
    clearedDate: v[CLEARED_DATE] as string | null,
    createdAt: Number(v[CREATED_AT]),
    statements,
  };
}
export const CHECK_FROM = raw(
  'FROM checks c JOIN bank_accounts b ON b.id = c.bank_account_id LEFT JOIN payees p ON p.id = c.payee_id',
);

/** Text the term filter searches besides the payee's current name (joined, so renames count). */
export function searchText(
  check: Pick<NewCheck, 'serialNumber' | 'memo' | 'note' | 'invoiceNumber' | 'accountNumber' | 'referenceId'>,
): string {
  return [check.serialNumber, check.memo, check.note, check.invoiceNumber, check.accountNumber, check.referenceId]
    .filter((v): v is string => v !== null && v !== '')
    .join('\n')
    .toLowerCase();
}

/** The statements of these checks, oldest first, by check id. */
export async function statementsFor(q: Queryable, ids: readonly string[]): Promise<Map<string, CheckStatement[]>> {
  const byCheck = new Map<string, CheckStatement[]>();
  if (ids.length === 0) return byCheck;
  const s = sql`SELECT ${STATEMENT_COLUMNS} FROM check_statements WHERE check_id IN ${inList(ids)} ORDER BY check_id, id`;
  const rows = await q.all<CheckStatementsRow>(s.text, s.params);
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

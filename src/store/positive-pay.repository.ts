// Positive pay: the checks an export lists, and the record of every export made.
import type { Owner } from '../domain/owner.ts';
import type { Paged } from '../domain/paging.ts';
import type { Queryable } from './db.ts';
import { owned, type Page, pagedRows } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/** The statements that mean a check left the office (docs/positive-pay.md, "Which checks"). */
const ISSUE_STATEMENTS = raw("('printed', 'mailed', 'emailed', 'eprinted')");
const VOID_STATUS_CODE = raw('5');

export interface ExportCandidate {
  checkId: string;
  serialNumber: string;
  issueDate: string;
  amountCents: number;
  payeeName: string;
}

interface CandidateRow {
  id: string;
  serial_number: string;
  issue_date: string;
  amount_cents: number | string | null;
  payee_name: string | null;
}

function toCandidate(row: CandidateRow): ExportCandidate {
  return {
    checkId: row.id,
    serialNumber: row.serial_number,
    issueDate: row.issue_date,
    // A check written with noAmount has no amount: the bank sees 0 and returns it as an exception.
    amountCents: row.amount_cents === null ? 0 : Number(row.amount_cents),
    payeeName: row.payee_name ?? '',
  };
}

const CANDIDATE_COLUMNS = raw('c.id, c.serial_number, c.issue_date, c.amount_cents, p.name AS payee_name');

/**
 * Checks of one bank account dated `from`..`to` (inclusive) that left the office, whatever
 * happened to them since (a printed check voided later was still issued). At most `limit` rows.
 */
export function issuedChecks(
  q: Queryable,
  owner: Owner,
  bankAccountId: string,
  from: string,
  to: string,
  limit: number,
): Promise<ExportCandidate[]> {
  const s = sql`SELECT ${CANDIDATE_COLUMNS}
       FROM checks c LEFT JOIN payees p ON p.id = c.payee_id
       WHERE c.bank_account_id = ${bankAccountId} AND ${owned(owner, { alias: 'c' })} AND c.issue_date >= ${from} AND c.issue_date <= ${to}
         AND EXISTS (SELECT 1 FROM check_statements s WHERE s.check_id = c.id AND s.status IN ${ISSUE_STATEMENTS})
       ORDER BY c.issue_date, c.id
       LIMIT ${limit}`;
  return q.all<CandidateRow>(s.text, s.params).then((rows) => rows.map(toCandidate));
}

/**
 * Void checks of one bank account that had left the office before they were voided, voided in
 * [`fromMs`, `toMs`) (the caller widens the window and keeps the days it wants in the account's
 * time zone). With the moment of the void. At most `limit` rows.
 */
export function voidedChecks(
  q: Queryable,
  owner: Owner,
  bankAccountId: string,
  fromMs: number,
  toMs: number,
  limit: number,
): Promise<(ExportCandidate & { voidedAt: number })[]> {
  const s = sql`SELECT ${CANDIDATE_COLUMNS}, v.created_at AS voided_at
       FROM checks c
         JOIN check_statements v ON v.check_id = c.id AND v.status = 'void'
         LEFT JOIN payees p ON p.id = c.payee_id
       WHERE c.bank_account_id = ${bankAccountId} AND ${owned(owner, { alias: 'c' })} AND c.status = ${VOID_STATUS_CODE}
         AND v.created_at >= ${fromMs} AND v.created_at < ${toMs}
         AND EXISTS (SELECT 1 FROM check_statements s WHERE s.check_id = c.id AND s.id < v.id AND s.status IN ${ISSUE_STATEMENTS})
       ORDER BY v.created_at, c.id
       LIMIT ${limit}`;
  return q
    .all<CandidateRow & { voided_at: number | string }>(s.text, s.params)
    .then((rows) => rows.map((row) => ({ ...toCandidate(row), voidedAt: Number(row.voided_at) })));
}

export interface PositivePayExport {
  id: string;
  bankAccountId: string;
  from: string;
  to: string;
  /** The layout written: `csv`, `fixed`, another preset's name, or a custom layout's id. */
  format: string;
  issuedCount: number;
  issuedTotalCents: number;
  voidCount: number;
  voidTotalCents: number;
  fileSha256: string;
  fileBytes: number;
  /** `api` (an API key), `panel` (the signed-in owner) or `cli` (the operator's command). */
  createdVia: 'api' | 'panel' | 'cli';
  /** The API key id, or the account's email for the panel and the command line. */
  createdBy: string;
  createdAt: number;
}

/** The positive_pay_exports table as stored (migration 013). */
interface PositivePayExportsRow {
  id: string;
  account_id: string;
  env: string;
  bank_account_id: string;
  from_date: string;
  to_date: string;
  format: string;
  issued_count: number | string;
  issued_total_cents: number | string;
  void_count: number | string;
  void_total_cents: number | string;
  file_sha256: string;
  file_bytes: number | string;
  created_via: string;
  created_by: string;
  created_at: number | string;
}

const EXPORTS = defineTable<PositivePayExportsRow>()('positive_pay_exports', [
  'id',
  'account_id',
  'env',
  'bank_account_id',
  'from_date',
  'to_date',
  'format',
  'issued_count',
  'issued_total_cents',
  'void_count',
  'void_total_cents',
  'file_sha256',
  'file_bytes',
  'created_via',
  'created_by',
  'created_at',
]);

// Reads leave out the owner: the query was scoped by it.
type ExportRow = Omit<PositivePayExportsRow, 'account_id' | 'env'>;
const EXPORT_COLUMNS = columnList(EXPORTS, { except: ['account_id', 'env'] });
const INSERT_EXPORT = insertStatement(EXPORTS);

function toExport(row: ExportRow): PositivePayExport {
  return {
    id: row.id,
    bankAccountId: row.bank_account_id,
    from: row.from_date,
    to: row.to_date,
    format: row.format,
    issuedCount: Number(row.issued_count),
    issuedTotalCents: Number(row.issued_total_cents),
    voidCount: Number(row.void_count),
    voidTotalCents: Number(row.void_total_cents),
    fileSha256: row.file_sha256,
    fileBytes: Number(row.file_bytes),
    createdVia: row.created_via === 'panel' ? 'panel' : row.created_via === 'cli' ? 'cli' : 'api',
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
  };
}

export async function insertExport(q: Queryable, owner: Owner, e: PositivePayExport): Promise<void> {
  await q.run(
    INSERT_EXPORT,
    rowValues(EXPORTS, {
      id: e.id,
      account_id: owner.accountId,
      env: owner.env,
      bank_account_id: e.bankAccountId,
      from_date: e.from,
      to_date: e.to,
      format: e.format,
      issued_count: e.issuedCount,
      issued_total_cents: e.issuedTotalCents,
      void_count: e.voidCount,
      void_total_cents: e.voidTotalCents,
      file_sha256: e.fileSha256,
      file_bytes: e.fileBytes,
      created_via: e.createdVia,
      created_by: e.createdBy,
      created_at: e.createdAt,
    }),
  );
}

export async function findExport(q: Queryable, owner: Owner, id: string): Promise<PositivePayExport | undefined> {
  const s = sql`SELECT ${raw(EXPORT_COLUMNS)} FROM positive_pay_exports WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<ExportRow>(s.text, s.params);
  return row === undefined ? undefined : toExport(row);
}

/** Newest first; the term matches the bank account id, the format or a date of the range. */
export function listExports(q: Queryable, owner: Owner, page: Page): Promise<Paged<PositivePayExport>> {
  return pagedRows(q, {
    table: 'positive_pay_exports',
    where: owned(owner),
    searchColumns: ['bank_account_id', 'format', 'from_date', 'to_date'],
    page,
    map: toExport,
    columns: EXPORT_COLUMNS,
  });
}

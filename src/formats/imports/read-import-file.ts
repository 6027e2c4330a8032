// Reading an import's file: the CSV within its bounds (formats/csv-reader.ts, csv-parse), its columns mapped
// to fields (domain/import-columns.ts), every row's cells turned into the API request they stand for
// and checked against the API's own request schema (schemas/validator.ts). What needs the
// database — payee and category names, the services' rules — is the preview's (services/imports/preview.service.ts).
//
// PURE, on purpose: text and limits in, plain data out (no database, no Fastify, no I/O, no class
// instances in the answer, a refused file as data rather than an exception), so it can run in a
// worker thread by changing only its call site: its input and output survive structured cloning.
import { type CsvLimits, readCsv } from '../csv-reader.ts';
import {
  type ColumnMapping,
  type DateOrder,
  type ImportField,
  type ImportKind,
  MappingError,
  mappedRow,
  type PayeeRow,
  guessMapping,
  resolveMapping,
} from '../../domain/import-columns.ts';
import { unsafeCharacter } from '../../domain/safe-text.ts';
import { iifRecords, isIif } from './iif-file.ts';
import { adder, type CheckRow, checkRow, payeeRow } from './row-cells.ts';
import type { MoneyOut } from './known-layouts.ts';
import { findHeader, type LeftOut, layoutTable, reportRows, signedAmount, type VoucherLine } from './report-table.ts';
import { CheckInput } from '../../schemas/checks.ts';
import { PayeeInput } from '../../schemas/payees.ts';
import { compileRowValidator } from '../../schemas/validator.ts';

/** Bytes of one file, at most (10,000 rows of a wide export fit with room to spare). */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;
/** What a file over `maxBytes` is told, wherever it is refused (API before its parse, service, panel). */
export const fileTooLargeMessage = (maxBytes: number): string =>
  `The file is larger than ${maxBytes / 1024 / 1024} MB: split it into smaller files.`;
/** Rows of one file, at most; a larger file is refused whole (split it). */
export const MAX_IMPORT_ROWS = 10_000;
/** Columns of one line: accounting exports have tens (a Xero contacts export about 60). */
export const MAX_IMPORT_COLUMNS = 200;
/** Characters of one cell: the longest field taken is 255; a long memo column not imported fits too. */
export const MAX_IMPORT_CELL_CHARS = 4_096;
/** Characters of one line, all its cells together: what one record may make the parser buffer. */
export const MAX_IMPORT_LINE_CHARS = 64 * 1024;
/** Rows of the preview's sample table. */
export const SAMPLE_ROWS = 20;

export interface ImportLimits {
  readonly maxBytes: number;
  readonly maxRows: number;
  readonly maxColumns: number;
  readonly maxCellChars: number;
  readonly maxLineChars: number;
}

export const IMPORT_LIMITS: ImportLimits = {
  maxBytes: MAX_IMPORT_BYTES,
  maxRows: MAX_IMPORT_ROWS,
  maxColumns: MAX_IMPORT_COLUMNS,
  maxCellChars: MAX_IMPORT_CELL_CHARS,
  maxLineChars: MAX_IMPORT_LINE_CHARS,
};

/** What the file is read as: the options of an import that the file alone decides. */
export interface ImportFileRequest {
  readonly kind: ImportKind;
  readonly mapping?: Readonly<Record<string, string>>;
  readonly bankAccountId?: string;
  readonly dateOrder?: DateOrder;
  /**
   * How the file writes money paid out. 'negative' (registers, a bank's side): a negative amount is
   * a check's, a positive row is money in and left out, listed. Never assumed for a file of no
   * known layout: the user says so (the preview's confirmation, the API's and CLI's option).
   */
  readonly moneyOut?: MoneyOut;
}

/** A file refused whole: the error code (errors.ts) and its message. */
export interface ImportFileRefusal {
  readonly code: 'validation' | 'payload_too_large';
  readonly message: string;
}

export type { CheckRow };

export interface ImportFile {
  kind: ImportKind;
  /** Column names, trimmed. */
  header: string[];
  mapping: ColumnMapping;
  /** The line each row starts on (1-based; the header is line 1). */
  lines: number[];
  /** Check rows (kind checks), else empty. */
  checks: CheckRow[];
  /** Payee rows (kind payees), else empty. */
  payees: PayeeRow[];
  /** Per row (same index as lines): what a cell says wrong (a date, an amount, a character). */
  cellErrors: string[][];
  /** Per row: the request schema's failures, all of them. */
  schemaErrors: string[][];
  /** The first rows, mapped column by column (field -> text): the preview's sample table. */
  sample: Partial<Record<ImportField, string>>[];
  /** Every row, mapped column by column (field -> text): what a row's message quotes. */
  cells: Partial<Record<ImportField, string>>[];
  /** The known export the header is (known-layouts.ts), or null. */
  layout: { id: string; label: string } | null;
  /** The line of the header (1-based): title lines above it are in leftOut. */
  headerLine: number;
  /** How money paid out was read: 'negative' turns -2,450.00 into a $2,450.00 check. */
  moneyOut: MoneyOut;
  /** Lines not taken as rows, each with why (title, section, total, blank, footer, money in, …). */
  leftOut: LeftOut[];
}

export type ImportFileResult =
  | { readonly ok: true; readonly file: ImportFile }
  | { readonly ok: false; readonly refusal: ImportFileRefusal };

let checkSchema: ((data: unknown) => string[]) | null = null;
let payeeSchema: ((data: unknown) => string[]) | null = null;

const refused = (code: ImportFileRefusal['code'], message: string): ImportFileResult => ({
  ok: false,
  refusal: { code, message },
});

const notCsv = (message: string): ImportFileResult =>
  refused('validation', `The csv field is not a valid CSV file. ${message}.`);

/** An IIF file's TRNS/SPL lines under its !TRNS header, as the CSV reader's answer. */
function iifOrProblem(text: string): ReturnType<typeof readCsv> {
  const read = iifRecords(text);
  if ('problem' in read)
    return { ok: false, problem: { kind: 'syntax', line: 1, column: null, message: read.problem } };
  return { ok: true, records: read.records, lines: read.lines };
}

function resolveMappingOrNull(
  kind: ImportKind,
  header: readonly string[],
  chosen: Readonly<Record<string, string>> | undefined,
): ColumnMapping | null {
  try {
    return resolveMapping(kind, header, chosen);
  } catch {
    return null;
  }
}

/**
 * Reads an import's file: refused whole (too large, not CSV, past a bound, no rows, a mapping that
 * names what the file lacks) or every row's request with its cell and schema errors. The row
 * schema check of a check row runs before its payee and category names are looked up; a name
 * found later fills an id the schema takes as it is, so the preview need not check it again.
 */
export function readImportFile(
  text: string,
  request: ImportFileRequest,
  limits: ImportLimits = IMPORT_LIMITS,
): ImportFileResult {
  if (Buffer.byteLength(text, 'utf8') > limits.maxBytes)
    return refused('payload_too_large', fileTooLargeMessage(limits.maxBytes));
  const read = isIif(text)
    ? iifOrProblem(text)
    : readCsv(text, {
        maxColumns: limits.maxColumns,
        maxCellChars: limits.maxCellChars,
        maxRecordChars: limits.maxLineChars,
        maxRecords: limits.maxRows + 1,
      } satisfies CsvLimits);
  if (!read.ok) {
    if (read.problem.kind === 'too_many_records')
      return refused(
        'payload_too_large',
        `The file has more than ${limits.maxRows} rows: split it into files of at most ${limits.maxRows}.`,
      );
    return notCsv(read.problem.message);
  }
  const found = findHeader(
    read.records,
    (row) =>
      guessMapping(
        request.kind,
        row.map((c) => c.trim()),
      ).filter((f) => f !== null).length,
  );
  const layout = found.layout;
  if (layout !== null && layout.kind !== request.kind)
    return refused(
      'validation',
      `This looks like a ${layout.label}: it holds ${layout.kind}, so import it as ${layout.kind}, not ${request.kind}.`,
    );
  const headerLine = read.lines[found.index] ?? 1;
  let header = (read.records[found.index] ?? []).map((name) => name.trim());
  if (header.length === 0 || header.every((name) => name === ''))
    return notCsv('Line 1: the file is empty: the first line must name the columns');
  if (header.some((name) => unsafeCharacter(name) !== null))
    return notCsv(`Line ${headerLine}: a column name holds a control character`);
  const leftOut: LeftOut[] = read.records.slice(0, found.index).map((row, i) => ({
    line: read.lines[i] ?? 0,
    why: 'a title line above the header',
    text: row
      .filter((c) => c.trim() !== '')
      .join(' | ')
      .slice(0, 80),
  }));
  let rows = read.records.slice(found.index + 1);
  let lines = read.lines.slice(found.index + 1);
  let vouchers: (VoucherLine[] | null)[] = rows.map(() => null);
  let groupErrors: string[][] = rows.map(() => []);
  let chosen = request.mapping;
  if (layout !== null) {
    const table = layoutTable(layout, header, headerLine, rows, lines);
    ({ header, rows, lines, vouchers, groupErrors } = table);
    leftOut.push(...table.leftOut);
    // A recognised layout is read by its own columns: a mapping sent with it has nothing to map.
    chosen = undefined;
  } else {
    // Trailing commas (a spreadsheet's empty columns) are no fields.
    rows = rows.map((row) => {
      let end = row.length;
      while (end > header.length && (row[end - 1] ?? '').trim() === '') end--;
      return end === row.length ? row : row.slice(0, end);
    });
    if (found.index > 0 || header[0] === '') {
      const report = reportRows(rows, lines);
      leftOut.push(...report.leftOut);
      rows = report.rows;
      lines = report.lines;
      vouchers = rows.map(() => null);
      groupErrors = rows.map(() => []);
      const guessed = resolveMappingOrNull(request.kind, header, chosen);
      // A report that names no payee column: the group heading above the rows is their payee.
      if (
        request.kind === 'checks' &&
        guessed !== null &&
        !guessed.includes('payee') &&
        report.headings.some((h) => h !== null)
      ) {
        header = [...header, 'Group heading'];
        rows = rows.map((row, i) => [
          ...row,
          ...Array(Math.max(0, header.length - 1 - row.length)).fill(''),
          report.headings[i] ?? '',
        ]);
        chosen = { ...(chosen ?? {}), 'Group heading': 'payee' };
      }
    }
    for (let i = 0; i < rows.length; i++) {
      const width = rows[i]?.length ?? 0;
      if (width > header.length)
        return notCsv(`Line ${lines[i] ?? 0}: the row has ${width} fields but the header names ${header.length}`);
    }
  }
  if (rows.length === 0 && leftOut.length === 0)
    return refused('validation', 'The csv field has no rows: the first line names the columns, the rows follow it.');
  let mapping: ColumnMapping;
  try {
    mapping = resolveMapping(request.kind, header, chosen);
  } catch (error) {
    if (error instanceof MappingError) return refused('validation', error.message);
    throw error;
  }
  let cells = rows.map((row) => mappedRow(mapping, row));
  const moneyOut: MoneyOut = layout?.moneyOut ?? request.moneyOut ?? 'positive';
  if (moneyOut === 'negative' && request.kind === 'checks') {
    // Money paid out is negative in this file: a negative row is a check of that many dollars; a
    // positive one is money in (a deposit, a bill) and no check, listed. Nothing else is turned.
    const kept: number[] = [];
    cells.forEach((c, i) => {
      const amount = signedAmount(c.amount ?? '');
      if ((c.amount ?? '') !== '' && amount.negative && !amount.zero) {
        c.amount = amount.unsigned;
        kept.push(i);
      } else
        leftOut.push({
          line: lines[i] ?? 0,
          why:
            (c.amount ?? '') === '' || amount.zero
              ? 'no amount paid out'
              : 'money in (a positive amount: a deposit or a bill), not a check',
          text: Object.values(c)
            .filter((v) => v !== '')
            .join(' | ')
            .slice(0, 80),
        });
    });
    cells = kept.map((i) => cells[i] ?? {});
    lines = kept.map((i) => lines[i] ?? 0);
    vouchers = kept.map((i) => vouchers[i] ?? null);
    groupErrors = kept.map((i) => groupErrors[i] ?? []);
  }
  leftOut.sort((a, b) => a.line - b.line);
  if (cells.length === 0)
    return refused(
      'validation',
      `The csv field has no rows to import: ${leftOut.length} line${leftOut.length === 1 ? ' was' : 's were'} left out (${[...new Set(leftOut.map((l) => l.why))].join('; ')}).`,
    );
  const cellErrors = cells.map((_, i): string[] => [...(groupErrors[i] ?? [])]);
  const schemaErrors = cells.map((): string[] => []);
  const file: ImportFile = {
    kind: request.kind,
    header,
    mapping,
    lines,
    checks: [],
    payees: [],
    cellErrors,
    schemaErrors,
    sample: cells.slice(0, SAMPLE_ROWS),
    cells,
    layout: layout === null ? null : { id: layout.id, label: layout.label },
    headerLine,
    moneyOut,
    leftOut,
  };
  if (request.kind === 'checks') {
    checkSchema ??= compileRowValidator(CheckInput);
    const validate = checkSchema;
    file.checks = cells.map((c, i) => {
      const row = checkRow(c, request, adder(cellErrors[i] ?? []));
      const items = vouchers[i];
      if (items != null)
        row.item.voucher = {
          ...(c.invoiceNumber ? { voucherNumber: c.invoiceNumber.slice(0, 50) } : {}),
          voucherItems: items.map((v) => ({ description: v.description, total: v.total.replace(/,/g, '') })),
        };
      schemaErrors[i] = validate(row.item);
      return row;
    });
  } else {
    payeeSchema ??= compileRowValidator(PayeeInput);
    const validate = payeeSchema;
    file.payees = cells.map((c, i) => {
      const row = payeeRow(c, adder(cellErrors[i] ?? []));
      schemaErrors[i] = validate(row);
      return row;
    });
  }
  return { ok: true, file };
}

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
  CellError,
  type ColumnMapping,
  type DateOrder,
  type ImportField,
  type ImportKind,
  MappingError,
  mappedRow,
  type PayeeRow,
  resolveMapping,
  safeCell,
  sheetAmount,
  sheetDate,
  sheetFlag,
} from '../../domain/import-columns.ts';
import { unsafeCharacter } from '../../domain/safe-text.ts';
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
}

/** A file refused whole: the error code (errors.ts) and its message. */
export interface ImportFileRefusal {
  readonly code: 'validation' | 'payload_too_large';
  readonly message: string;
}

/** A check row as the file alone says it: the request, and the names the preview looks up. */
export interface CheckRow {
  item: Record<string, unknown>;
  payeeName: string | null;
  categoryName: string | null;
}

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

/** Collects a row's messages once each. */
function adder(list: string[]): (message: string) => void {
  return (message) => {
    if (!list.includes(message)) list.push(message);
  };
}

function cellText(field: string, text: string, add: (message: string) => void): string {
  try {
    return safeCell(field, text);
  } catch (error) {
    if (!(error instanceof CellError)) throw error;
    add(error.message);
    return '';
  }
}

/** A row's cells into a create-check request; cell problems go to `add`. */
function checkRow(
  cells: Partial<Record<ImportField, string>>,
  request: ImportFileRequest,
  add: (message: string) => void,
): CheckRow {
  const item: Record<string, unknown> = {};
  let payeeName: string | null = null;
  let categoryName: string | null = null;
  const cell = (field: string, convert: (text: string) => unknown): void => {
    const text = cells[field as ImportField];
    if (text === undefined || text === '') return;
    try {
      item[field] = convert(safeCell(field, text));
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      add(error.message);
    }
  };
  const bank = cells.bankAccountId ?? '';
  item.bankAccountId = bank === '' ? (request.bankAccountId ?? '') : cellText('bankAccountId', bank, add);
  cell('payeeId', (t) => t);
  const payee = cells.payee ?? '';
  if (item.payeeId === undefined && payee !== '') {
    const text = cellText('payee', payee, add);
    if (/^pay_[0-9A-Za-z]+$/.test(text)) item.payeeId = text;
    else payeeName = text;
  }
  const category = cells.category ?? '';
  if (category !== '') {
    const text = cellText('category', category, add);
    if (/^cat_[0-9A-Za-z]+$/.test(text)) item.categoryId = text;
    else categoryName = text;
  }
  cell('serialNumber', (t) => t.replace(/^#/, ''));
  cell('issueDate', (t) => sheetDate(t, request.dateOrder ?? 'mdy'));
  cell('amount', sheetAmount);
  for (const field of ['memo', 'note', 'accountNumber', 'invoiceNumber', 'referenceId']) cell(field, (t) => t);
  for (const field of ['noSign', 'noAmount', 'noDate', 'noPayee']) cell(field, (t) => sheetFlag(field, t));
  return { item, payeeName, categoryName };
}

function payeeRow(cells: Partial<Record<ImportField, string>>, add: (message: string) => void): PayeeRow {
  const item: Record<string, string> = {};
  for (const [field, text] of Object.entries(cells)) {
    if (text === '' && field !== 'name') continue;
    item[field] = cellText(field, text, add);
  }
  return item as PayeeRow;
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
  const read = readCsv(text, {
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
  const header = (read.records[0] ?? []).map((name) => name.trim());
  if (header.length === 0 || header.every((name) => name === ''))
    return notCsv('Line 1: the file is empty: the first line must name the columns');
  if (header.some((name) => unsafeCharacter(name) !== null))
    return notCsv('Line 1: a column name holds a control character');
  const rows = read.records.slice(1);
  const lines = read.lines.slice(1);
  for (let i = 0; i < rows.length; i++) {
    const width = rows[i]?.length ?? 0;
    if (width > header.length)
      return notCsv(`Line ${lines[i] ?? 0}: the row has ${width} fields but the header names ${header.length}`);
  }
  if (rows.length === 0)
    return refused('validation', 'The csv field has no rows: the first line names the columns, the rows follow it.');
  let mapping: ColumnMapping;
  try {
    mapping = resolveMapping(request.kind, header, request.mapping);
  } catch (error) {
    if (error instanceof MappingError) return refused('validation', error.message);
    throw error;
  }
  const cells = rows.map((row) => mappedRow(mapping, row));
  const cellErrors = cells.map((): string[] => []);
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
  };
  if (request.kind === 'checks') {
    checkSchema ??= compileRowValidator(CheckInput);
    const validate = checkSchema;
    file.checks = cells.map((c, i) => {
      const row = checkRow(c, request, adder(cellErrors[i] ?? []));
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

// CSV imports of payees and checks (issue 14, item 4). A file is read (domain/csv.ts), its columns
// mapped to fields (domain/import-columns.ts), every row checked with the API's own rules — the
// request schema and the services' rules (createChecks/createPayees) — and only a file without a
// single error is accepted. An accepted import is stored as the API requests it will make
// (`imports.input`), then written in ONE transaction through the same services the API uses, so
// it is all or nothing and everything it made is seen by GET /checks and GET /payees. A process
// that stops mid-import loses only the open transaction: the import is still queued or running
// in the table, and the next server (or CLI run) does it again, whole (ImportRunner below).
import { AsyncResource } from 'node:async_hooks';
import { CsvError, parseCsv } from '../domain/csv.ts';
import {
  CellError,
  type ColumnMapping,
  type ImportField,
  type ImportKind,
  MappingError,
  mappedRow,
  resolveMapping,
  safeCell,
  sheetAmount,
  sheetDate,
  sheetFlag,
} from '../domain/import-columns.ts';
import { newId } from '../domain/ids.ts';
import { unsafeCharacter } from '../domain/safe-text.ts';
import type { Owner, Principal } from '../domain/owner.ts';
import { AppError, validationError } from '../errors.ts';
import { compileRowValidator } from '../http/validation.ts';
import { CheckInput } from '../schemas/checks.ts';
import { PayeeInput as PayeeSchema } from '../schemas/payees.ts';
import { transactionJoinedByCalls } from '../store/db.ts';
import * as importStore from '../store/imports.repository.ts';
import type { ImportRecord } from '../store/imports.repository.ts';
import * as categoryStore from '../store/categories.repository.ts';
import * as payeeStore from '../store/payees.repository.ts';
import * as checkStore from '../store/checks.repository.ts';
import type { Check } from '../domain/check.ts';
import type { Payee } from '../domain/payee.ts';
import type { CheckInput as CheckRequest } from '../schemas/checks.ts';
import { createChecks, validateChecks } from './check.service.ts';
import type { ServiceContext } from './context.ts';
import { createPayees, validatePayees } from './payee.service.ts';

/** Rows of one file, at most; a larger file is refused whole (split it). */
export const MAX_IMPORT_ROWS = 10_000;
/** Bytes of one file, at most (10,000 rows of a wide export fit with room to spare). */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;
/** Rows per service call inside the import's transaction: the progress steps, and the size of a batch. */
const CHUNK = 500;
/** Rows of the preview's sample table. */
const SAMPLE_ROWS = 20;
/** Attempts at an import that fails for a reason that is not its data (the database went away). */
const MAX_ATTEMPTS = 3;

export type DateOrder = 'mdy' | 'dmy';

export interface ImportOptions {
  kind: ImportKind;
  csv: string;
  fileName?: string;
  /** Column (header text or 0-based index) -> field name, or '' to leave a column out. */
  mapping?: Readonly<Record<string, string>>;
  /** The bank account of every check whose row names none. */
  bankAccountId?: string;
  /** Create a payee for a check whose payee name matches none (else such a row is an error). */
  createPayees?: boolean;
  /** How slashed dates read: month/day/year (default, US exports) or day/month/year. */
  dateOrder?: DateOrder;
}

export interface RowError {
  /** 1-based data row (the header is not counted). */
  row: number;
  /** 1-based line of the file where the row starts. */
  line: number;
  messages: string[];
}

interface CheckPlan {
  row: number;
  item: CheckRequest;
  /** The name of a payee the import creates for this check (its payeeId is filled in then). */
  newPayee: string | null;
}

/** What an accepted import writes: the API requests, row by row. Stored as JSON in imports.input. */
export interface ImportInput {
  kind: ImportKind;
  timeZone: string;
  lines: number[];
  checks: CheckPlan[];
  payees: PayeeRow[];
  newPayees: string[];
}

export interface Preview {
  kind: ImportKind;
  header: string[];
  mapping: ColumnMapping;
  rowsTotal: number;
  errors: RowError[];
  newPayees: string[];
  sample: Partial<Record<ImportField, string>>[];
  input: ImportInput;
}

export interface ImportResult {
  checkIds: string[];
  payeeIds: string[];
  /** Payees made for checks whose payee was unknown (createPayees). */
  createdPayeeIds: string[];
}

type PayeeRow = { name: string } & Partial<Record<Exclude<ImportField, 'name'>, string>>;

const EMPTY_RESULT: ImportResult = { checkIds: [], payeeIds: [], createdPayeeIds: [] };

let checkSchema: ((data: unknown) => string[]) | null = null;
let payeeSchema: ((data: unknown) => string[]) | null = null;

/** "The checks.12.amount field ..." -> "The amount field ...": a row's error names the field alone. */
function rowMessage(message: string): string {
  return message.replace(/\b(checks|payees)\.\d+\./g, '');
}

function tooLarge(message: string): AppError {
  return new AppError('payload_too_large', message);
}

/** The file's text within the limits, or a 413/422 saying why not. */
function readTable(csv: string) {
  if (Buffer.byteLength(csv, 'utf8') > MAX_IMPORT_BYTES)
    throw tooLarge(`The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it into smaller files.`);
  try {
    const table = parseCsv(csv, { maxRecords: MAX_IMPORT_ROWS });
    if (table.header.some((name) => unsafeCharacter(name) !== null))
      throw validationError('The csv field is not a valid CSV file. Line 1: a column name holds a control character.');
    if (table.rows.length === 0)
      throw validationError('The csv field has no rows: the first line names the columns, the rows follow it.');
    return table;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    if (error.message.includes('more than'))
      throw tooLarge(
        `The file has more than ${MAX_IMPORT_ROWS} rows: split it into files of at most ${MAX_IMPORT_ROWS}.`,
      );
    throw validationError(`The csv field is not a valid CSV file. ${error.message}.`);
  }
}

class Rows {
  readonly errors = new Map<number, string[]>();
  add(index: number, message: string): void {
    const list = this.errors.get(index) ?? [];
    if (!list.includes(message)) list.push(message);
    this.errors.set(index, list);
  }
  ok(index: number): boolean {
    return !this.errors.has(index);
  }
}

/** Checks text cell by cell into a create-check request; cell problems go to `rows`. */
function checkRequest(
  cells: Partial<Record<ImportField, string>>,
  options: ImportOptions,
  index: number,
  rows: Rows,
): { item: Record<string, unknown>; payeeName: string | null; categoryName: string | null } {
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
      rows.add(index, error.message);
    }
  };
  const bank = cells.bankAccountId ?? '';
  item.bankAccountId = bank === '' ? (options.bankAccountId ?? '') : safeText(bank, 'bankAccountId', index, rows);
  cell('payeeId', (t) => t);
  const payee = cells.payee ?? '';
  if (item.payeeId === undefined && payee !== '') {
    const text = safeText(payee, 'payee', index, rows);
    if (/^pay_[0-9A-Za-z]+$/.test(text)) item.payeeId = text;
    else payeeName = text;
  }
  const category = cells.category ?? '';
  if (category !== '') {
    const text = safeText(category, 'category', index, rows);
    if (/^cat_[0-9A-Za-z]+$/.test(text)) item.categoryId = text;
    else categoryName = text;
  }
  cell('serialNumber', (t) => t.replace(/^#/, ''));
  cell('issueDate', (t) => sheetDate(t, options.dateOrder ?? 'mdy'));
  cell('amount', sheetAmount);
  for (const field of ['memo', 'note', 'accountNumber', 'invoiceNumber', 'referenceId']) cell(field, (t) => t);
  for (const field of ['noSign', 'noAmount', 'noDate', 'noPayee']) cell(field, (t) => sheetFlag(field, t));
  return { item, payeeName, categoryName };
}

function safeText(text: string, field: string, index: number, rows: Rows): string {
  try {
    return safeCell(field, text);
  } catch (error) {
    if (!(error instanceof CellError)) throw error;
    rows.add(index, error.message);
    return '';
  }
}

/** Names -> the payees of that name, read in slices (no statement binds too many values). */
async function payeesByName(ctx: ServiceContext, owner: Owner, names: readonly string[]) {
  const found = new Map<string, string[]>();
  for (let at = 0; at < names.length; at += CHUNK) {
    for (const payee of await payeeStore.findPayeesByName(ctx.db, owner, names.slice(at, at + CHUNK))) {
      found.set(payee.name, [...(found.get(payee.name) ?? []), payee.id]);
    }
  }
  return found;
}

async function categoriesByName(ctx: ServiceContext, owner: Owner) {
  const found = new Map<string, string[]>();
  const page = await categoryStore.listCategories(ctx.db, owner, { limit: 1000, offset: 0, term: null });
  for (const category of page.items) {
    const key = category.name.trim().toLowerCase();
    found.set(key, [...(found.get(key) ?? []), category.id]);
  }
  return found;
}

async function previewChecks(
  ctx: ServiceContext,
  principal: Principal,
  options: ImportOptions,
  cells: Partial<Record<ImportField, string>>[],
  rows: Rows,
): Promise<{ plans: CheckPlan[]; newPayees: string[] }> {
  checkSchema ??= compileRowValidator(CheckInput);
  const built = cells.map((c, i) => checkRequest(c, options, i, rows));
  const names = [...new Set(built.map((b) => b.payeeName).filter((n): n is string => n !== null))];
  const known = await payeesByName(ctx, principal, names);
  const categories = built.some((b) => b.categoryName !== null) ? await categoriesByName(ctx, principal) : new Map();
  const newPayees = new Set<string>();
  const plans: CheckPlan[] = built.map((b, i) => {
    let newPayee: string | null = null;
    if (b.payeeName !== null) {
      const ids = known.get(b.payeeName) ?? [];
      if (ids.length === 1) b.item.payeeId = ids[0];
      else if (ids.length > 1)
        rows.add(
          i,
          `The payee "${b.payeeName}" matches ${ids.length} payees: give the payee's id in a payeeId column.`,
        );
      else if (options.createPayees === true) {
        newPayee = b.payeeName;
        newPayees.add(b.payeeName);
      } else
        rows.add(
          i,
          `The payee "${b.payeeName}" is not one of your payees: add it, import payees first, or choose to create unknown payees.`,
        );
    }
    if (b.categoryName !== null) {
      const ids = categories.get(b.categoryName.toLowerCase()) ?? [];
      if (ids.length === 1) b.item.categoryId = ids[0];
      else
        rows.add(
          i,
          `The category "${b.categoryName}" ${ids.length === 0 ? 'is not one of your categories' : 'names several categories: give its id'}.`,
        );
    }
    for (const message of checkSchema?.(b.item) ?? []) rows.add(i, message);
    return { row: i + 1, item: b.item as CheckRequest, newPayee };
  });
  // The services' rules, on the rows the schema let through (as the API would only then call them).
  // A check whose payee the import will create is checked as if it had none: the payee is new.
  const passing = plans.filter((_, i) => rows.ok(i));
  await validateChecks(
    ctx,
    principal,
    passing.map((p) => (p.newPayee === null ? p.item : { ...p.item, noPayee: true })),
    (index, error) => rows.add((passing[index]?.row ?? 1) - 1, rowMessage(error.message)),
  );
  return { plans, newPayees: [...newPayees] };
}

function previewPayees(cells: Partial<Record<ImportField, string>>[], rows: Rows): PayeeRow[] {
  payeeSchema ??= compileRowValidator(PayeeSchema);
  const items = cells.map((c, i) => {
    const item: Record<string, string> = {};
    for (const [field, text] of Object.entries(c)) {
      if (text === '' && field !== 'name') continue;
      item[field] = safeText(text, field, i, rows);
    }
    for (const message of payeeSchema?.(item) ?? []) rows.add(i, message);
    return item as PayeeRow;
  });
  const passing = items.map((item, i) => ({ item, i })).filter(({ i }) => rows.ok(i));
  validatePayees(
    passing.map((p) => p.item),
    (index, error) => rows.add(passing[index]?.i ?? 0, rowMessage(error.message)),
  );
  return items;
}

/** Reads, maps and checks a file without writing anything: every row's errors. */
export async function previewImport(
  ctx: ServiceContext,
  principal: Principal,
  options: ImportOptions,
): Promise<Preview> {
  const table = readTable(options.csv);
  let mapping: ColumnMapping;
  try {
    mapping = resolveMapping(options.kind, table.header, options.mapping);
  } catch (error) {
    if (error instanceof MappingError) throw validationError(error.message);
    throw error;
  }
  const cells = table.rows.map((row) => mappedRow(mapping, row));
  const rows = new Rows();
  const input: ImportInput = {
    kind: options.kind,
    timeZone: principal.timeZone,
    lines: table.lines,
    checks: [],
    payees: [],
    newPayees: [],
  };
  if (options.kind === 'checks') {
    const { plans, newPayees } = await previewChecks(ctx, principal, options, cells, rows);
    input.checks = plans;
    input.newPayees = newPayees;
  } else input.payees = previewPayees(cells, rows);
  const errors = [...rows.errors.entries()]
    .sort(([a], [b]) => a - b)
    .map(([i, messages]) => ({ row: i + 1, line: table.lines[i] ?? 0, messages }));
  return {
    kind: options.kind,
    header: table.header,
    mapping,
    rowsTotal: table.rows.length,
    errors,
    newPayees: input.newPayees,
    sample: cells.slice(0, SAMPLE_ROWS),
    input,
  };
}

/** SHOWN_IN_MESSAGE rows' errors go in the API's errorMsg; a dry run lists every row's. */
const SHOWN_IN_MESSAGE = 20;

/** The refusal of a file with errors, in the API's one-message error body. */
export function refusal(errors: readonly RowError[]): AppError {
  const shown = errors
    .slice(0, SHOWN_IN_MESSAGE)
    .map((e) => `Row ${e.row} (line ${e.line}): ${e.messages.join(' ')}`)
    .join(' ');
  const more =
    errors.length > SHOWN_IN_MESSAGE
      ? ` And ${errors.length - SHOWN_IN_MESSAGE} more rows: send the file with dryRun true for every row's errors.`
      : '';
  return validationError(
    `Nothing was imported: ${errors.length} row${errors.length === 1 ? ' has' : 's have'} errors. ${shown}${more}`,
  );
}

export class ImportRefused extends AppError {
  constructor(readonly rowErrors: RowError[]) {
    super('validation', refusal(rowErrors).message);
  }
}

function newRecord(
  owner: Owner,
  options: ImportOptions,
  state: 'draft' | 'queued',
  input: string,
  rowsTotal: number,
  now: number,
): ImportRecord {
  return {
    id: newId('imp', now),
    accountId: owner.accountId,
    env: owner.env,
    kind: options.kind,
    state,
    fileName: (options.fileName ?? '').slice(0, 200),
    rowsTotal,
    rowsDone: 0,
    input,
    errors: '[]',
    result: JSON.stringify(EMPTY_RESULT),
    attempts: 0,
    createdAt: now,
    startedAt: null,
    finishedAt: null,
  };
}

/**
 * Accepts a file: checked whole (ImportRefused lists every row's errors; nothing is stored), then
 * stored as queued. The writing happens in the background (ImportRunner) or by `runImport`.
 */
export async function startImport(
  ctx: ServiceContext,
  principal: Principal,
  options: ImportOptions,
): Promise<ImportRecord> {
  const preview = await previewImport(ctx, principal, options);
  if (preview.errors.length > 0) throw new ImportRefused(preview.errors);
  const record = newRecord(principal, options, 'queued', JSON.stringify(preview.input), preview.rowsTotal, ctx.now());
  await importStore.insertImport(ctx.db, record);
  return record;
}

/** Drafts an owner keeps at once: an upload past this many deletes the oldest. */
export const MAX_DRAFTS = 20;
/** A draft not confirmed within this long is deleted by the runner (docs/imports.md). */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;
/** How often the runner looks for such drafts: one DELETE an hour, not one per 5-s tick. */
const DRAFT_SWEEP_MS = 60 * 60 * 1000;

/**
 * A panel upload kept until its preview is confirmed (the file is too large to carry in a form).
 * At most MAX_DRAFTS per owner, and none older than DRAFT_TTL_MS (ImportRunner deletes them).
 */
export async function saveDraft(ctx: ServiceContext, owner: Owner, options: ImportOptions): Promise<ImportRecord> {
  readTable(options.csv);
  const record = newRecord(owner, options, 'draft', JSON.stringify({ csv: options.csv }), 0, ctx.now());
  await ctx.db.transaction(async (tx) => {
    await importStore.insertImport(tx, record);
    await importStore.trimDrafts(tx, owner, MAX_DRAFTS);
  });
  return record;
}

/** The column headers of a draft's file (its preview's selects). */
export function draftHeader(record: ImportRecord): string[] {
  return readTable(draftCsv(record)).header;
}

/** The CSV of a draft. */
export function draftCsv(record: ImportRecord): string {
  const parsed = JSON.parse(record.input) as { csv?: unknown };
  return typeof parsed.csv === 'string' ? parsed.csv : '';
}

/** Confirms a draft with the options chosen on the preview: checked again, then queued. */
export async function startDraft(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  options: Omit<ImportOptions, 'csv' | 'kind'>,
): Promise<ImportRecord> {
  const draft = await getImport(ctx, principal, id);
  if (draft.state !== 'draft') throw new AppError('conflict', 'This import has already been started.');
  const preview = await previewImport(ctx, principal, { ...options, kind: draft.kind, csv: draftCsv(draft) });
  if (preview.errors.length > 0) throw new ImportRefused(preview.errors);
  const queued = await importStore.queueDraft(ctx.db, principal, id, JSON.stringify(preview.input), preview.rowsTotal);
  if (queued === 0) throw new AppError('conflict', 'This import has already been started.');
  return getImport(ctx, principal, id);
}

export async function getImport(ctx: ServiceContext, owner: Owner, id: string): Promise<ImportRecord> {
  const record = await importStore.findImport(ctx.db, owner, id);
  if (record === undefined) throw new AppError('not_found', 'Import not found.');
  const running = runners.get(ctx.db)?.progressOf(id);
  return running === undefined ? record : { ...record, rowsDone: Math.max(record.rowsDone, running) };
}

export function listImports(ctx: ServiceContext, owner: Owner): Promise<ImportRecord[]> {
  return importStore.listImports(ctx.db, owner, 50);
}

export function resultOf(record: ImportRecord): ImportResult {
  return { ...EMPTY_RESULT, ...(JSON.parse(record.result) as Partial<ImportResult>) };
}

/** The first `limit` checks or payees an import made, for its result page (found by id, in row order). */
export async function createdRecords(
  ctx: ServiceContext,
  owner: Owner,
  record: ImportRecord,
  limit: number,
): Promise<{ checks: Map<string, Check>; payees: Map<string, Payee>; ids: string[] }> {
  const result = resultOf(record);
  const ids = (record.kind === 'checks' ? result.checkIds : result.payeeIds).slice(0, limit);
  return record.kind === 'checks'
    ? { checks: await checkStore.findChecks(ctx.db, owner, ids), payees: new Map(), ids }
    : { checks: new Map(), payees: await payeeStore.findPayees(ctx.db, owner, ids), ids };
}

export function errorsOf(record: ImportRecord): RowError[] {
  return JSON.parse(record.errors) as RowError[];
}

/** The row of a chunk's error ("The checks.3.serialNumber ..." names the 4th item of the chunk). */
function rowOfChunkError(message: string, rowsOfChunk: readonly number[]): number {
  const match = /\b(?:checks|payees)\.(\d+)\./.exec(message);
  return match === null ? 0 : (rowsOfChunk[Number(match[1])] ?? 0);
}

async function writeChecks(
  ctx: ServiceContext,
  principal: Principal,
  input: ImportInput,
  progress: (done: number) => void,
): Promise<ImportResult> {
  const createdPayeeIds: string[] = [];
  const newPayeeIds = new Map<string, string>();
  for (let at = 0; at < input.newPayees.length; at += CHUNK) {
    const made = await createPayees(
      ctx,
      principal,
      input.newPayees.slice(at, at + CHUNK).map((name) => ({ name })),
    );
    for (const payee of made) {
      newPayeeIds.set(payee.name, payee.id);
      createdPayeeIds.push(payee.id);
    }
  }
  // Rows with their own check numbers go first: each batch moves the bank account's counter above
  // its numbers, so the numbers given to the other rows afterwards cannot meet them.
  const ordered = [
    ...input.checks.filter((p) => p.item.serialNumber !== undefined),
    ...input.checks.filter((p) => p.item.serialNumber === undefined),
  ];
  const checkIds = new Array<string>(input.checks.length).fill('');
  let done = 0;
  for (let at = 0; at < ordered.length; at += CHUNK) {
    const chunk = ordered.slice(at, at + CHUNK);
    const items = chunk.map((p) =>
      p.newPayee === null ? p.item : { ...p.item, payeeId: newPayeeIds.get(p.newPayee) ?? '' },
    );
    try {
      const created = await createChecks(ctx, principal, items);
      created.forEach((c, i) => {
        checkIds[(chunk[i]?.row ?? 1) - 1] = c.checkId;
      });
    } catch (error) {
      if (error instanceof AppError)
        throw new RowFailure(
          rowOfChunkError(
            error.message,
            chunk.map((p) => p.row),
          ),
          error,
        );
      throw error;
    }
    done += chunk.length;
    progress(done);
  }
  return { checkIds, payeeIds: [], createdPayeeIds };
}

async function writePayees(
  ctx: ServiceContext,
  owner: Owner,
  input: ImportInput,
  progress: (done: number) => void,
): Promise<ImportResult> {
  const payeeIds: string[] = [];
  for (let at = 0; at < input.payees.length; at += CHUNK) {
    try {
      for (const payee of await createPayees(ctx, owner, input.payees.slice(at, at + CHUNK))) payeeIds.push(payee.id);
    } catch (error) {
      if (error instanceof AppError)
        throw new RowFailure(
          rowOfChunkError(
            error.message,
            input.payees.slice(at, at + CHUNK).map((_, i) => at + i + 1),
          ),
          error,
        );
      throw error;
    }
    progress(payeeIds.length);
  }
  return { checkIds: [], payeeIds, createdPayeeIds: [] };
}

/** A rule refused a row while writing (something changed since the preview): the import fails whole. */
class RowFailure extends Error {
  constructor(
    readonly row: number,
    readonly refusal: AppError,
  ) {
    super(refusal.message);
  }
}

/**
 * Writes a queued (or interrupted) import in one transaction: succeeded with what it made, or
 * failed with why and nothing made. Returns the import as it ended, or undefined when there was
 * nothing to do (finished already, or another process holds it).
 */
export async function runImport(
  ctx: ServiceContext,
  id: string,
  progress: (done: number) => void = () => undefined,
): Promise<ImportRecord | undefined> {
  await importStore.markRunning(ctx.db, id, ctx.now());
  let owner: Owner | null = null;
  try {
    const ran = await transactionJoinedByCalls(ctx.db, async (tx) => {
      const record = await importStore.claimImport(tx, id);
      if (record === undefined) return false;
      owner = { accountId: record.accountId, env: record.env };
      const input = JSON.parse(record.input) as ImportInput;
      const principal: Principal = { ...owner, keyId: '', timeZone: input.timeZone };
      const result =
        input.kind === 'checks'
          ? await writeChecks(ctx, principal, input, progress)
          : await writePayees(ctx, principal, input, progress);
      await importStore.finishImport(tx, id, 'succeeded', record.rowsTotal, '[]', JSON.stringify(result), ctx.now());
      return true;
    });
    if (!ran) return undefined;
  } catch (error) {
    let failure: RowError[];
    if (!(error instanceof RowFailure)) {
      const record = await importStore.claimImport(ctx.db, id);
      if (record === undefined || record.attempts < MAX_ATTEMPTS) throw error;
      failure = [
        {
          row: 0,
          line: 0,
          messages: ['The import could not be written (a server error); nothing was imported. Try again.'],
        },
      ];
    } else {
      const record = await importStore.claimImport(ctx.db, id);
      const lines = record === undefined ? [] : (JSON.parse(record.input) as ImportInput).lines;
      failure = [{ row: error.row, line: lines[error.row - 1] ?? 0, messages: [rowMessage(error.refusal.message)] }];
    }
    await importStore.finishImport(
      ctx.db,
      id,
      'failed',
      0,
      JSON.stringify(failure),
      JSON.stringify(EMPTY_RESULT),
      ctx.now(),
    );
  }
  const ended = await importStore.claimImport(ctx.db, id);
  if (ended !== undefined) return ended;
  return owner === null ? undefined : importStore.findImport(ctx.db, owner, id);
}

export interface RunnerLog {
  error(entry: object, message: string): void;
}

const runners = new WeakMap<object, ImportRunner>();

/** The runner of this database's server, to wake it when an import is queued. */
export function importRunner(ctx: ServiceContext): ImportRunner | undefined {
  return runners.get(ctx.db);
}

/**
 * Runs queued imports in the background of a server, one at a time: at start (so an import a
 * stopped process left is done again), when woken (a new import), and every few seconds (imports
 * queued by another process). Progress of the running import is kept in memory: its own
 * transaction's counts are not visible to other connections until it commits.
 */
export class ImportRunner {
  private readonly progress = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  // Bound here, outside any request: a drain woken by a request must not join its transaction.
  private readonly drainOutside = AsyncResource.bind(() => this.drain());
  /** When stale drafts were last deleted (ctx.now() time): at most once per DRAFT_SWEEP_MS. */
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly log: RunnerLog,
    private readonly pollMs = 5_000,
  ) {}

  start(): void {
    runners.set(this.ctx.db, this);
    this.wake();
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
  }

  /** Looks for work now (or right after the current import). */
  wake(): void {
    if (this.stopped) return;
    if (this.draining !== null) {
      this.again = true;
      return;
    }
    this.draining = this.drainOutside().finally(() => {
      this.draining = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  progressOf(id: string): number | undefined {
    return this.progress.get(id);
  }

  /** Stops looking for work and waits for the running import's transaction to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    if (runners.get(this.ctx.db) === this) runners.delete(this.ctx.db);
    await this.draining;
  }

  private async drain(): Promise<void> {
    await this.sweepDrafts();
    try {
      for (;;) {
        if (this.stopped) return;
        const ids = await importStore.unfinishedImportIds(this.ctx.db, 5);
        let ran = false;
        for (const id of ids) {
          if (this.stopped) return;
          this.progress.set(id, 0);
          try {
            ran = (await runImport(this.ctx, id, (done) => this.progress.set(id, done))) !== undefined || ran;
          } finally {
            this.progress.delete(id);
          }
        }
        if (!ran) return;
      }
    } catch (error) {
      this.log.error({ err: error }, 'import runner: an import could not be run; it is tried again later');
    }
  }

  /**
   * Deletes drafts nobody confirmed within DRAFT_TTL_MS; one statement, at most hourly. A failure
   * is logged on its own and tried again an hour later: it must not keep queued imports waiting.
   */
  private async sweepDrafts(): Promise<void> {
    const now = this.ctx.now();
    if (now - this.sweptAt < DRAFT_SWEEP_MS) return;
    this.sweptAt = now;
    try {
      await importStore.deleteDraftsBefore(this.ctx.db, now - DRAFT_TTL_MS);
    } catch (error) {
      this.log.error({ err: error }, 'import runner: old drafts could not be deleted; tried again in an hour');
    }
  }
}

// An import's preview: the file read and checked row by row
// (read-import-file.ts, pure), then what needs the account's data — payee and category names, the
// services' rules (createChecks/createPayees would apply the same) — and every row's errors. Only a
// file without a single error is accepted: stored as the API requests it will make, then written
// by the runner (runner.service.ts) in one transaction.
import type { ColumnMapping, ImportField, ImportKind, PayeeRow } from '../../domain/import-columns.ts';
import { newId } from '../../domain/ids.ts';
import type { Owner, Principal } from '../../domain/owner.ts';
import { AppError, validationError } from '../../errors.ts';
import type { CheckInput as CheckRequest } from '../../schemas/checks.ts';
import * as categoryStore from '../../store/categories.repository.ts';
import type { ImportRecord } from '../../domain/import-record.ts';
import * as importStore from '../../store/imports.repository.ts';
import * as payeeStore from '../../store/payees.repository.ts';
import { validateChecks } from '../checks/write.service.ts';
import type { ServiceContext } from '../context.ts';
import { validatePayees } from '../payee.service.ts';
import { recordStart } from './records.service.ts';
import { yieldToLoop } from '../yield-to-loop.ts';
import {
  type CheckPlan,
  EMPTY_RESULT,
  type ImportInput,
  type ImportOptions,
  type RowError,
  rowMessage,
} from './model.ts';
import type { CheckRow, ImportFile } from '../../formats/imports/read-import-file.ts';

/** Rows per lookup of payee names: no statement binds too many values. */
const LOOKUP_CHUNK = 500;
/** A name from the file as a message quotes it: cut, so a long cell cannot make every message long. */
const QUOTED_NAME_CHARS = 60;
/** Rows' errors listed in an answer (the API's dry run, the panel's preview); the count says how many in all. */
export const MAX_LISTED_ROW_ERRORS = 1_000;

export interface Preview {
  kind: ImportKind;
  header: string[];
  mapping: ColumnMapping;
  rowsTotal: number;
  /** Every row's errors, in row order (bounded by the file's rows; lists shown are cut further). */
  errors: RowError[];
  newPayees: string[];
  sample: Partial<Record<ImportField, string>>[];
  /** Every row's cells by field (row i+1 at index i): what the panel quotes beside a row's error. */
  cells: Partial<Record<ImportField, string>>[];
  input: ImportInput;
  /** The known export the file is (a recognised layout needs no mapping), or null. */
  layout: ImportFile['layout'];
  headerLine: number;
  moneyOut: ImportFile['moneyOut'];
  /** Lines not taken as rows, each with why: the preview lists them. */
  leftOut: ImportFile['leftOut'];
}

const quoted = (name: string): string =>
  name.length > QUOTED_NAME_CHARS ? `"${name.slice(0, QUOTED_NAME_CHARS)}…"` : `"${name}"`;

/** Each row's messages, once each, in the order they were found. */
class RowMessages {
  private readonly byRow = new Map<number, string[]>();
  add(index: number, message: string): void {
    const list = this.byRow.get(index) ?? [];
    if (!list.includes(message)) list.push(message);
    this.byRow.set(index, list);
  }
  ok(index: number): boolean {
    return !this.byRow.has(index);
  }
  /** The fields a row's messages name ("The amount field …" -> amount). */
  fields(index: number): Set<string> {
    return new Set((this.byRow.get(index) ?? []).map(fieldOfMessage).filter((f): f is string => f !== null));
  }
  list(lines: readonly number[]): RowError[] {
    return [...this.byRow.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, messages]) => ({ row: i + 1, line: lines[i] ?? 0, messages }));
  }
}

/** The field a row's message names: "The issueDate field …", "The selected categoryId …", "The payee "x" …". */
export function fieldOfMessage(message: string): string | null {
  const path = /^The (?:selected )?([A-Za-z][A-Za-z0-9]*)\b/.exec(message)?.[1] ?? null;
  if (path === 'payee') return 'payeeId';
  if (path === 'category') return 'categoryId';
  return path;
}

/**
 * A check request without the fields that already have an error, so the services' rules can judge
 * the rest: a field left out that is required gets a stand-in the rules pass. Null when a field in
 * error cannot be left out (a check needs its bank account): the rules would only repeat it.
 */
function withoutFieldsInError(item: CheckRequest, fields: ReadonlySet<string>): CheckRequest | null {
  const rest: Record<string, unknown> = { ...item };
  for (const field of fields) {
    if (field === 'bankAccountId') return null;
    delete rest[field];
    if (field === 'payeeId') rest.noPayee = true;
    if (field === 'amount') rest.amount = '1.00';
  }
  return rest as unknown as CheckRequest;
}

/** Rows between two pauses of the event loop: in one turn, a 10,000-row file held every request. */
const ROWS_PER_TURN = 500;

/** Passes of the services' rules at most: each pass can only add an error on a field not yet in error. */
const RULE_PASSES = 4;

/**
 * The services' rules (createChecks would apply the same) on every row, so that a row shows every
 * error it has (docs/imports.md), not only the first one found: the rules stop at a row's first
 * error, so a row that gets one is judged again without that field, up to RULE_PASSES times.
 */
async function serviceRules(ctx: ServiceContext, principal: Principal, plans: CheckPlan[], rows: RowMessages) {
  let judged = plans.map((_, i) => i);
  for (let pass = 0; pass < RULE_PASSES && judged.length > 0; pass++) {
    const items: { i: number; item: CheckRequest }[] = [];
    for (const [n, i] of judged.entries()) {
      if (n % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToLoop();
      const plan = plans[i];
      if (plan === undefined) continue;
      // A check whose payee the import will create is checked as if it had none: the payee is new.
      const own = plan.newPayee === null ? plan.item : { ...plan.item, noPayee: true };
      const item = withoutFieldsInError(own, rows.fields(i));
      if (item !== null) items.push({ i, item });
    }
    const gained = new Set<number>();
    await validateChecks(
      ctx,
      principal,
      items.map((x) => x.item),
      (index, error) => {
        const i = items[index]?.i;
        if (i === undefined) return;
        const message = rowMessage(error.message);
        const field = fieldOfMessage(message);
        if (field !== null && rows.fields(i).has(field)) return;
        rows.add(i, message);
        gained.add(i);
      },
    );
    judged = [...gained];
  }
}

/** Names -> the payees of that name, read in slices. */
async function payeesByName(ctx: ServiceContext, owner: Owner, names: readonly string[]) {
  const found = new Map<string, string[]>();
  for (let at = 0; at < names.length; at += LOOKUP_CHUNK) {
    for (const payee of await payeeStore.findPayeesByName(ctx.db, owner, names.slice(at, at + LOOKUP_CHUNK))) {
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

async function planChecks(
  ctx: ServiceContext,
  principal: Principal,
  options: ImportOptions,
  file: ImportFile,
  rows: RowMessages,
): Promise<{ plans: CheckPlan[]; newPayees: string[] }> {
  const built: CheckRow[] = file.checks;
  const names = [...new Set(built.map((b) => b.payeeName).filter((n): n is string => n !== null))];
  const known = await payeesByName(ctx, principal, names);
  const categories = built.some((b) => b.categoryName !== null) ? await categoriesByName(ctx, principal) : new Map();
  const newPayees = new Set<string>();
  const plans: CheckPlan[] = [];
  for (const [i, b] of built.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToLoop();
    for (const message of file.cellErrors[i] ?? []) rows.add(i, message);
    let newPayee: string | null = null;
    if (b.payeeName !== null) {
      const ids = known.get(b.payeeName) ?? [];
      if (ids.length === 1) b.item.payeeId = ids[0];
      else if (ids.length > 1)
        rows.add(
          i,
          `The payee ${quoted(b.payeeName)} matches ${ids.length} payees: give the payee's id (pay_…) in place of the name.`,
        );
      else if (options.createPayees === true) {
        newPayee = b.payeeName;
        newPayees.add(b.payeeName);
      } else
        rows.add(
          i,
          `The payee ${quoted(b.payeeName)} is not one of your payees: add it, import payees first, or choose to create unknown payees.`,
        );
    }
    if (b.categoryName !== null) {
      const ids = categories.get(b.categoryName.toLowerCase()) ?? [];
      if (ids.length === 1) b.item.categoryId = ids[0];
      else
        rows.add(
          i,
          `The category ${quoted(b.categoryName)} ${ids.length === 0 ? 'is not one of your categories' : 'names several categories: give its id'}.`,
        );
    }
    for (const message of file.schemaErrors[i] ?? []) rows.add(i, message);
    plans.push({ row: i + 1, item: b.item as CheckRequest, newPayee });
  }
  await serviceRules(ctx, principal, plans, rows);
  return { plans, newPayees: [...newPayees] };
}

function planPayees(file: ImportFile, rows: RowMessages): PayeeRow[] {
  file.payees.forEach((_, i) => {
    for (const message of file.cellErrors[i] ?? []) rows.add(i, message);
    for (const message of file.schemaErrors[i] ?? []) rows.add(i, message);
  });
  // Every row's phone, unless the phone already has an error: a row shows every error it has.
  const passing = file.payees.map((item, i) => ({ item, i })).filter(({ i }) => !rows.fields(i).has('phone'));
  validatePayees(
    passing.map((p) => p.item),
    (index, error) => rows.add(passing[index]?.i ?? 0, rowMessage(error.message)),
  );
  return file.payees;
}

/**
 * The file read within its bounds, or the 413/422 that says why not. The reading (csv-parse, the
 * mapping, the request schema on every row) is heavy work: a worker thread in the server.
 */
export async function readFileOrRefuse(
  ctx: Pick<ServiceContext, 'heavyWork'>,
  owner: Owner,
  options: ImportOptions,
): Promise<ImportFile> {
  const read = await ctx.heavyWork.run(
    'read-import-file',
    {
      csv: options.csv,
      request: {
        kind: options.kind,
        ...(options.mapping === undefined ? {} : { mapping: options.mapping }),
        ...(options.bankAccountId === undefined ? {} : { bankAccountId: options.bankAccountId }),
        ...(options.dateOrder === undefined ? {} : { dateOrder: options.dateOrder }),
        ...(options.moneyOut === undefined ? {} : { moneyOut: options.moneyOut }),
      },
    },
    { owner },
  );
  if (!read.ok) throw new AppError(read.refusal.code, read.refusal.message);
  return read.file;
}

/** Reads, maps and checks a file without writing anything: every row's errors. */
export async function previewImport(
  ctx: ServiceContext,
  principal: Principal,
  options: ImportOptions,
): Promise<Preview> {
  const file = await readFileOrRefuse(ctx, principal, options);
  const rows = new RowMessages();
  const input: ImportInput = {
    kind: options.kind,
    timeZone: principal.timeZone,
    lines: file.lines,
    checks: [],
    payees: [],
    newPayees: [],
    actor: principal.actor,
    keyId: principal.keyId,
  };
  if (options.kind === 'checks') {
    const { plans, newPayees } = await planChecks(ctx, principal, options, file, rows);
    input.checks = plans;
    input.newPayees = newPayees;
  } else input.payees = planPayees(file, rows);
  return {
    kind: options.kind,
    header: file.header,
    mapping: file.mapping,
    rowsTotal: file.lines.length,
    errors: rows.list(file.lines),
    newPayees: input.newPayees,
    sample: file.sample,
    cells: file.cells,
    input,
    layout: file.layout,
    headerLine: file.headerLine,
    moneyOut: file.moneyOut,
    leftOut: file.leftOut,
  };
}

/** SHOWN_IN_MESSAGE rows' errors go in the API's errorMsg; a dry run lists more. */
const SHOWN_IN_MESSAGE = 20;

/** The refusal of a file with errors, in the API's one-message error body. */
export function refusal(errors: readonly RowError[]): AppError {
  const shown = errors
    .slice(0, SHOWN_IN_MESSAGE)
    .map((e) => `Row ${e.row} (line ${e.line}): ${e.messages.join(' ')}`)
    .join(' ');
  const more =
    errors.length > SHOWN_IN_MESSAGE
      ? ` And ${errors.length - SHOWN_IN_MESSAGE} more rows: send the file with dryRun true for the rows' errors.`
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

/** A new row of the imports table: a draft (a panel upload) or a queued import. */
export function newRecord(
  owner: Owner,
  options: Pick<ImportOptions, 'kind' | 'fileName'>,
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

/** An accepted import, with the known export its file was read as (the command line says which). */
export type StartedImport = ImportRecord & { readonly layout: Preview['layout'] };

/**
 * Accepts a file: checked whole (ImportRefused lists every row's errors; nothing is stored), then
 * stored as queued. The writing happens in the background (ImportRunner) or by `runImport`.
 */
export async function startImport(
  ctx: ServiceContext,
  principal: Principal,
  options: ImportOptions,
): Promise<StartedImport> {
  const preview = await previewImport(ctx, principal, options);
  if (preview.errors.length > 0) throw new ImportRefused(preview.errors);
  const record = newRecord(principal, options, 'queued', JSON.stringify(preview.input), preview.rowsTotal, ctx.now());
  // The rows' text (a few MB for 10,000 rows) and storing it, each in a turn of the loop of its own.
  await yieldToLoop();
  await ctx.db.transaction(async (tx) => {
    await importStore.insertImport(tx, record);
    await recordStart(tx, principal, record.id, options.kind, preview.rowsTotal, ctx.now());
  });
  return { ...record, layout: preview.layout };
}

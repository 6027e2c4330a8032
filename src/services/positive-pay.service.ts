// Positive pay exports: which checks go in, the file, and the record of the
// export. The API, the panel and the command line all come here; docs/positive-pay.md explains
// the choices.
import { principalIn, record as recordAudit } from './audit.service.ts';
import { changesBetween } from '../domain/audit.ts';
import { systemActor } from '../domain/actor.ts';
import { issueDateProblem, localMoment, today } from '../domain/dates.ts';
import { newId } from '../domain/ids.ts';
import type { Owner } from '../domain/owner.ts';
import type { Paged } from '../domain/paging.ts';
import {
  daysInRange,
  MAX_EXPORT_RECORDS,
  MAX_RANGE_DAYS,
  type PositivePayFile,
  type PositivePayFormat,
  type PositivePayRecord,
} from '../domain/positive-pay.ts';
import { AppError, notFound, validationError } from '../errors.ts';
import * as bankAccountStore from '../store/bank-accounts.repository.ts';
import type { Page } from '../store/owned-queries.ts';
import * as store from '../store/positive-pay.repository.ts';
import { accountNumberOf } from './bank-account.service.ts';
import { layoutNamed, layoutOfBankAccount } from './positive-pay-layouts.service.ts';
import type { ServiceContext } from './context.ts';
import { rules } from './validation.ts';

export type { PositivePayExport } from '../store/positive-pay.repository.ts';

export interface ExportRequest {
  bankAccountId: string;
  from: string;
  to: string;
  format: PositivePayFormat;
}

/** Who asked: an API key, the signed-in owner in the panel, or the operator's command line. */
export interface ExportActor {
  via: 'api' | 'panel' | 'cli';
  /** The API key id; the account's email for the panel and the command line. */
  id: string;
}

export interface ExportResult {
  record: store.PositivePayExport;
  file: PositivePayFile;
}

const DAY_MS = 86_400_000;

/**
 * The range's own rules, with the field names the API and the panel show next to the fields. Both
 * ends lie where a check's date can (2000 to a year after `day`, today in the account's zone).
 */
export function checkRange(from: string, to: string, day: string): void {
  for (const [field, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    const problem = issueDateProblem(value, day);
    if (problem !== null) throw rules.custom(field, problem);
  }
  if (to < from) throw rules.custom('to', 'must be a date after or equal to from');
  if (daysInRange(from, to) > MAX_RANGE_DAYS)
    throw rules.custom(
      'to',
      `must be at most ${MAX_RANGE_DAYS - 1} days after from (a range of at most ${MAX_RANGE_DAYS} days)`,
    );
}

/** Check numbers in numeric order (they are digit strings, possibly with leading zeros). */
function bySerial(a: store.ExportCandidate, b: store.ExportCandidate): number {
  const x = a.serialNumber.replace(/^0+/, '');
  const y = b.serialNumber.replace(/^0+/, '');
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}

/**
 * The records of an export: issued checks dated in the range (the date printed on the check), then
 * voids whose void falls in the range as a date in the account's time zone (the same date the
 * check's `checkStatements` show). Refused (422) past MAX_EXPORT_RECORDS.
 */
export async function exportRecords(
  ctx: ServiceContext,
  owner: Owner,
  timeZone: string,
  request: Omit<ExportRequest, 'format'>,
): Promise<PositivePayRecord[]> {
  const { bankAccountId, from, to } = request;
  const issued = await store.issuedChecks(ctx.db, owner, bankAccountId, from, to, MAX_EXPORT_RECORDS + 1);
  // A day in any time zone lies within a day either side of the same UTC day.
  const windowStart = Date.parse(`${from}T00:00:00Z`) - DAY_MS;
  const windowEnd = Date.parse(`${to}T00:00:00Z`) + 2 * DAY_MS;
  const windowLimit = 3 * MAX_EXPORT_RECORDS;
  const inWindow = await store.voidedChecks(ctx.db, owner, bankAccountId, windowStart, windowEnd, windowLimit);
  const voided = inWindow.filter((v) => {
    const day = localMoment(v.voidedAt, timeZone).date;
    return day >= from && day <= to;
  });
  if (issued.length + voided.length > MAX_EXPORT_RECORDS || inWindow.length >= windowLimit)
    throw validationError(
      `The range holds more than ${MAX_EXPORT_RECORDS} checks for one file; export a shorter range (the to field).`,
    );
  issued.sort((a, b) => (a.issueDate < b.issueDate ? -1 : a.issueDate > b.issueDate ? 1 : bySerial(a, b)));
  voided.sort(bySerial);
  return [
    ...issued.map((c): PositivePayRecord => ({ kind: 'I', ...c })),
    ...voided.map(({ voidedAt: _at, ...c }): PositivePayRecord => ({ kind: 'V', ...c })),
  ];
}

/**
 * Makes the file and records the export, in one transaction: an export that failed left no record,
 * and a recorded one has exactly the counts and totals of the file it answered with.
 */
export async function createExport(
  ctx: ServiceContext,
  owner: Owner,
  timeZone: string,
  actor: ExportActor,
  request: ExportRequest,
): Promise<ExportResult> {
  // The day the file is written, in the company's zone: the range's bound and a layout's file date.
  const fileDate = today(timeZone, ctx.now());
  checkRange(request.from, request.to, fileDate);
  const bank = await bankAccountStore.findBankAccount(ctx.db, owner, request.bankAccountId);
  if (bank === undefined) throw notFound('Bank account');
  // `bank`: the layout chosen on the bank account; `csv` and `fixed` stay the presets they were.
  const layout =
    request.format === 'bank'
      ? await layoutOfBankAccount(ctx, owner, bank.id)
      : await layoutNamed(ctx, owner, request.format);
  if (layout === null || layout === undefined)
    throw rules.custom(
      'format',
      'is bank, but this bank account has no positive pay layout chosen; choose one on its page, or ask for csv or fixed',
    );
  const records = await exportRecords(ctx, owner, timeZone, request);
  // Up to 20,000 records to text and a digest: heavy work, off the event loop in the server.
  const written = await ctx.heavyWork.run(
    'positive-pay-file',
    {
      layout,
      accountNumber: accountNumberOf(ctx, bank),
      routingNumber: bank.routingNumber,
      records,
      baseName: `positive-pay-${bank.id}-${request.from}-${request.to}`,
      fileDate,
    },
    { owner },
  );
  if ('refused' in written)
    throw rules.custom(
      'format',
      `names the layout "${layout.title}", which cannot hold this bank account's checks: ${written.refused}; widen that field of the layout`,
    );
  const { file, sha256, bytes } = written;
  const sum = (kind: 'I' | 'V') =>
    records.filter((r) => r.kind === kind).reduce((total, r) => total + r.amountCents, 0);
  const now = ctx.now();
  const record: store.PositivePayExport = {
    id: newId('ppx', now),
    bankAccountId: bank.id,
    from: request.from,
    to: request.to,
    // The layout actually written: a preset's name or a custom layout's id.
    format: layout.name,
    issuedCount: records.filter((r) => r.kind === 'I').length,
    issuedTotalCents: sum('I'),
    voidCount: records.filter((r) => r.kind === 'V').length,
    voidTotalCents: sum('V'),
    fileSha256: sha256,
    fileBytes: bytes,
    createdVia: actor.via,
    createdBy: actor.id,
    createdAt: now,
  };
  await ctx.db.transaction(async (tx) => {
    await store.insertExport(tx, owner, record);
    await recordAudit(
      tx,
      principalIn(owner) ?? { ...owner, actor: systemActor(`positive pay, ${actor.via}`) },
      [
        {
          action: 'positive-pay.export',
          objectType: 'bank-account',
          objectId: bank.id,
          changes: changesBetween(null, { ...record, exportId: record.id }, [
            'exportId',
            'from',
            'to',
            'format',
            'issuedCount',
            'issuedTotalCents',
            'voidCount',
            'voidTotalCents',
            'fileSha256',
          ]),
        },
      ],
      now,
    );
  });
  return { record, file };
}

export async function getExport(ctx: ServiceContext, owner: Owner, id: string): Promise<store.PositivePayExport> {
  const found = await store.findExport(ctx.db, owner, id);
  if (found === undefined) throw notFoundExport();
  return found;
}

export function listExports(ctx: ServiceContext, owner: Owner, page: Page): Promise<Paged<store.PositivePayExport>> {
  return store.listExports(ctx.db, owner, page);
}

function notFoundExport(): AppError {
  return new AppError('not_found', 'Positive pay export not found.');
}

// Custom positive pay layouts (typed in from a bank's spec sheet in the panel) and the layout each
// bank account chose. A layout is checked by `layoutProblems` before it is stored, so a stored one
// always writes; the export (positive-pay.service.ts) reads the chosen one for `format: 'bank'`.
import { recordFor } from './audit.service.ts';
import { changesBetween } from '../domain/audit.ts';
import { newId } from '../domain/ids.ts';
import type { Owner } from '../domain/owner.ts';
import type { PositivePayRecord } from '../domain/positive-pay.ts';
import { AppError, notFound } from '../errors.ts';
import { parseFieldLines } from '../formats/positive-pay-layouts/field-lines.ts';
import type { LayoutField, PositivePayLayout, RecordKind } from '../formats/positive-pay-layouts/layout.ts';
import { PRESETS, presetNamed } from '../formats/positive-pay-layouts/presets.ts';
import { layoutProblems } from '../formats/positive-pay-layouts/validate.ts';
import { writePositivePay } from '../formats/positive-pay-layouts/writer.ts';
import * as bankAccountStore from '../store/bank-accounts.repository.ts';
import * as store from '../store/positive-pay-layouts.repository.ts';
import type { ServiceContext } from './context.ts';

/** The panel form, as text. Field lists use the syntax of formats/positive-pay-layouts/field-lines.ts. */
export interface LayoutForm {
  name: string;
  /** `fixed`, or the delimiter of a delimited file: `comma`, `pipe`, `tab`, `semicolon`. */
  record: string;
  issueCode: string;
  voidCode: string;
  header: string;
  detail: string;
  trailer: string;
}

/** Where on the form a problem belongs. */
export type LayoutPlace = keyof LayoutForm;

export interface PlacedProblem {
  place: LayoutPlace;
  message: string;
}

export const RECORD_CHOICES: Readonly<Record<string, RecordKind>> = {
  fixed: { kind: 'fixed' },
  comma: { kind: 'delimited', delimiter: ',' },
  pipe: { kind: 'delimited', delimiter: '|' },
  tab: { kind: 'delimited', delimiter: '\t' },
  semicolon: { kind: 'delimited', delimiter: ';' },
};

export const MAX_NAME_LENGTH = 100;

export interface CustomLayout {
  id: string;
  name: string;
  layout: PositivePayLayout;
  createdBy: string;
  createdAt: number;
}

/** The layout the form describes, or the problems, each at its place on the form. */
export function layoutOfForm(form: LayoutForm): { layout: PositivePayLayout | null; problems: PlacedProblem[] } {
  const problems: PlacedProblem[] = [];
  const name = form.name.trim();
  if (name === '' || name.length > MAX_NAME_LENGTH)
    problems.push({ place: 'name', message: `Give the layout a name of 1 to ${MAX_NAME_LENGTH} characters.` });
  const record = RECORD_CHOICES[form.record];
  if (record === undefined) problems.push({ place: 'record', message: 'Choose fixed width or a delimiter.' });
  const parts: Partial<Record<'header' | 'detail' | 'trailer', { fields: LayoutField[]; lines: number[] }>> = {};
  for (const place of ['header', 'detail', 'trailer'] as const) {
    const text = form[place];
    if (place !== 'detail' && text.trim() === '') continue;
    const parsed = parseFieldLines(text);
    for (const p of parsed.problems) problems.push({ place, message: `Field ${p.line}: ${p.message}.` });
    parts[place] = parsed;
  }
  if (problems.length > 0 || record === undefined) return { layout: null, problems };
  const fixed = record.kind === 'fixed';
  const layout: PositivePayLayout = {
    name: '',
    title: name,
    record,
    codes: { issue: form.issueCode, void: form.voidCode },
    ...(parts.header === undefined ? {} : { header: parts.header.fields }),
    detail: parts.detail?.fields ?? [],
    ...(parts.trailer === undefined ? {} : { trailer: parts.trailer.fields }),
    lineEnding: '\r\n',
    // Fixed-width files go to a bank's mainframe (ASCII capitals); delimited ones are UTF-8.
    text: fixed ? 'asciiUpper' : 'asIs',
    extension: fixed ? 'txt' : 'csv',
    contentType: fixed ? 'text/plain; charset=us-ascii' : 'text/csv; charset=utf-8',
  };
  for (const p of layoutProblems(layout)) {
    const at = /^(header|detail|trailer)(?:\[(\d+)\])?$/.exec(p.path);
    if (at === null) {
      const place: LayoutPlace = p.path === 'codes.void' ? 'voidCode' : 'issueCode';
      const message =
        p.path === 'codes' ? `${p.message.charAt(0).toUpperCase()}${p.message.slice(1)}` : `The code ${p.message}`;
      problems.push({ place, message: `${message}.` });
      continue;
    }
    const place = at[1] as 'header' | 'detail' | 'trailer';
    const line = at[2] === undefined ? undefined : parts[place]?.lines[Number(at[2])];
    const where = line === undefined ? 'The record' : `Field ${line}:`;
    problems.push({ place, message: `${where} ${p.message}.` });
  }
  return { layout: problems.length === 0 ? layout : null, problems };
}

function toCustom(stored: store.StoredLayout): CustomLayout {
  const layout = JSON.parse(stored.layout) as PositivePayLayout;
  return { ...stored, layout: { ...layout, name: stored.id, title: stored.name } };
}

export async function listLayouts(ctx: ServiceContext, owner: Owner): Promise<CustomLayout[]> {
  return (await store.listLayouts(ctx.db, owner.accountId)).map(toCustom);
}

/** Stores the form's layout, or answers its problems and stores nothing. */
export async function createLayout(
  ctx: ServiceContext,
  owner: Owner,
  by: string,
  form: LayoutForm,
): Promise<{ id: string } | { problems: PlacedProblem[] }> {
  const { layout, problems } = layoutOfForm(form);
  if (layout === null) return { problems };
  const now = ctx.now();
  const stored: store.StoredLayout = {
    id: newId('ppl', now),
    name: form.name.trim(),
    layout: JSON.stringify(layout),
    createdBy: by,
    createdAt: now,
  };
  return ctx.db.transaction(async (tx) => {
    if ((await store.countLayouts(tx, owner.accountId)) >= store.MAX_LAYOUTS)
      return {
        problems: [
          { place: 'name', message: `A company keeps at most ${store.MAX_LAYOUTS} layouts; delete one first.` },
        ],
      };
    await store.insertLayout(tx, owner.accountId, stored);
    await recordFor(
      tx,
      owner,
      [
        {
          action: 'positive-pay-layout.create',
          objectType: 'positive-pay-layout',
          objectId: stored.id,
          changes: changesBetween(null, stored, ['name', 'layout']),
        },
      ],
      now,
    );
    return { id: stored.id };
  });
}

export async function deleteLayout(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    if ((await store.deleteLayout(tx, owner.accountId, id)) === 0)
      throw new AppError('not_found', 'Positive pay layout not found.');
    await recordFor(
      tx,
      owner,
      [{ action: 'positive-pay-layout.delete', objectType: 'positive-pay-layout', objectId: id }],
      now,
    );
  });
}

/** Presets first, then the company's own layouts: what a bank account may choose. */
export async function layoutChoices(ctx: ServiceContext, owner: Owner): Promise<{ value: string; label: string }[]> {
  const custom = await listLayouts(ctx, owner);
  return [
    ...PRESETS.map((p) => ({ value: p.name, label: p.title })),
    ...custom.map((c) => ({ value: c.id, label: `${c.name} (custom)` })),
  ];
}

/** The layout named by a preset name or one of the company's custom layout ids. */
export async function layoutNamed(
  ctx: ServiceContext,
  owner: Owner,
  name: string,
): Promise<PositivePayLayout | undefined> {
  const preset = presetNamed(name);
  if (preset !== undefined) return preset;
  const stored = await store.findLayout(ctx.db, owner.accountId, name);
  return stored === undefined ? undefined : toCustom(stored).layout;
}

/** Sets (or with '' clears) the layout of a bank account's positive pay files. */
export async function chooseLayout(
  ctx: ServiceContext,
  owner: Owner,
  bankAccountId: string,
  choice: string,
): Promise<void> {
  if (choice !== '' && (await layoutNamed(ctx, owner, choice)) === undefined)
    throw new AppError('validation', 'The positivePayLayout field must be one of the layouts offered.');
  const bank = await bankAccountStore.findBankAccount(ctx.db, owner, bankAccountId);
  if (bank === undefined) throw notFound('Bank account');
  const before = await store.chosenLayout(ctx.db, owner, bankAccountId);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await store.chooseLayout(tx, owner, bankAccountId, choice === '' ? null : choice);
    await recordFor(
      tx,
      owner,
      [
        {
          action: 'bank-account.positive-pay-layout',
          objectType: 'bank-account',
          objectId: bankAccountId,
          changes: changesBetween({ positivePayLayout: before }, { positivePayLayout: choice === '' ? null : choice }, [
            'positivePayLayout',
          ]),
        },
      ],
      now,
    );
  });
}

/** The name stored on a bank account (a preset name, a custom layout id), or null. */
export function chosenLayoutName(ctx: ServiceContext, owner: Owner, bankAccountId: string): Promise<string | null> {
  return store.chosenLayout(ctx.db, owner, bankAccountId);
}

/** The layout a bank account's files are written in, or null when none was chosen. */
export async function layoutOfBankAccount(
  ctx: ServiceContext,
  owner: Owner,
  bankAccountId: string,
): Promise<PositivePayLayout | null> {
  const chosen = await store.chosenLayout(ctx.db, owner, bankAccountId);
  if (chosen === null) return null;
  return (await layoutNamed(ctx, owner, chosen)) ?? null;
}

/** A made-up check and account, to show what the layout writes before a real file goes out. */
export const SAMPLE_ACCOUNT = { accountNumber: '123456789', routingNumber: '011000015' };
export const SAMPLE_RECORDS: readonly PositivePayRecord[] = [
  {
    kind: 'I',
    checkId: 'sample',
    serialNumber: '1001',
    issueDate: '2026-01-15',
    amountCents: 123456,
    payeeName: 'Sample Payee Inc',
  },
];

/** The sample's file date: fixed like the sample check, so the preview reads the same every day. */
export const SAMPLE_FILE_DATE = '2026-01-20';

/** The sample file's text, or why the layout cannot write it (a field too narrow for it). */
export function samplePreview(layout: PositivePayLayout): { text: string } | { problem: string } {
  try {
    return { text: writePositivePay(layout, SAMPLE_ACCOUNT, SAMPLE_RECORDS, { fileDate: SAMPLE_FILE_DATE }) };
  } catch (error) {
    if (error instanceof RangeError) return { problem: error.message };
    throw error;
  }
}

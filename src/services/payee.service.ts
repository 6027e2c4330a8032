import { createRequire } from 'node:module';
import type { Owner } from '../domain/owner.ts';
import { PAYEE_FIELDS, type Payee, type PayeeFields } from '../domain/payee.ts';
import { newId } from '../domain/ids.ts';
import { AppError, notFound, validationError } from '../errors.ts';
import type { Page } from '../store/owned-queries.ts';
import type { Paged } from '../domain/paging.ts';
import * as payeeStore from '../store/payees.repository.ts';
import type { ServiceContext } from './context.ts';
import { rules } from './validation.ts';
import { changesBetween } from '../domain/audit.ts';
import { recordFor } from './audit.service.ts';

/** The payee's fields the audit trail compares: what a person reads on the payee's page. */
const AUDITED_FIELDS: readonly string[] = PAYEE_FIELDS;

type PhoneParser = typeof import('libphonenumber-js').parsePhoneNumberFromString;
let parsePhone: PhoneParser | null = null;

/**
 * libphonenumber-js (its metadata is a hundred modules) is loaded by the first phone number read,
 * not with every service that may read one: `keys create` and a start without phones never need
 * it. Synchronously, through its CommonJS build, because its callers are synchronous.
 */
function phoneParser(): PhoneParser {
  parsePhone ??= (createRequire(import.meta.url)('libphonenumber-js') as typeof import('libphonenumber-js'))
    .parsePhoneNumberFromString;
  return parsePhone;
}

/** A phone number in E.164 form, or null when it cannot be a real number (US assumed without +). */
export function normalisePhone(raw: string): string | null {
  const parsed = phoneParser()(raw, 'US');
  return parsed?.isValid() ? parsed.number : null;
}

function checkPhone(path: string, phone: string | undefined): string | undefined {
  if (phone === undefined || phone === '') return phone;
  const normalised = normalisePhone(phone);
  if (normalised === null) throw rules.custom(path, 'must be a valid phone number');
  return normalised;
}

export async function createPayees(
  ctx: ServiceContext,
  owner: Owner,
  items: readonly (Partial<PayeeFields> & { name: string })[],
): Promise<Payee[]> {
  const now = ctx.now();
  const payees: Payee[] = items.map((item, i) => {
    const fields = Object.fromEntries(PAYEE_FIELDS.map((f) => [f, item[f] ?? ''])) as PayeeFields;
    fields.phone = checkPhone(`payees.${i}.phone`, fields.phone) ?? '';
    return { id: newId('pay', now), ...fields, createdAt: now };
  });
  await ctx.db.transaction(async (tx) => {
    await payeeStore.insertPayees(tx, owner, payees);
    await recordFor(
      tx,
      owner,
      payees.map((p) => ({
        action: 'payee.create',
        objectType: 'payee',
        objectId: p.id,
        changes: changesBetween(null, p, AUDITED_FIELDS).filter((c) => c.new !== ''),
      })),
      now,
    );
  });
  return payees;
}

/**
 * The rules createPayees applies beyond the request schema, without writing: each failing item's
 * error goes to `report` (paths `payees.{i}.field`), for an import's preview.
 */
export function validatePayees(
  items: readonly (Partial<PayeeFields> & { name: string })[],
  report: (index: number, error: AppError) => void,
): void {
  items.forEach((item, i) => {
    try {
      checkPhone(`payees.${i}.phone`, item.phone);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      report(i, error);
    }
  });
}

export async function getPayee(ctx: ServiceContext, owner: Owner, id: string): Promise<Payee> {
  const payee = await payeeStore.findPayee(ctx.db, owner, id);
  if (payee === undefined) throw notFound('Payee');
  return payee;
}

/** PUT /payees/{id}: a partial update; the fields given change, the others stay (API decisions). */
export async function updatePayee(
  ctx: ServiceContext,
  owner: Owner,
  id: string,
  changes: Partial<PayeeFields>,
): Promise<void> {
  const given = Object.entries(changes).filter(([, v]) => v !== undefined);
  // Nothing given (every field absent or null, as clients send an unchanged form): nothing to
  // change, and the answer is the update's, the payee as it was, since clients send `{}` or only
  // nulls and expect no refusal.
  if (given.length === 0) {
    await getPayee(ctx, owner, id);
    return;
  }
  if (changes.name !== undefined && changes.name.trim() === '')
    throw validationError('Validation error: The name field is required.');
  let phone: string | undefined;
  try {
    phone = checkPhone('phone', changes.phone);
  } catch {
    throw validationError('Validation error: The phone field must be a valid phone number.');
  }
  const fields = { ...changes, ...(phone === undefined ? {} : { phone }) };
  await ctx.db.transaction(async (tx) => {
    const before = await payeeStore.findPayee(tx, owner, id);
    const changed = await payeeStore.updatePayee(tx, owner, id, fields);
    if (changed === 0 || before === undefined) throw notFound('Payee');
    const after = await payeeStore.findPayee(tx, owner, id);
    const diff = changesBetween(before, after ?? null, AUDITED_FIELDS);
    if (diff.length > 0)
      await recordFor(
        tx,
        owner,
        [{ action: 'payee.edit', objectType: 'payee', objectId: id, changes: diff }],
        ctx.now(),
      );
  });
}

const deleted = (id: string) => [{ action: 'payee.delete', objectType: 'payee', objectId: id }];

export async function deletePayee(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    if ((await payeeStore.deletePayee(tx, owner, id, now)) === 0) throw notFound('Payee');
    await recordFor(tx, owner, deleted(id), now);
  });
}

/**
 * The panel's delete: refused with a 409 while any check names the payee, nothing
 * changed. The API's `DELETE /payees/{id}` keeps its documented rule (the payee is hidden and its
 * checks keep its name, docs/api-notes.md); this one is here so both could share it.
 */
export async function deleteUnusedPayee(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  const now = ctx.now();
  const gone = await ctx.db.transaction(async (tx) => {
    if ((await payeeStore.deleteUnusedPayee(tx, owner, id, now)) === 0) return false;
    await recordFor(tx, owner, deleted(id), now);
    return true;
  });
  if (gone) return;
  if ((await payeeStore.findPayee(ctx.db, owner, id)) === undefined) throw notFound('Payee');
  throw new AppError('conflict', 'This payee has checks, so it cannot be deleted. Its checks keep it on record.');
}

export function listPayees(ctx: ServiceContext, owner: Owner, page: Page): Promise<Paged<Payee>> {
  return payeeStore.listPayees(ctx.db, owner, page);
}

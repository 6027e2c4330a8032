import type { Principal, Owner } from '../../domain/owner.ts';
import type { Check, NewCheck } from '../../domain/check.ts';
import type { Voucher, VoucherItem } from '../../domain/voucher.ts';
import { newId } from '../../domain/ids.ts';
import { numericValue } from '../../domain/numeric-text.ts';
import { issueDateProblem, today } from '../../domain/dates.ts';
import { AppError, duplicate, notFound, validationError } from '../../errors.ts';
import { checkIdsByReference } from '../../store/checks/references.repository.ts';
import { ForeignKeyViolation, UniqueViolation, type Queryable } from '../../store/db.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import * as bankAccountStore from '../../store/bank-accounts.repository.ts';
import { existingIds } from '../../store/owned-queries.ts';
import * as payeeStore from '../../store/payees.repository.ts';
import * as voucherStore from '../../store/vouchers.repository.ts';
import { checkChanges, recordFor } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { cents } from './amount-rules.ts';
import { yieldToLoop } from '../yield-to-loop.ts';
import { emptyToNull, rules } from '../validation.ts';
import { emit, newCheckEventData } from '../events.ts';
import type { CheckInput, VoucherInput } from '../../schemas/checks.ts';
import { holdNewChecks } from '../approvals/approvals.service.ts';

/** A flag as clients send it: true/false, 0/1 or "0"/"1" (API decisions, "Create input rules"). */
export type Flag = boolean | 0 | 1 | '0' | '1';

/** Check numbers are at most 15 digits (the MICR auxiliary on-us field and exact integer arithmetic). */
const MAX_SERIAL = 999_999_999_999_999;

export function flag(value: Flag | undefined): boolean {
  return value === true || value === 1 || value === '1';
}

export { cents } from './amount-rules.ts';

const MAX_QUANTITY = 1_000_000;

/** A voucher line's quantity: a number or numeric string from 0 to 1,000,000; 1 when left out. */
function quantity(path: string, value: number | string | undefined): number {
  if (value === undefined) return 1;
  const n = numericValue(value);
  if (n === null) throw rules.custom(path, 'must be a number');
  if (n < 0 || n > MAX_QUANTITY) throw rules.custom(path, `must be between 0 and ${MAX_QUANTITY}`);
  return n;
}

/** Money in a voucher line may be zero (a fully discounted line); the check amount may not. */
function voucherCents(path: string, value: number | string | undefined): number {
  if (value === undefined) return 0;
  if (value === 0 || value === '0' || value === '0.00') return 0;
  return cents(path, value);
}

/**
 * `path` names the voucher in error messages ('' when the body is the voucher itself); `day` is
 * today in the account's time zone (a voucher's date has the range of a check's).
 */
export function buildVoucher(path: string, input: VoucherInput, now: number, day: string): Voucher {
  const at = (field: string) => (path === '' ? field : `${path}.${field}`);
  const dateProblem = input.date === undefined ? null : issueDateProblem(input.date, day);
  if (dateProblem !== null) throw rules.custom(at('date'), dateProblem);
  const items: VoucherItem[] = (input.voucherItems ?? []).map((item, j) => ({
    invoiceNumber: item.invoiceNumber ?? '',
    name: item.name ?? '',
    description: item.description ?? '',
    quantity: quantity(at(`voucherItems.${j}.quantity`), item.quantity),
    unitCostCents: voucherCents(at(`voucherItems.${j}.unitCost`), item.unitCost),
    totalCents: voucherCents(at(`voucherItems.${j}.total`), item.total),
  }));
  return {
    id: newId('vch', now),
    voucherNumber: input.voucherNumber ?? '',
    date: input.date ?? null,
    memo: input.memo ?? '',
    payeeId: null,
    items,
    createdAt: now,
  };
}

interface Prepared {
  /** The item's place in the request (error paths name it). */
  index: number;
  check: NewCheck;
  serialGiven: boolean;
  voucher: Voucher | null;
}

/**
 * Where a rule's failure goes: createChecks throws the first (the API answers with one message);
 * an import's preview collects every row's (services/imports/preview.service.ts). The rules are the same.
 */
export type RuleReport = (index: number, error: AppError) => void;

const throwFirst: RuleReport = (_index, error) => {
  throw error;
};

// The rules that need no database, on every item before anything is read or written; with `pause`,
// the loop is given back every SLICE items (an import's 10,000 rows are more than one turn).
async function prepare(
  items: readonly CheckInput[],
  principal: Principal,
  now: number,
  report: RuleReport = throwFirst,
  pause?: () => Promise<void>,
): Promise<Prepared[]> {
  const defaultDate = today(principal.timeZone, now);
  const references = new Map<string, number>();
  const serials = new Map<string, number>();
  const out: Prepared[] = [];
  for (const [i, item] of items.entries()) {
    if (pause !== undefined && i > 0 && i % SLICE === 0) await pause();
    try {
      out.push(prepareOne(item, i, defaultDate, references, serials, now));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      report(i, error);
    }
  }
  return out;
}

function prepareOne(
  item: CheckInput,
  i: number,
  defaultDate: string,
  references: Map<string, number>,
  serials: Map<string, number>,
  now: number,
): Prepared {
  const path = `checks.${i}`;
  const noPayee = flag(item.noPayee);
  const noAmount = flag(item.noAmount);
  const payeeId = emptyToNull(item.payeeId);
  if (payeeId === null && !noPayee) throw rules.required(`${path}.payeeId`);
  if (item.amount === undefined && !noAmount) throw rules.required(`${path}.amount`);
  const amountCents = item.amount === undefined ? null : cents(`${path}.amount`, item.amount);
  const dateProblem = item.issueDate === undefined ? null : issueDateProblem(item.issueDate, defaultDate);
  if (dateProblem !== null) throw rules.custom(`${path}.issueDate`, dateProblem);
  if (item.voucher !== undefined && emptyToNull(item.voucherId) !== null)
    throw rules.custom(`${path}.voucher`, 'cannot be given together with voucherId');
  const referenceId = emptyToNull(item.referenceId);
  if (referenceId !== null) {
    if (references.has(referenceId)) throw rules.distinct(`${path}.referenceId`);
    references.set(referenceId, i);
  }
  const serialGiven = item.serialNumber !== undefined && item.serialNumber !== '';
  if (serialGiven) {
    const key = `${item.bankAccountId}/${Number(item.serialNumber)}`;
    if (serials.has(key)) throw rules.distinct(`${path}.serialNumber`);
    serials.set(key, i);
  }
  const voucher = item.voucher === undefined ? null : buildVoucher(`${path}.voucher`, item.voucher, now, defaultDate);
  const check: NewCheck = {
    id: newId('chk', now),
    bankAccountId: item.bankAccountId,
    payeeId,
    categoryId: emptyToNull(item.categoryId),
    voucherId: voucher?.id ?? emptyToNull(item.voucherId),
    // Leading zeros are not part of a check number: "00123" and "123" are the same check.
    serialNumber: serialGiven ? String(Number(item.serialNumber)) : '',
    issueDate: item.issueDate ?? defaultDate,
    amountCents,
    memo: emptyToNull(item.memo),
    note: emptyToNull(item.note),
    accountNumber: emptyToNull(item.accountNumber),
    invoiceNumber: emptyToNull(item.invoiceNumber),
    referenceId,
    noSign: flag(item.noSign),
    noAmount,
    noDate: flag(item.noDate),
    noPayee,
    customElements: Object.fromEntries(
      Object.entries(item.customElements ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    createdAt: now,
  };
  return { index: i, check, serialGiven, voucher };
}

const unique = <T>(values: (T | null)[]): T[] => [...new Set(values.filter((v): v is T => v !== null))];

/** Reports every item that fails `test`, with the error `make` words for its path. */
function reportEach(
  prepared: readonly Prepared[],
  test: (p: Prepared) => boolean,
  make: (path: string) => AppError,
  report: RuleReport,
): void {
  for (const p of prepared) if (test(p)) report(p.index, make(`checks.${p.index}`));
}

/**
 * The rules that need the database (reads only); every failure goes to `report`. `forWrite`: the
 * caller writes the checks in this transaction, so the vouchers and categories they name are
 * locked against a racing delete until it commits (dialect.ts, forShare).
 */
async function verify(
  tx: Queryable,
  owner: Owner,
  prepared: readonly Prepared[],
  report: RuleReport,
  forWrite = false,
): Promise<{ banks: Map<string, string>; payees: Map<string, { name: string }> }> {
  const bankIds = unique(prepared.map((p) => p.check.bankAccountId));
  const banks = await bankAccountStore.bankAccountNames(tx, owner, bankIds);
  reportEach(
    prepared,
    (p) => !banks.has(p.check.bankAccountId),
    (path) => rules.invalid(`${path}.bankAccountId`),
    report,
  );

  const payees = await payeeStore.findPayees(tx, owner, unique(prepared.map((p) => p.check.payeeId)));
  reportEach(
    prepared,
    (p) => p.check.payeeId !== null && !payees.has(p.check.payeeId),
    (path) => rules.invalid(`${path}.payeeId`),
    report,
  );

  const lock = forWrite ? 'share' : null;
  const categories = await existingIds(tx, owner, 'categories', unique(prepared.map((p) => p.check.categoryId)), lock);
  reportEach(
    prepared,
    (p) => p.check.categoryId !== null && !categories.has(p.check.categoryId),
    (path) => rules.invalid(`${path}.categoryId`),
    report,
  );

  const vouchers = await existingIds(
    tx,
    owner,
    'vouchers',
    unique(prepared.map((p) => (p.voucher === null ? p.check.voucherId : null))),
    lock,
  );
  reportEach(
    prepared,
    (p) => p.voucher === null && p.check.voucherId !== null && !vouchers.has(p.check.voucherId),
    (path) => rules.invalid(`${path}.voucherId`),
    report,
  );

  // A referenceId already used answers with the check that holds it (docs/api-notes.md, "Duplicates").
  const references = await checkIdsByReference(tx, owner, unique(prepared.map((p) => p.check.referenceId)));
  for (const p of prepared) {
    const existing = p.check.referenceId === null ? undefined : references.get(p.check.referenceId);
    if (existing !== undefined)
      report(p.index, duplicate(`The checks.${p.index}.referenceId has already been taken.`, 'checkId', existing));
  }

  const given = prepared
    .filter((p) => p.serialGiven)
    .map((p) => ({ bankAccountId: p.check.bankAccountId, serialNumber: p.check.serialNumber }));
  const taken = await checks.takenSerials(tx, given);
  reportEach(
    prepared,
    (p) => p.serialGiven && taken.has(`${p.check.bankAccountId}/${p.check.serialNumber}`),
    (path) => rules.taken(`${path}.serialNumber`),
    report,
  );
  return { banks, payees };
}

/** The rules that need the database, then the writes: all in one transaction, all or nothing. */
async function verifyAndWrite(tx: Queryable, owner: Owner, prepared: Prepared[], now: number): Promise<CreatedCheck[]> {
  const { banks, payees } = await verify(tx, owner, prepared, throwFirst, true);
  const bankIds = unique(prepared.map((p) => p.check.bankAccountId));

  // Automatic serials: per bank account, a block above the account's counter and above every
  // explicit serial of this batch, reserved under the bank account's row lock.
  for (const bankId of bankIds) {
    const mine = prepared.filter((p) => p.check.bankAccountId === bankId);
    const floor = Math.max(0, ...mine.filter((p) => p.serialGiven).map((p) => Number(p.check.serialNumber) + 1));
    const automatic = mine.filter((p) => !p.serialGiven);
    let next = await checks.reserveSerials(tx, bankId, floor, automatic.length);
    if (automatic.length > 0 && next + automatic.length - 1 > MAX_SERIAL) {
      throw rules.custom(
        `checks.${automatic[0]?.index ?? 0}.serialNumber`,
        `cannot be assigned: the bank account has run out of check numbers (the largest is ${MAX_SERIAL}); set its nextSerial lower`,
      );
    }
    for (const p of automatic) p.check.serialNumber = String(next++);
  }

  for (const p of prepared) if (p.voucher !== null) await voucherStore.insertVoucher(tx, owner, p.voucher);
  await checks.insertChecks(
    tx,
    owner,
    prepared.map((p) => p.check),
  );
  await checks.insertStatements(
    tx,
    prepared.map((p) => ({ checkId: p.check.id, status: 'created', at: now })),
  );
  await emit(
    tx,
    owner,
    prepared.map((p) => ({ type: 'check.created' as const, data: newCheckEventData(p.check) })),
    now,
  );
  // A check the company's policy covers waits for its approvals before it can leave.
  await holdNewChecks(
    tx,
    owner,
    prepared.map((p) => p.check),
    now,
  );
  await recordFor(
    tx,
    owner,
    prepared.map((p) => ({
      action: 'check.create',
      objectType: 'check',
      objectId: p.check.id,
      changes: checkChanges(null, p.check),
    })),
    now,
  );
  return prepared.map(({ check }) => ({
    checkId: check.id,
    serialNumber: check.serialNumber,
    amountCents: check.amountCents,
    status: 0,
    bankAccount: { bankAccountId: check.bankAccountId, name: banks.get(check.bankAccountId) ?? '' },
    payee: { payeeId: check.payeeId, name: check.payeeId === null ? null : (payees.get(check.payeeId)?.name ?? null) },
  }));
}

export interface CreatedCheck {
  checkId: string;
  serialNumber: string;
  amountCents: number | null;
  status: number;
  bankAccount: { bankAccountId: string; name: string };
  payee: { payeeId: string | null; name: string | null };
}

export async function createChecks(
  ctx: ServiceContext,
  principal: Principal,
  items: readonly CheckInput[],
): Promise<CreatedCheck[]> {
  const now = ctx.now();
  const prepared = await prepare(items, principal, now);
  try {
    return await ctx.db.transaction((tx) => verifyAndWrite(tx, principal, prepared, now));
  } catch (error) {
    // A concurrent request took the same serial or reference between our check and our insert.
    if (error instanceof UniqueViolation) {
      if (error.target.includes('reference_id')) throw rules.taken('checks.referenceId');
      if (error.target.includes('serial_number')) throw rules.taken('checks.serialNumber');
    }
    // The last guard behind the row locks of verify: a record a check names was deleted meanwhile.
    if (error instanceof ForeignKeyViolation)
      throw validationError('The checks name a record that was deleted meanwhile; try again.');
    throw error;
  }
}

/**
 * Every rule createChecks applies, without writing: each failing item's errors go to `report`
 * (the API's messages, paths `checks.{i}.field`). An import's preview shows them all at once.
 */
export async function validateChecks(
  ctx: ServiceContext,
  principal: Principal,
  items: readonly CheckInput[],
  report: RuleReport,
): Promise<void> {
  const prepared = await prepare(items, principal, ctx.now(), report, yieldToLoop);
  // The reads go in slices, the event loop given back between them (an import's preview).
  for (let at = 0; at < prepared.length; at += SLICE) {
    await yieldToLoop();
    await verify(ctx.db, principal, prepared.slice(at, at + SLICE), report);
  }
}

/** Items between two pauses of validateChecks: a few milliseconds of rules or reads. */
const SLICE = 250;

export async function getCheck(ctx: ServiceContext, owner: Owner, id: string): Promise<Check> {
  const check = await checks.findCheck(ctx.db, owner, id);
  if (check === undefined) throw notFound('Check');
  return check;
}

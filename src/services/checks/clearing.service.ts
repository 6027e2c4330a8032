// Clearing checks (the bank paid them) by hand or from the bank's cleared-items file, and undoing
// a clearing marked by mistake (docs/reconciliation.md). Each is a compare-and-set on the check's
// cleared date with its statement and webhook event in the same transaction; a file's matches are
// cleared all or nothing, and its mismatches change nothing.
import type { BankFileLayout, ClearedItem, CreditItem } from '../../domain/cleared-items.ts';
import { CLEARED_STATEMENT, type MismatchReason, UNCLEARED_STATEMENT, whyNotClearable } from '../../domain/clearing.ts';
import type { Check } from '../../domain/check.ts';
import { statusName } from '../../domain/check-status.ts';
import { clearedBeforeIssue, clearedDateProblem, today } from '../../domain/dates.ts';
import { formatCents } from '../../domain/money.ts';
import type { Owner, Principal } from '../../domain/owner.ts';
import { AppError, notFound, validationError } from '../../errors.ts';
import type { Queryable } from '../../store/db.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import * as register from '../../store/check-register.repository.ts';
import { getBankAccount } from '../bank-account.service.ts';
import { record } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { checkEventData, emit } from '../events.ts';
import { rules } from '../validation.ts';

/** The check as the cleared events describe it: the usual check data and the day it cleared. */
function clearingEventData(check: Check, clearedDate: string | null): Record<string, unknown> {
  return { ...checkEventData(check), clearedDate };
}

async function load(q: Queryable, owner: Owner, id: string): Promise<Check> {
  const check = await checks.findCheck(q, owner, id);
  if (check === undefined) throw notFound('Check');
  return check;
}

/** A cleared date given by the caller (or today in the account's time zone): a real day, not in the future. */
export function clearedDateOf(given: string | undefined, path: string, timeZone: string, now: number): string {
  const day = today(timeZone, now);
  if (given === undefined || given === '') return day;
  const problem = clearedDateProblem(given, day);
  if (problem !== null) throw rules.custom(path, problem);
  return given;
}

/**
 * Clears these checks with one date inside `tx`: each must be issued and uncleared (a 422 naming
 * the first that is not, and the caller's transaction rolls back: all or nothing).
 */
async function clearAll(
  tx: Queryable,
  principal: Principal,
  list: readonly Check[],
  day: string,
  now: number,
): Promise<void> {
  for (const check of list) {
    const refusal = whyNotClearable(check);
    const what = list.length === 1 ? 'The check' : `Check ${check.serialNumber}`;
    if (refusal !== null) throw validationError(`${what} cannot be cleared: ${refusal}.`);
    if (clearedBeforeIssue(day, check.issueDate))
      throw rules.custom('clearedDate', `must not be before ${what.toLowerCase()}'s issue date (${check.issueDate})`);
    if ((await register.setCleared(tx, principal, check.id, day)) !== 1) {
      const current = await load(tx, principal, check.id);
      throw validationError(`${what} cannot be cleared: ${whyNotClearable(current) ?? 'it changed meanwhile'}.`);
    }
  }
  await checks.insertStatements(
    tx,
    list.map((c) => ({ checkId: c.id, status: CLEARED_STATEMENT, at: now })),
  );
  await emit(
    tx,
    principal,
    list.map((c) => ({ type: 'check.cleared' as const, data: clearingEventData(c, day) })),
    now,
  );
  await record(
    tx,
    principal,
    list.map((c) => ({
      action: 'check.clear',
      objectType: 'check',
      objectId: c.id,
      changes: [{ field: 'clearedDate', old: c.clearedDate, new: day }],
    })),
    now,
  );
}

/** POST /checks/{id}/clear: an issued, uncleared check gets its cleared date. Clearing twice is refused. */
export async function clearCheck(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  clearedDate: string | undefined,
): Promise<Check> {
  const now = ctx.now();
  const day = clearedDateOf(clearedDate, 'clearedDate', principal.timeZone, now);
  await ctx.db.transaction(async (tx) => clearAll(tx, principal, [await load(tx, principal, id)], day, now));
  return load(ctx.db, principal, id);
}

/** Most checks cleared by hand at once: a register page. */
export const MAX_CLEAR_AT_ONCE = 500;

/**
 * The panel's register: the ticked checks of one bank account cleared on one date, all or
 * nothing. A check of another bank account, account or environment is a 404, as in the API.
 */
export async function clearChecks(
  ctx: ServiceContext,
  principal: Principal,
  bankAccountId: string,
  ids: readonly string[],
  clearedDate: string | undefined,
): Promise<number> {
  const now = ctx.now();
  await getBankAccount(ctx, principal, bankAccountId);
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw validationError('Tick the checks the bank paid first.');
  if (unique.length > MAX_CLEAR_AT_ONCE) throw validationError(`Clear at most ${MAX_CLEAR_AT_ONCE} checks at once.`);
  const day = clearedDateOf(clearedDate, 'clearedDate', principal.timeZone, now);
  await ctx.db.transaction(async (tx) => {
    const mine = await register.idsOnBankAccount(tx, principal, bankAccountId, unique);
    if (unique.some((id) => !mine.has(id))) throw notFound('Check');
    const found = new Map((await checks.checksInListOrder(tx, unique)).map((c) => [c.id, c]));
    await clearAll(
      tx,
      principal,
      unique.flatMap((id) => found.get(id) ?? []),
      day,
      now,
    );
  });
  return unique.length;
}

/** A check of this bank account (the caller's), else 404: the panel's forms name both. */
export async function checkOn(ctx: ServiceContext, owner: Owner, bankAccountId: string, id: string): Promise<Check> {
  const check = await checks.findCheck(ctx.db, owner, id);
  if (check === undefined || check.bankAccountId !== bankAccountId) throw notFound('Check');
  return check;
}

/** POST /checks/{id}/unclear: a clearing marked by mistake is taken back; the statements keep both. */
export async function unclearCheck(ctx: ServiceContext, principal: Principal, id: string): Promise<Check> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const check = await load(tx, principal, id);
    if (check.clearedDate === null || (await register.setUncleared(tx, principal, id)) !== 1)
      throw validationError('The check cannot be un-cleared: it has not cleared.');
    await checks.insertStatements(tx, [{ checkId: id, status: UNCLEARED_STATEMENT, at: now }]);
    await emit(tx, principal, [{ type: 'check.uncleared', data: clearingEventData(check, null) }], now);
    await record(
      tx,
      principal,
      [
        {
          action: 'check.unclear',
          objectType: 'check',
          objectId: id,
          changes: [{ field: 'clearedDate', old: check.clearedDate, new: null }],
        },
      ],
      now,
    );
  });
  return load(ctx.db, principal, id);
}

/**
 * Void refuses a cleared check: the bank has paid it. Called inside the void's transaction after
 * its status change, so a clearing that committed first is seen here (and one that comes later
 * finds the check void and clears nothing).
 */
export async function refuseVoidIfCleared(tx: Queryable, owner: Owner, id: string): Promise<void> {
  const cleared = await register.clearedDateOf(tx, owner, id);
  if (cleared !== null)
    throw validationError(
      `The check cannot be voided: it cleared on ${cleared}. Un-clear it first if that was a mistake.`,
    );
}

export interface ReconciledRow {
  line: number;
  checkNumber: string;
  amountCents: number;
  clearedDate: string;
  /** The check the row names, when there is one. */
  check: {
    id: string;
    serialNumber: string;
    amountCents: number | null;
    status: number;
    clearedDate: string | null;
  } | null;
}

export interface Mismatch extends ReconciledRow {
  reason: MismatchReason;
  message: string;
}

export interface Reconciliation {
  /** What the file was recognised as. */
  layout: BankFileLayout;
  matched: ReconciledRow[];
  mismatched: Mismatch[];
  /** Money in carrying a number (deposit slips, reversals): listed apart, never cleared. */
  credits: CreditItem[];
  skippedLines: number;
  columns: { checkNumber: string; amount: string; date: string | null };
}

const dollars = (cents: number | null): string => (cents === null ? 'no amount' : `$${formatCents(cents)}`);

/**
 * POST /bankAccounts/{id}/clearedItems and the panel's upload: every row of the bank's file is
 * matched on check number AND amount against the bank account's checks. The matched checks are
 * cleared with the row's date, all in one transaction; every other row is listed with its reason
 * and changes nothing. A file that cannot be read is a 422 and changes nothing either.
 */
export async function reconcile(
  ctx: ServiceContext,
  principal: Principal,
  bankAccountId: string,
  text: string,
  fallbackDate: string | undefined,
): Promise<Reconciliation> {
  const now = ctx.now();
  // The bank account first: another account's id is a 404 whatever the file says.
  await getBankAccount(ctx, principal, bankAccountId);
  const fallback = clearedDateOf(fallbackDate, 'clearedDate', principal.timeZone, now);
  // Reading the file (CSV, OFX or BAI2: every row's number, amount and date) is heavy work: a worker
  // thread in the server. The matching below needs the database and stays here.
  const read = await ctx.heavyWork.run(
    'read-cleared-items',
    {
      text,
      fallbackDate: fallback,
      today: today(principal.timeZone, now),
    },
    { owner: principal },
  );
  if (!read.ok) throw validationError(read.message);
  const file = read.file;
  const serials = [...new Set(file.items.flatMap((i) => (i.serial === null ? [] : [i.serial])))];
  return ctx.db.transaction(async (tx) => {
    const found = await register.checksBySerial(tx, principal, bankAccountId, serials);
    const matched: ReconciledRow[] = [];
    const mismatched: Mismatch[] = [];
    const seen = new Set<string>();
    for (const item of file.items) {
      const check = item.serial === null ? undefined : found.get(item.serial);
      const row: ReconciledRow = {
        line: item.line,
        checkNumber: item.checkNumber,
        amountCents: item.amountCents,
        clearedDate: item.clearedDate,
        check:
          check === undefined
            ? null
            : {
                id: check.id,
                serialNumber: check.serial,
                amountCents: check.amountCents,
                status: check.status,
                clearedDate: check.clearedDate,
              },
      };
      const reason = mismatchOf(item, check, seen);
      if (item.serial !== null) seen.add(item.serial);
      if (reason === null) matched.push(row);
      else mismatched.push({ ...row, ...reason });
    }
    const statements = matched.map((m) => ({ checkId: m.check?.id ?? '', status: CLEARED_STATEMENT, at: now }));
    for (const m of matched) {
      if ((await register.setCleared(tx, principal, m.check?.id ?? '', m.clearedDate)) !== 1)
        throw new AppError(
          'conflict',
          `Check ${m.checkNumber} changed while the file was being reconciled; nothing was cleared. Send the file again.`,
        );
    }
    await checks.insertStatements(tx, statements);
    await record(
      tx,
      principal,
      matched.map((m) => ({
        action: 'check.clear',
        objectType: 'check',
        objectId: m.check?.id ?? '',
        changes: [{ field: 'clearedDate', old: null, new: m.clearedDate }],
      })),
      now,
    );
    await emit(
      tx,
      principal,
      matched.flatMap((m) => {
        const check = m.check === null ? undefined : found.get(m.check.serialNumber);
        if (check === undefined) return [];
        const data = {
          ...checkEventData({
            id: check.id,
            serialNumber: check.serial,
            amountCents: check.amountCents,
            status: check.status,
            referenceId: check.referenceId,
            bankAccountId,
            payeeId: check.payeeId,
          }),
          clearedDate: m.clearedDate,
        };
        return [{ type: 'check.cleared' as const, data }];
      }),
      now,
    );
    return {
      layout: file.layout,
      matched,
      mismatched,
      credits: file.credits,
      skippedLines: file.skippedLines,
      columns: file.columns,
    };
  });
}

function mismatchOf(
  item: ClearedItem,
  check: { amountCents: number | null; status: number; clearedDate: string | null; issueDate: string } | undefined,
  seen: ReadonlySet<string>,
): { reason: MismatchReason; message: string } | null {
  if (item.serial !== null && seen.has(item.serial))
    return {
      reason: 'duplicate_line',
      message: `Check ${item.checkNumber} is listed again: only its first line counts. Ask the bank whether it paid the check twice.`,
    };
  if (check === undefined)
    return { reason: 'unknown_number', message: `No check number ${item.checkNumber} on this bank account.` };
  const status = statusName(check.status);
  if (status === 'void')
    return { reason: 'void', message: `Check ${item.checkNumber} is void: the bank should not have paid it.` };
  if (check.clearedDate !== null)
    return { reason: 'already_cleared', message: `Check ${item.checkNumber} already cleared on ${check.clearedDate}.` };
  if (whyNotClearable(check) !== null)
    return {
      reason: 'not_issued',
      message: `Check ${item.checkNumber} was never issued (its status is ${status}).`,
    };
  if (check.amountCents !== item.amountCents)
    return {
      reason: 'amount_differs',
      message: `Check ${item.checkNumber} is for ${dollars(check.amountCents)}; the bank paid ${dollars(item.amountCents)}.`,
    };
  if (clearedBeforeIssue(item.clearedDate, check.issueDate))
    return {
      reason: 'date_before_issue',
      message: `Check ${item.checkNumber} is dated ${check.issueDate}; the row says it was paid on ${item.clearedDate}, before that.`,
    };
  return null;
}

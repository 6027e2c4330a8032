// Moves in a check's life after creation (docs/lifecycle.md): void, edit and delete while new.
// Every status change is a compare-and-set on the status read, with its statement and event in
// the same transaction, so two concurrent requests cannot both win.
import type { Principal, Owner } from '../../domain/owner.ts';
import type { Check } from '../../domain/check.ts';
import {
  canHappen,
  isEditable,
  statusAfter,
  statusCode,
  statusName,
  EVENT_STATEMENT,
  type CheckEvent,
} from '../../domain/check-status.ts';
import { issueDateProblem, today } from '../../domain/dates.ts';
import { notFound, validationError } from '../../errors.ts';
import type { Queryable } from '../../store/db.ts';
import { ForeignKeyViolation, UniqueViolation } from '../../store/db.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import * as mailings from '../../store/mailings.repository.ts';
import { existingIds } from '../../store/owned-queries.ts';
import * as payeeStore from '../../store/payees.repository.ts';
import { cents, flag } from './write.service.ts';
import type { CheckEdit } from '../../schemas/checks.ts';
import { checkChanges, record, recordFor } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { checkEventData, emit } from '../events.ts';
import { refuseVoidIfCleared } from './clearing.service.ts';
import type { EventType } from '../../domain/event-types.ts';
import { emptyToNull, rules } from '../validation.ts';
import { afterEdit, forgetCheck, isHeld, refuseEditIfRejected } from '../approvals/approvals.service.ts';

const EVENT_TYPE: Readonly<Record<CheckEvent, EventType>> = {
  print: 'check.printed',
  email: 'check.emailed',
  eprint: 'check.eprinted',
  mail: 'check.mailed',
  void: 'check.voided',
  refund: 'check.refunded',
};

/** 422 naming the current status: the one answer to an illegal or lost transition. */
export function refused(what: string, status: number): Error {
  return validationError(`The check cannot be ${what}: its status is ${statusName(status)}.`);
}

/**
 * Applies `event` to a check inside `tx`: compare-and-set on the status, statement, event.
 * Throws the 422 when the event cannot happen from the status found (or found changed).
 */
export async function applyEvent(
  tx: Queryable,
  owner: Owner,
  check: Check,
  event: CheckEvent,
  what: string,
  now: number,
): Promise<Check> {
  if (!canHappen(event, check.status)) throw refused(what, check.status);
  const to = statusAfter(event);
  if ((await checks.moveStatus(tx, owner, check.id, check.status, to)) !== 1) {
    const current = await checks.findCheck(tx, owner, check.id);
    throw refused(what, current?.status ?? check.status);
  }
  await checks.insertStatements(tx, [{ checkId: check.id, status: EVENT_STATEMENT[event], at: now }]);
  const moved = { ...check, status: to };
  await emit(tx, owner, [{ type: EVENT_TYPE[event], data: checkEventData(moved) }], now);
  await recordFor(
    tx,
    owner,
    [
      {
        action: `check.${event}`,
        objectType: 'check',
        objectId: check.id,
        changes: [{ field: 'status', old: statusName(check.status), new: statusName(to) }],
      },
    ],
    now,
  );
  return moved;
}

async function load(tx: Queryable, owner: Owner, id: string): Promise<Check> {
  const check = await checks.findCheck(tx, owner, id);
  if (check === undefined) throw notFound('Check');
  return check;
}

/** POST /checks/{id}/void: final; a mailing still waiting for dispatch is cancelled with it. */
export async function voidCheck(ctx: ServiceContext, principal: Principal, id: string): Promise<Check> {
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    const check = await load(tx, principal, id);
    const moved = await applyEvent(tx, principal, check, 'void', 'voided', now);
    // A check the bank has paid cannot be voided (docs/reconciliation.md).
    await refuseVoidIfCleared(tx, principal, id);
    const pending = await mailings.pendingMailingFor(tx, principal, id);
    if (pending !== undefined) await mailings.settleMailing(tx, pending.id, 'cancelled', now);
    return moved.id;
  });
  return load(ctx.db, principal, result);
}

/**
 * A check waiting in the print-and-mail queue belongs to the operator until dispatched or cancelled.
 * The check's row is locked first (as POST /mailchecks locks it), so a mailing queued by a
 * concurrent request is either seen here or waits for this transaction.
 */
export async function assertNotQueuedForMail(tx: Queryable, owner: Owner, check: Check, what: string): Promise<void> {
  if (!(await checks.lockCheck(tx, owner, check.id, check.status))) {
    throw refused(what, (await checks.findCheck(tx, owner, check.id))?.status ?? check.status);
  }
  if ((await mailings.pendingMailingFor(tx, owner, check.id)) !== undefined) {
    throw validationError(`The check cannot be ${what}: it is queued for mailing; cancel the mailing first.`);
  }
}

/** PUT /checks/{id}: the fields given change while the check is still new. */
export async function editCheck(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  edit: CheckEdit,
): Promise<Check> {
  if (Object.keys(edit).length === 0) throw validationError('The body must contain at least 1 field.');
  try {
    await ctx.db.transaction(async (tx) => {
      const check = await load(tx, principal, id);
      if (!isEditable(check.status)) throw refused('edited', check.status);
      await assertNotQueuedForMail(tx, principal, check, 'edited');
      await refuseEditIfRejected(tx, principal, check);
      const noPayee = edit.noPayee === undefined ? check.noPayee : flag(edit.noPayee);
      const noAmount = edit.noAmount === undefined ? check.noAmount : flag(edit.noAmount);
      const payeeId = edit.payeeId === undefined ? check.payeeId : emptyToNull(edit.payeeId);
      const amountCents = edit.amount === undefined ? check.amountCents : cents('amount', edit.amount);
      if (payeeId === null && !noPayee) throw rules.required('payeeId');
      if (amountCents === null && !noAmount) throw rules.required('amount');
      const dateProblem =
        edit.issueDate === undefined ? null : issueDateProblem(edit.issueDate, today(principal.timeZone, ctx.now()));
      if (dateProblem !== null) throw rules.custom('issueDate', dateProblem);
      if (
        payeeId !== null &&
        payeeId !== check.payeeId &&
        (await payeeStore.findPayee(tx, principal, payeeId)) === undefined
      )
        throw rules.invalid('payeeId');
      const categoryId = edit.categoryId === undefined ? check.categoryId : emptyToNull(edit.categoryId);
      if (
        categoryId !== null &&
        categoryId !== check.categoryId &&
        (await existingIds(tx, principal, 'categories', [categoryId], 'share')).size === 0
      )
        throw rules.invalid('categoryId');
      const referenceId = edit.referenceId === undefined ? check.referenceId : emptyToNull(edit.referenceId);
      const changed = await checks.updateCheck(tx, principal, id, statusCode('new'), check.serialNumber, {
        payeeId,
        categoryId,
        issueDate: edit.issueDate ?? check.issueDate,
        amountCents,
        memo: edit.memo === undefined ? check.memo : emptyToNull(edit.memo),
        note: edit.note === undefined ? check.note : emptyToNull(edit.note),
        accountNumber: edit.accountNumber === undefined ? check.accountNumber : emptyToNull(edit.accountNumber),
        invoiceNumber: edit.invoiceNumber === undefined ? check.invoiceNumber : emptyToNull(edit.invoiceNumber),
        referenceId,
        noSign: edit.noSign === undefined ? check.noSign : flag(edit.noSign),
        noAmount,
        noDate: edit.noDate === undefined ? check.noDate : flag(edit.noDate),
        noPayee,
        customElements:
          edit.customElements === undefined
            ? check.customElements
            : Object.fromEntries(
                Object.entries(edit.customElements).filter((e): e is [string, string] => e[1] !== undefined),
              ),
      });
      if (changed !== 1) throw refused('edited', (await load(tx, principal, id)).status);
      const after = await load(tx, principal, id);
      await afterEdit(tx, principal, check, after, ctx.now());
      const changes = checkChanges(check, after);
      if (changes.length > 0)
        await record(tx, principal, [{ action: 'check.edit', objectType: 'check', objectId: id, changes }], ctx.now());
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.target.includes('reference_id')) throw rules.taken('referenceId');
    // The last guard behind the category's row lock: the payee or category was deleted meanwhile.
    if (error instanceof ForeignKeyViolation)
      throw validationError('The check names a record that was deleted meanwhile; try again.');
    throw error;
  }
  return load(ctx.db, principal, id);
}

/** DELETE /checks/{id}: only a check that is still new (never printed, sent or mailed). */
export async function deleteCheck(ctx: ServiceContext, principal: Principal, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const check = await load(tx, principal, id);
    if (!isEditable(check.status)) throw refused('deleted', check.status);
    // A mailing that waits for the check's approval goes with it (the delete removes it); any
    // other queued mailing belongs to the operator and must be cancelled first.
    if (!(await checks.lockCheck(tx, principal, check.id, check.status)))
      throw refused('deleted', (await load(tx, principal, id)).status);
    if (!(await isHeld(tx, principal, check.id))) await assertNotQueuedForMail(tx, principal, check, 'deleted');
    if ((await checks.deleteCheck(tx, principal, id, check.status)) !== 1)
      throw refused('deleted', (await load(tx, principal, id)).status);
    await forgetCheck(tx, id);
    await record(
      tx,
      principal,
      [{ action: 'check.delete', objectType: 'check', objectId: id, changes: checkChanges(check, null) }],
      ctx.now(),
    );
  });
}

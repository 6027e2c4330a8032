// Mailing checks (POST /mailchecks). The built-in fulfilment is a print-and-mail queue worked by
// an operator (`npx checkwriter mailings ...`): the check stays `new` while queued, becomes
// `mailed` when the operator dispatches it, and `refunded` when the mailing is cancelled before
// dispatch. Another fulfilment provider would take the queue's place behind the same calls.
import type { Owner, Principal } from '../domain/owner.ts';
import { newId } from '../domain/ids.ts';
import { AppError, notFound, validationError } from '../errors.ts';
import * as checks from '../store/checks/checks.repository.ts';
import * as mailings from '../store/mailings.repository.ts';
import type { Mailing } from '../domain/mailing.ts';
import * as addressStore from '../store/addresses.repository.ts';
import * as payeeStore from '../store/payees.repository.ts';
import { type Db, ForeignKeyViolation } from '../store/db.ts';
import { canHappen, statusName } from '../domain/check-status.ts';
import type { ServiceContext } from './context.ts';
import { applyEvent } from './checks/lifecycle.service.ts';
import { refuseHeld } from './approvals/approvals.service.ts';
import { rules } from './validation.ts';
import { normalisePhone } from './payee.service.ts';
import { MAILING_QUEUED_STATEMENT, type MailingStatus } from '../domain/mailing.ts';
import type { Check } from '../domain/check.ts';

/**
 * Shipping, paper and notification choices, numbered and named as the hosted service numbers them
 * (its clients send these ids: docs/lifecycle.md, docs/api-notes.md).
 */
export const SHIPPING_TYPES = [
  { shippingTypeId: 1, name: 'First Class', deliveryDays: '3-5' },
  { shippingTypeId: 3, name: 'First Class with Tracking', deliveryDays: '3-5' },
  { shippingTypeId: 4, name: 'Priority Mail', deliveryDays: '1-3' },
  { shippingTypeId: 5, name: 'Express Mail', deliveryDays: '1-2' },
  { shippingTypeId: 12, name: 'Standard Overnight - FedEx - by 3pm the next business day', deliveryDays: '1' },
  { shippingTypeId: 20, name: 'FedEx Saturday Delivery', deliveryDays: '1' },
] as const;

export const PAPER_TYPES = [
  { paperTypeId: 7, name: 'Regular Check Paper' },
  { paperTypeId: 8, name: 'Hologram Check Paper' },
  { paperTypeId: 9, name: 'Ultra Hologram Check Paper' },
] as const;

/** 10: tell the payee by SMS that the check is on its way (the same as enableSmsInform). */
export const INFORM_TYPES = [{ informTypeId: 10, name: 'Notify Receiver by SMS' }] as const;
export const DEFAULT_PAPER_TYPE = 7;
const SMS_INFORM = 10;

export interface MailCheckInput {
  checkId: string;
  shippingTypeId: number;
  paperTypeId?: number;
  informTypeId?: number;
  enableSmsInform?: boolean;
  enableEmailInform?: boolean;
  payeeEmail?: string;
  payeePhone?: string;
  customToAddressId?: string | null;
}

/** The request-wide fields of the hosted service's POST /mailchecks. */
export interface MailChecksOptions {
  /** Ship the checks to the custom 'to' address (e.g. to the sender) rather than to each payee. */
  isShippingToCustomAddress: boolean;
  customToAddressId: string | null;
  customFromAddressId: string | null;
  customShippingTypeId: number | null;
}

export const NO_OPTIONS: MailChecksOptions = {
  isShippingToCustomAddress: false,
  customToAddressId: null,
  customFromAddressId: null,
  customShippingTypeId: null,
};

const known = (list: readonly { [key: string]: unknown }[], key: string, value: number): boolean =>
  list.some((t) => t[key] === value);

/**
 * What a held check's mailing does: `refuse` (POST /mailchecks: the request is refused whole) or
 * `wait` (quickpay writes the check and its mailing in one call, so the mailing is queued but no
 * operator sees or dispatches it until the check is approved).
 */
export type WhileHeld = 'refuse' | 'wait';

export async function mailChecks(
  ctx: ServiceContext,
  principal: Principal,
  items: readonly MailCheckInput[],
  options: MailChecksOptions = NO_OPTIONS,
  whileHeld: WhileHeld = 'refuse',
): Promise<Mailing[]> {
  const now = ctx.now();
  if (options.customShippingTypeId !== null && !known(SHIPPING_TYPES, 'shippingTypeId', options.customShippingTypeId))
    throw rules.invalid('customShippingTypeId');
  if (options.isShippingToCustomAddress && options.customToAddressId === null)
    throw rules.custom('customToAddressId', 'is required when isShippingToCustomAddress is true');
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.checkId)) throw rules.distinct(`mailChecks.${i}.checkId`);
    seen.add(item.checkId);
    if (!known(SHIPPING_TYPES, 'shippingTypeId', item.shippingTypeId))
      throw rules.invalid(`mailChecks.${i}.shippingTypeId`);
    if (item.paperTypeId !== undefined && !known(PAPER_TYPES, 'paperTypeId', item.paperTypeId))
      throw rules.invalid(`mailChecks.${i}.paperTypeId`);
    if (item.informTypeId !== undefined && !known(INFORM_TYPES, 'informTypeId', item.informTypeId))
      throw rules.invalid(`mailChecks.${i}.informTypeId`);
  });
  // The addresses named are locked FOR SHARE as they are looked at (findAddressForUse): a racing
  // DELETE of one waits for this transaction, then sees the mailing and answers 409.
  return ctx.db
    .transaction(async (tx) => {
      if (
        options.customToAddressId !== null &&
        (await addressStore.findAddressForUse(tx, principal, 'to', options.customToAddressId)) === undefined
      )
        throw rules.invalid('customToAddressId');
      if (
        options.customFromAddressId !== null &&
        (await addressStore.findAddressForUse(tx, principal, 'from', options.customFromAddressId)) === undefined
      )
        throw rules.invalid('customFromAddressId');
      const found = await checks.findChecks(
        tx,
        principal,
        items.map((i) => i.checkId),
      );
      const created: Mailing[] = [];
      for (const [i, item] of items.entries()) {
        const path = `mailChecks.${i}`;
        const check = found.get(item.checkId);
        if (check === undefined) throw rules.invalid(`${path}.checkId`);
        if (!canHappen('mail', check.status))
          throw rules.custom(
            `${path}.checkId`,
            `names a check that cannot be mailed: its status is ${statusName(check.status)}`,
          );
        // Lock the row before looking for a pending mailing: two requests cannot queue the check
        // twice, nor queue it while another prints, emails, edits or deletes it.
        if (!(await checks.lockCheck(tx, principal, check.id, check.status)))
          throw rules.custom(`${path}.checkId`, 'names a check whose status changed; try again');
        // Held for approval: it goes to no print-and-mail operator until approved.
        if (whileHeld === 'refuse') await refuseHeld(tx, principal, [check]);
        if ((await mailings.pendingMailingFor(tx, principal, check.id)) !== undefined)
          throw rules.custom(`${path}.checkId`, 'names a check that is already queued for mailing');
        const payee =
          check.payeeId === null ? undefined : await payeeStore.findPayeeForPrinting(tx, principal, check.payeeId);
        const toAddressId = item.customToAddressId ?? options.customToAddressId;
        if (toAddressId !== null) {
          if ((await addressStore.findAddressForUse(tx, principal, 'to', toAddressId)) === undefined)
            throw rules.invalid(`${path}.customToAddressId`);
        } else if (payee === undefined || payee.address1 === '' || payee.city === '' || payee.zip === '') {
          throw rules.custom(
            `${path}.customToAddressId`,
            'is required when the payee has no mailing address on record',
          );
        }
        // Notifications, as for email checks: the address or number given, else the payee's.
        const enableSmsInform = item.enableSmsInform === true || item.informTypeId === SMS_INFORM;
        const enableEmailInform = item.enableEmailInform === true;
        let payeePhone: string | null = null;
        if (item.payeePhone !== undefined || enableSmsInform) {
          const raw = item.payeePhone ?? payee?.phone ?? '';
          if (raw === '')
            throw rules.custom(
              `${path}.payeePhone`,
              'is required when enableSmsInform is true and the payee has no phone on record',
            );
          payeePhone = normalisePhone(raw);
          if (payeePhone === null) throw rules.custom(`${path}.payeePhone`, 'must be a valid phone number');
        }
        const payeeEmail = item.payeeEmail ?? (enableEmailInform ? (payee?.email ?? '') : null);
        if (payeeEmail === '')
          throw rules.custom(
            `${path}.payeeEmail`,
            'is required when enableEmailInform is true and the payee has no email on record',
          );
        const mailing: Mailing = {
          id: newId('mail', now),
          checkId: check.id,
          shippingTypeId: item.shippingTypeId,
          paperTypeId: item.paperTypeId ?? DEFAULT_PAPER_TYPE,
          toAddressId,
          status: 'queued',
          createdAt: now,
          updatedAt: now,
          informTypeId: item.informTypeId ?? null,
          enableSmsInform,
          enableEmailInform,
          payeeEmail,
          payeePhone,
          shippingToCustomAddress: options.isShippingToCustomAddress,
          fromAddressId: options.customFromAddressId,
          customShippingTypeId: options.customShippingTypeId,
        };
        await mailings.insertMailing(tx, principal, mailing);
        await checks.insertStatements(tx, [{ checkId: check.id, status: MAILING_QUEUED_STATEMENT, at: now }]);
        created.push(mailing);
      }
      return created;
    })
    .catch((error: unknown) => {
      // The last guard behind the locks (migration 024's foreign keys): an address went meanwhile.
      if (error instanceof ForeignKeyViolation)
        throw validationError('The mailing names an address that was deleted meanwhile; try again.');
      throw error;
    });
}

/** Ends a queued mailing: dispatched (check mailed) or cancelled (check refunded). */
async function settle(
  db: Db,
  owner: Owner,
  mailingId: string,
  outcome: 'dispatched' | 'cancelled',
  now: number,
): Promise<Mailing> {
  return db.transaction(async (tx) => {
    const mailing = await mailings.findMailing(tx, owner, mailingId);
    if (mailing === undefined) throw new AppError('not_found', 'Mailing not found.');
    if (outcome === 'dispatched') {
      // A mailing queued with a check still held waits for its approval: the check's row is
      // locked first (as an approval locks it), so an approval not yet committed counts as missing.
      const held = await checks.findCheck(tx, owner, mailing.checkId);
      if (held === undefined) throw notFound('Check');
      await checks.lockCheck(tx, owner, held.id, held.status);
      await refuseHeld(tx, owner, [held]);
    }
    if ((await mailings.settleMailing(tx, mailingId, outcome, now)) !== 1) {
      throw new AppError(
        'validation',
        `The mailing cannot be ${outcome === 'dispatched' ? 'dispatched' : 'cancelled'}: it is already ${mailing.status}.`,
      );
    }
    const check = await checks.findCheck(tx, owner, mailing.checkId);
    if (check === undefined) throw notFound('Check');
    await applyEvent(
      tx,
      owner,
      check,
      outcome === 'dispatched' ? 'mail' : 'refund',
      outcome === 'dispatched' ? 'mailed' : 'refunded',
      now,
    );
    return { ...mailing, status: outcome, updatedAt: now };
  });
}

/** POST /mailchecks/{mailingId}/cancel: the customer withdraws a mailing before dispatch. */
export function cancelMailing(ctx: ServiceContext, principal: Principal, mailingId: string): Promise<Mailing> {
  return settle(ctx.db, principal, mailingId, 'cancelled', ctx.now());
}

/** The operator's side of the queue (the CLI). */
export async function operatorSettle(
  db: Db,
  mailingId: string,
  outcome: 'dispatched' | 'cancelled',
  now: number = Date.now(),
): Promise<Mailing> {
  const found = await mailings.findMailingAnywhere(db, mailingId);
  if (found === undefined) throw new AppError('not_found', 'Mailing not found.');
  return settle(db, found.owner, mailingId, outcome, now);
}

/** The operator's list; a queued mailing whose check still waits for approval is not shown. */
export function operatorQueue(db: Db, status: MailingStatus | null): ReturnType<typeof mailings.listMailings> {
  return mailings.listMailings(db, status);
}

/**
 * The mailings of these checks, by check id. Only a check whose statements say it was queued is
 * looked up, so the hot single-check read pays nothing for checks that were never mailed.
 */
export async function mailingsOfChecks(
  ctx: ServiceContext,
  owner: Owner,
  found: readonly Check[],
): Promise<Map<string, CheckMailing>> {
  const queued = found.filter((c) => c.statements.some((s) => s.status === MAILING_QUEUED_STATEMENT)).map((c) => c.id);
  const latest = await mailings.latestMailingsFor(ctx.db, owner, queued);
  const named = new Map<string, CheckMailing>();
  for (const [checkId, mailing] of latest) named.set(checkId, { mailing, shippingTypeName: shippingTypeName(mailing) });
  return named;
}

/** A check's mailing with its shipping type's name, as the check's read shape shows it. */
export interface CheckMailing {
  mailing: Mailing;
  shippingTypeName: string;
}

function shippingTypeName(m: Mailing): string {
  const id = m.customShippingTypeId ?? m.shippingTypeId;
  return SHIPPING_TYPES.find((t) => t.shippingTypeId === id)?.name ?? '';
}

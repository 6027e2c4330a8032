// Mailing checks (POST /mailchecks). The built-in fulfilment is a print-and-mail queue worked by
// an operator (`npx checkwriter mailings ...`): the check stays `new` while queued, becomes
// `mailed` when the operator dispatches it, and `refunded` when the mailing is cancelled before
// dispatch. Another fulfilment provider would take the queue's place behind the same calls.
import type { Owner, Principal } from '../domain/owner.ts';
import { newId } from '../domain/ids.ts';
import { AppError, notFound } from '../errors.ts';
import * as checks from '../store/checks.repository.ts';
import * as mailings from '../store/mailings.repository.ts';
import type { Mailing } from '../store/mailings.repository.ts';
import * as resources from '../store/resources.repository.ts';
import type { Db } from '../store/db.ts';
import { canHappen, statusName } from '../domain/check-status.ts';
import type { ServiceContext } from './context.ts';
import { applyEvent } from './lifecycle.service.ts';
import { rules } from './validation.ts';

/** Shipping and paper choices, numbered as clients send them (docs/lifecycle.md). */
export const SHIPPING_TYPES = [
  { shippingTypeId: 1, name: 'First-Class Mail', deliveryDays: '3-5' },
  { shippingTypeId: 2, name: 'First-Class Mail with tracking', deliveryDays: '3-5' },
  { shippingTypeId: 3, name: 'Priority Mail', deliveryDays: '1-3' },
  { shippingTypeId: 4, name: 'Overnight', deliveryDays: '1' },
] as const;

export const PAPER_TYPES = [
  { paperTypeId: 1, name: 'Standard check paper' },
  { paperTypeId: 2, name: 'Premium security check paper' },
] as const;

export interface MailCheckInput {
  checkId: string;
  shippingTypeId: number;
  paperTypeId?: number;
  customToAddressId?: string | null;
}

export async function mailChecks(ctx: ServiceContext, principal: Principal, items: readonly MailCheckInput[]): Promise<Mailing[]> {
  const now = ctx.now();
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.checkId)) throw rules.distinct(`mailChecks.${i}.checkId`);
    seen.add(item.checkId);
    if (!SHIPPING_TYPES.some((t) => t.shippingTypeId === item.shippingTypeId)) throw rules.invalid(`mailChecks.${i}.shippingTypeId`);
    if (item.paperTypeId !== undefined && !PAPER_TYPES.some((t) => t.paperTypeId === item.paperTypeId)) throw rules.invalid(`mailChecks.${i}.paperTypeId`);
  });
  return ctx.db.transaction(async (tx) => {
    const found = await checks.findChecks(tx, principal, items.map((i) => i.checkId));
    const created: Mailing[] = [];
    for (const [i, item] of items.entries()) {
      const path = `mailChecks.${i}`;
      const check = found.get(item.checkId);
      if (check === undefined) throw rules.invalid(`${path}.checkId`);
      if (!canHappen('mail', check.status)) throw rules.custom(`${path}.checkId`, `names a check that cannot be mailed: its status is ${statusName(check.status)}`);
      // Lock the row before looking for a pending mailing: two requests cannot queue the check
      // twice, nor queue it while another prints, emails, edits or deletes it.
      if (!(await checks.lockCheck(tx, principal, check.id, check.status))) throw rules.custom(`${path}.checkId`, 'names a check whose status changed; try again');
      if ((await mailings.pendingMailingFor(tx, principal, check.id)) !== undefined) throw rules.custom(`${path}.checkId`, 'names a check that is already queued for mailing');
      const toAddressId = item.customToAddressId ?? null;
      if (toAddressId !== null) {
        if ((await resources.findAddress(tx, principal, 'to', toAddressId)) === undefined) throw rules.invalid(`${path}.customToAddressId`);
      } else {
        const payee = check.payeeId === null ? undefined : await resources.findPayeeForPrinting(tx, principal, check.payeeId);
        if (payee === undefined || payee.address1 === '' || payee.city === '' || payee.zip === '') {
          throw rules.custom(`${path}.customToAddressId`, 'is required when the payee has no mailing address on record');
        }
      }
      const mailing: Mailing = { id: newId('mail', now), checkId: check.id, shippingTypeId: item.shippingTypeId, paperTypeId: item.paperTypeId ?? 1, toAddressId, status: 'queued', createdAt: now, updatedAt: now };
      await mailings.insertMailing(tx, principal, mailing);
      created.push(mailing);
    }
    return created;
  });
}

/** Ends a queued mailing: dispatched (check mailed) or cancelled (check refunded). */
async function settle(db: Db, owner: Owner, mailingId: string, outcome: 'dispatched' | 'cancelled', now: number): Promise<Mailing> {
  return db.transaction(async (tx) => {
    const mailing = await mailings.findMailing(tx, owner, mailingId);
    if (mailing === undefined) throw new AppError('not_found', 'Mailing not found.');
    if ((await mailings.settleMailing(tx, mailingId, outcome, now)) !== 1) {
      throw new AppError('validation', `The mailing cannot be ${outcome === 'dispatched' ? 'dispatched' : 'cancelled'}: it is already ${mailing.status}.`);
    }
    const check = await checks.findCheck(tx, owner, mailing.checkId);
    if (check === undefined) throw notFound('Check');
    await applyEvent(tx, owner, check, outcome === 'dispatched' ? 'mail' : 'refund', outcome === 'dispatched' ? 'mailed' : 'refunded', now);
    return { ...mailing, status: outcome, updatedAt: now };
  });
}

/** POST /mailchecks/{mailingId}/cancel: the customer withdraws a mailing before dispatch. */
export function cancelMailing(ctx: ServiceContext, principal: Principal, mailingId: string): Promise<Mailing> {
  return settle(ctx.db, principal, mailingId, 'cancelled', ctx.now());
}

/** The operator's side of the queue (the CLI). */
export async function operatorSettle(db: Db, mailingId: string, outcome: 'dispatched' | 'cancelled', now: number = Date.now()): Promise<Mailing> {
  const found = await mailings.findMailingAnywhere(db, mailingId);
  if (found === undefined) throw new AppError('not_found', 'Mailing not found.');
  return settle(db, found.owner, mailingId, outcome, now);
}

export function operatorQueue(db: Db, status: mailings.MailingStatus | null): ReturnType<typeof mailings.listMailings> {
  return mailings.listMailings(db, status);
}

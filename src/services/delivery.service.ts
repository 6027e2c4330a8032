// What the API shows of deliveries: a check's delivery rows, the sandbox inbox of test keys, and
// the payee page behind an emailed link.
import { senderName } from '../domain/account.ts';
import type { Owner, Principal } from '../domain/owner.ts';
import type { Check } from '../domain/check.ts';
import type { Delivery } from '../domain/delivery.ts';
import { statusCode, statusName } from '../domain/check-status.ts';
import { tokenHash } from '../domain/secret-tokens.ts';
import { AppError, notFound } from '../errors.ts';
import * as accounts from '../store/accounts.repository.ts';
import * as checks from '../store/checks/checks.repository.ts';
import * as deliveries from '../store/deliveries.repository.ts';
import * as payeeLinks from '../store/payee-links.repository.ts';
import * as sandboxInbox from '../store/sandbox-inbox.repository.ts';
import type { SandboxMessage } from '../domain/delivery.ts';
import { openSandboxMessage } from '../domain/sealed-sandbox.ts';
import type { ServiceContext } from './context.ts';
import { checkPdf } from './checks/print.service.ts';
import { refuseHeld } from './approvals/approvals.service.ts';
import { checkEventData, emit } from './events.ts';
import { systemActor } from '../domain/actor.ts';

export async function checkDeliveries(ctx: ServiceContext, owner: Owner, checkId: string): Promise<Delivery[]> {
  const check = await checks.findCheck(ctx.db, owner, checkId);
  if (check === undefined) throw notFound('Check');
  return deliveriesOf(ctx, owner, check);
}

/** The deliveries of a check the caller has already read under `owner` (no second read of the check). */
export function deliveriesOf(ctx: ServiceContext, owner: Owner, check: Check): Promise<Delivery[]> {
  return deliveries.deliveriesForCheck(ctx.db, owner, check.id);
}

export async function sandboxMessages(
  ctx: ServiceContext,
  principal: Principal,
  limit: number,
  offset: number,
): Promise<{ total: number; items: SandboxMessage[] }> {
  if (principal.env !== 'test')
    throw new AppError('forbidden', 'The sandbox inbox holds what test keys send; use a test key.');
  const stored = await sandboxInbox.listSandboxMessages(ctx.db, principal.accountId, limit, offset);
  return { total: stored.total, items: stored.items.map((m) => openSandboxMessage(ctx.vault, m)) };
}

/** Check messages of a test key still queued: the inbox shows them as "sending…" until the worker sends them. */
export function sandboxSending(ctx: ServiceContext, principal: Principal): Promise<number> {
  return deliveries.countQueuedCheckDeliveries(ctx.db, { accountId: principal.accountId, env: 'test' });
}

/** One message of the sandbox inbox (the panel's message page); other accounts' ids are not found. */
export async function sandboxMessage(ctx: ServiceContext, accountId: string, id: string): Promise<SandboxMessage> {
  const message = await sandboxInbox.findSandboxMessage(ctx.db, accountId, id);
  if (message === undefined) throw new AppError('not_found', 'Message not found.');
  return openSandboxMessage(ctx.vault, message);
}

export interface PayeeView {
  check: Check;
  company: string;
  /** The sender's address and phone from the account settings, those set: payees see who sent it. */
  senderContact: string[];
  owner: Owner;
  timeZone: string;
}

export type PayeePageProblem = 'unknown' | 'expired' | 'void';

/** The check behind a payee link, or why it cannot be shown. */
export async function payeeView(ctx: ServiceContext, token: string): Promise<PayeeView | PayeePageProblem> {
  const link = await payeeLinks.findLink(ctx.db, tokenHash(token));
  if (link === undefined) return 'unknown';
  if (link.expiresAt <= ctx.now()) return 'expired';
  const check = await checks.findCheck(ctx.db, link.owner, link.checkId);
  if (check === undefined) return 'unknown';
  const name = statusName(check.status);
  if (name === 'void' || name === 'refunded') return 'void';
  const account = await accounts.findAccountById(ctx.db, link.owner.accountId);
  const settings = await accounts.findAccountSettings(ctx.db, link.owner.accountId);
  return {
    check,
    company: account === undefined ? '' : senderName(account),
    senderContact: [settings?.companyAddress ?? '', settings?.companyPhone ?? ''].filter((l) => l !== ''),
    owner: link.owner,
    timeZone: account?.timeZone ?? 'UTC',
  };
}

/**
 * The payee downloads the check to print it: the PDF, and the check moves from `emailed` to
 * `eprinted` with its statement (once; later downloads change nothing).
 */
export async function payeeDownload(
  ctx: ServiceContext,
  view: PayeeView,
): Promise<{ pdf: Buffer; serialNumber: string }> {
  const principal: Principal = {
    ...view.owner,
    keyId: '',
    timeZone: view.timeZone,
    actor: systemActor('payee download'),
  };
  await refuseHeld(ctx.db, view.owner, [view.check]);
  const result = await checkPdf(ctx, principal, view.check.id, { lane: 'payee' });
  if (statusName(view.check.status) === 'emailed') {
    await ctx.db.transaction(async (tx) => {
      const moved = await checks.moveStatus(
        tx,
        view.owner,
        view.check.id,
        statusCode('emailed'),
        statusCode('eprinted'),
      );
      if (moved === 1) {
        await checks.insertStatements(tx, [{ checkId: view.check.id, status: 'eprinted', at: ctx.now() }]);
        await emit(
          tx,
          view.owner,
          [{ type: 'check.eprinted', data: checkEventData({ ...view.check, status: statusCode('eprinted') }) }],
          ctx.now(),
        );
      }
    });
  }
  return result;
}

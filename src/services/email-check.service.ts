import type { Principal } from '../domain/owner.ts';
import type { Delivery } from '../domain/delivery.ts';
import { newId } from '../domain/ids.ts';
import { canEmail, statusName } from '../domain/check-status.ts';
import { applyEvent, assertNotQueuedForMail } from './checks/lifecycle.service.ts';
import { refuseHeld } from './approvals/approvals.service.ts';
import { AppError } from '../errors.ts';
import * as accounts from '../store/accounts.repository.ts';
import * as checks from '../store/checks/checks.repository.ts';
import * as deliveries from '../store/deliveries.repository.ts';
import * as payeeLinks from '../store/payee-links.repository.ts';
import * as payeeStore from '../store/payees.repository.ts';
import type { ServiceContext } from './context.ts';
import { normalisePhone } from './payee.service.ts';
import { deliveryTokenContext } from '../domain/sealed.ts';
import { currentDataKeyId } from '../store/server-secret.ts';
import { randomToken, tokenHash } from '../domain/secret-tokens.ts';
import { rules } from './validation.ts';
import { flag } from './checks/write.service.ts';
import type { EmailCheckInput } from '../schemas/email-checks.ts';

/** The spec's 403 text (spec "Errors", POST /emailchecks). */
export const UNVERIFIED_MESSAGE = 'Please verify your phone number and email address to enable mail check.';

/**
 * POST /emailchecks. In one transaction: each check moves to `emailed` with its statement, and one
 * delivery row per message is queued (the outbox); the response never waits for SMTP.
 */
/** The account owner's email and phone must both be verified (spec "Errors", 403). */
export async function assertMayEmail(ctx: ServiceContext, principal: Principal): Promise<void> {
  const account = await accounts.findAccountById(ctx.db, principal.accountId);
  if (account === undefined || !account.emailVerified || !account.phoneVerified)
    throw new AppError('forbidden', UNVERIFIED_MESSAGE);
}

export async function emailChecks(
  ctx: ServiceContext,
  principal: Principal,
  items: readonly EmailCheckInput[],
): Promise<void> {
  // The 403 comes before any item is looked at (API decisions, "Email checks").
  await assertMayEmail(ctx, principal);

  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.checkId)) throw rules.distinct(`emailChecks.${i}.checkId`);
    seen.add(item.checkId);
  });

  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const found = await checks.findChecks(
      tx,
      principal,
      items.map((item) => item.checkId),
    );
    const payees = await payeeStore.findPayees(tx, principal, [
      ...new Set([...found.values()].map((c) => c.payeeId).filter((id): id is string => id !== null)),
    ]);
    const queued: Delivery[] = [];
    for (const [i, item] of items.entries()) {
      const path = `emailChecks.${i}`;
      const check = found.get(item.checkId);
      if (check === undefined) throw rules.invalid(`${path}.checkId`);
      if (!canEmail(check.status))
        throw rules.custom(
          `${path}.checkId`,
          `names a check that cannot be emailed: its status is ${statusName(check.status)}`,
        );
      const payee = check.payeeId === null ? undefined : payees.get(check.payeeId);
      const email = item.payeeEmail ?? payee?.email ?? '';
      if (email === '') throw rules.custom(`${path}.payeeEmail`, 'is required when the payee has no email on record');
      const base = {
        checkId: check.id,
        status: 'queued' as const,
        attempts: 0,
        nextAttemptAt: now,
        lastError: null,
        createdAt: now,
        sentAt: null,
      };
      queued.push({
        ...base,
        id: newId('dlv', now),
        channel: 'email',
        recipient: email,
        payload: { sendAttachment: item.sendAttachment === true || Number(item.sendAttachment ?? 0) === 1 ? 1 : 0 },
      });
      if (flag(item.enableSmsInform)) {
        const rawPhone = item.payeePhone ?? payee?.phone ?? '';
        if (rawPhone === '')
          throw rules.custom(
            `${path}.payeePhone`,
            'is required when enableSmsInform is true and the payee has no phone on record',
          );
        const phone = normalisePhone(rawPhone);
        if (phone === null) throw rules.custom(`${path}.payeePhone`, 'must be a valid phone number');
        queued.push({ ...base, id: newId('dlv', now), channel: 'sms', recipient: phone, payload: {} });
      }
      await assertNotQueuedForMail(tx, principal, check, 'emailed');
      await refuseHeld(tx, principal, [check]);
      await applyEvent(tx, principal, check, 'email', 'emailed', now);
    }

    // Each message carries its own payee link, a random token: the database keeps its hash for
    // the page, and the token itself only sealed in the outbox row until the message is sent.
    const keyId = await currentDataKeyId(tx);
    const tokens = new Map(queued.map((d) => [d.id, randomToken()] as const));
    const sealed = queued.map((d) => ({
      ...d,
      sealedToken: ctx.vault.seal(tokens.get(d.id) ?? '', keyId, deliveryTokenContext(d.id)),
    }));
    await deliveries.insertDeliveries(tx, principal, sealed);
    // The page it opens lives as long as the link.
    const expiresAt = now + ctx.config.delivery.payeeLinkDays * 86_400_000;
    await payeeLinks.insertLinks(
      tx,
      principal,
      queued.flatMap((d) =>
        d.checkId === null
          ? []
          : [{ tokenHash: tokenHash(tokens.get(d.id) ?? ''), checkId: d.checkId, expiresAt, createdAt: now }],
      ),
    );
  });
}

// Who hears about approvals (docs/approvals.md), queued in the outbox in the transaction of the
// step: every approver gets one email per batch of checks that wait (never the writer of them),
// and a check's writer one email per decision batch when checks are approved or rejected.
import type { Check } from '../../domain/check.ts';
import { newId } from '../../domain/ids.ts';
import type { Owner } from '../../domain/owner.ts';
import { isRole, may } from '../../domain/people/roles.ts';
import { type Delivery, queuedMessage } from '../../domain/delivery.ts';
import * as store from '../../store/approvals/approvals.repository.ts';
import type { Queryable } from '../../store/db.ts';
import * as deliveries from '../../store/deliveries.repository.ts';

export interface NewsCheck {
  readonly serialNumber: string;
  readonly amountCents: number | null;
  readonly payee: string;
}

function email(recipient: string, payload: Record<string, unknown>, now: number): Delivery {
  return queuedMessage(newId('dlv', now), 'email', recipient, payload, null, now);
}

/** One email to each approver of the company but the checks' writer, listing the checks that wait. */
export async function tellApprovers(
  tx: Queryable,
  owner: Owner,
  writerPersonId: string | null,
  checks: readonly NewsCheck[],
  now: number,
): Promise<void> {
  if (checks.length === 0) return;
  const approvers = (await store.members(tx, owner.accountId)).filter(
    (m) =>
      m.id !== writerPersonId && isRole(m.role) && may({ role: m.role, approves: m.approves === 1 }, 'checks.approve'),
  );
  await deliveries.insertDeliveries(
    tx,
    owner,
    approvers.map((a) => email(a.email, { approval: 'waiting', checks }, now)),
  );
}

/** One email to the writer (when a person) of the checks approved or rejected in one decision. */
export async function tellWriter(
  tx: Queryable,
  owner: Owner,
  writerPersonId: string,
  news: 'approved' | 'rejected',
  checks: readonly NewsCheck[],
  reason: string | null,
  now: number,
): Promise<void> {
  if (checks.length === 0) return;
  const writer = (await store.members(tx, owner.accountId)).find((m) => m.id === writerPersonId);
  if (writer === undefined) return;
  await deliveries.insertDeliveries(tx, owner, [email(writer.email, { approval: news, checks, reason }, now)]);
}

/** A check as its news names it. */
export function newsOf(check: Check): NewsCheck {
  return { serialNumber: check.serialNumber, amountCents: check.amountCents, payee: check.payeeName ?? '' };
}

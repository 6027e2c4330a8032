// Events: what happened to a check or a delivery, queued for every webhook endpoint that listens,
// in the same transaction as the change itself (so an event is never lost, nor sent for a change
// that rolled back).
import type { Owner } from '../domain/owner.ts';
import type { Check } from '../domain/check.ts';
import { newId } from '../domain/ids.ts';
import { centsToNumber } from '../domain/money.ts';
import { statusDescription } from '../domain/check-status.ts';
import type { Queryable } from '../store/db.ts';
import * as events from '../store/events.repository.ts';
import type { EventType } from '../domain/event-types.ts';

type EventFields = Pick<Check, 'id' | 'serialNumber' | 'amountCents' | 'referenceId' | 'bankAccountId' | 'payeeId'>;

/** The check as events describe it. */
export function checkEventData(check: EventFields & Pick<Check, 'status'>): Record<string, unknown> {
  return eventData(check, check.status);
}

/**
 * A check just written (status new) as events describe it: the same object as
 * `checkEventData({ ...check, status: 0 })` without a copy of the whole check (500 in a batch).
 */
export function newCheckEventData(check: EventFields): Record<string, unknown> {
  return eventData(check, 0);
}

function eventData(check: EventFields, status: number): Record<string, unknown> {
  return {
    checkId: check.id,
    serialNumber: check.serialNumber,
    amount: check.amountCents === null ? null : centsToNumber(check.amountCents),
    status,
    statusDescription: statusDescription(status),
    referenceId: check.referenceId,
    bankAccountId: check.bankAccountId,
    payeeId: check.payeeId,
  };
}

/**
 * Records events and queues one webhook delivery per listening endpoint. Without endpoints it
 * writes nothing, so an account that uses no webhooks pays nothing for them.
 */
export async function emit(
  q: Queryable,
  owner: Owner,
  items: readonly { type: EventType; data: Record<string, unknown> }[],
  now: number,
): Promise<void> {
  if (items.length === 0) return;
  const endpoints = await events.listEndpoints(q, owner);
  if (endpoints.length === 0) return;
  const stored = items.map((item) => ({ id: newId('evt', now), type: item.type, data: item.data, createdAt: now }));
  const wanted = stored.filter((e) => endpoints.some((ep) => ep.events.includes(e.type)));
  await events.insertEvents(q, owner, wanted);
  await events.queueWebhooks(
    q,
    owner,
    wanted.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpoint.events.includes(event.type))
        .map((endpoint) => ({
          id: newId('dlv', now),
          endpointId: endpoint.id,
          eventId: event.id,
          url: endpoint.url,
          now,
        })),
    ),
  );
}

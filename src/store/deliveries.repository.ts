// The outbox (deliveries): the row as stored, queueing a change's messages, and a check's
// deliveries as the API lists them. What the delivery worker does with the rows (claims, leases,
// outcomes) is delivery-claims.repository.ts; webhook rows are queued by events.repository.ts.
import type { Delivery } from '../domain/delivery.ts';
import type { Environment, Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { owned } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertRows } from './table.ts';

/** The deliveries table (the outbox) as stored (migrations 001, 003, 004, 009). */
export interface DeliveriesRow {
  id: string;
  account_id: string;
  env: Environment;
  check_id: string | null;
  channel: Delivery['channel'];
  recipient: string;
  payload: string;
  status: Delivery['status'];
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  lease_until: number | null;
  sealed_token: string | null;
  endpoint_id: string | null;
  event_id: string | null;
  response_status: number | null;
}

export const DELIVERIES = defineTable<DeliveriesRow>()('deliveries', [
  'id',
  'account_id',
  'env',
  'check_id',
  'channel',
  'recipient',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'last_error',
  'created_at',
  'sent_at',
  'lease_until',
  'sealed_token',
  'endpoint_id',
  'event_id',
  'response_status',
]);

/** What reads select: every column, in the table's order. */
export const DELIVERY_COLUMNS = columnList(DELIVERIES);

/** A row of the outbox, every column named; what is not given is the column's empty value. */
export function deliveriesRow(
  owner: Owner,
  fields: Partial<DeliveriesRow> &
    Pick<DeliveriesRow, 'id' | 'channel' | 'recipient' | 'created_at' | 'next_attempt_at'>,
): DeliveriesRow {
  return {
    account_id: owner.accountId,
    env: owner.env,
    check_id: null,
    payload: '{}',
    status: 'queued',
    attempts: 0,
    last_error: null,
    sent_at: null,
    lease_until: null,
    sealed_token: null,
    endpoint_id: null,
    event_id: null,
    response_status: null,
    ...fields,
  };
}

/** Queues deliveries: written in the same transaction as the change that causes them. */
export async function insertDeliveries(q: Queryable, owner: Owner, deliveries: readonly Delivery[]): Promise<void> {
  await insertRows(
    q,
    DELIVERIES,
    deliveries.map((d) =>
      deliveriesRow(owner, {
        id: d.id,
        check_id: d.checkId,
        channel: d.channel,
        recipient: d.recipient,
        payload: JSON.stringify(d.payload),
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.nextAttemptAt,
        last_error: d.lastError,
        created_at: d.createdAt,
        sent_at: d.sentAt,
        sealed_token: d.sealedToken ?? null,
      }),
    ),
  );
}

export function toDelivery(r: DeliveriesRow): Delivery {
  return {
    id: r.id,
    checkId: r.check_id,
    channel: r.channel,
    recipient: r.recipient,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    status: r.status,
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    sentAt: r.sent_at === null ? null : Number(r.sent_at),
  };
}

/** A check's email and SMS deliveries, oldest first (its webhook rows are the endpoint's). */
export async function deliveriesForCheck(q: Queryable, owner: Owner, checkId: string): Promise<Delivery[]> {
  const s = sql`SELECT ${raw(DELIVERY_COLUMNS)} FROM deliveries WHERE check_id = ${checkId} AND ${owned(owner)} AND channel <> 'webhook' ORDER BY created_at, id`;
  const rows = await q.all<DeliveriesRow>(s.text, s.params);
  return rows.map(toDelivery);
}

/** How many of the owner's check messages still wait for the worker (the sandbox inbox says "sending…"). */
export async function countQueuedCheckDeliveries(q: Queryable, owner: Owner): Promise<number> {
  const s = sql`SELECT COUNT(*) AS n FROM deliveries WHERE ${owned(owner)} AND status = 'queued' AND check_id IS NOT NULL`;
  const row = await q.get<{ n: number | string }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

// Webhook endpoints and the events sent to them (through the deliveries outbox).
import type { Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { DELIVERIES, deliveriesRow } from './deliveries.repository.ts';
import { defineTable, insertRows } from './table.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../domain/webhook.ts';

interface EndpointRow {
  id: string;
  url: string;
  secret: string;
  events: string;
  created_at: number;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  secret: r.secret,
  events: JSON.parse(r.events) as string[],
  createdAt: Number(r.created_at),
});

export async function insertEndpoint(q: Queryable, owner: Owner, e: WebhookEndpoint): Promise<void> {
  await q.run(
    'INSERT INTO webhook_endpoints (id, account_id, env, url, secret, events, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [e.id, owner.accountId, owner.env, e.url, e.secret, JSON.stringify(e.events), e.createdAt],
  );
}

export async function listEndpoints(q: Queryable, owner: Owner): Promise<WebhookEndpoint[]> {
  const rows = await q.all<EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE account_id = ? AND env = ? AND deleted_at IS NULL ORDER BY created_at, id',
    [owner.accountId, owner.env],
  );
  return rows.map(toEndpoint);
}

export async function findEndpoint(q: Queryable, owner: Owner, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await q.get<EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ? AND env = ? AND deleted_at IS NULL',
    [id, owner.accountId, owner.env],
  );
  return row === undefined ? undefined : toEndpoint(row);
}

export async function deleteEndpoint(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  return q.run(
    'UPDATE webhook_endpoints SET deleted_at = ? WHERE id = ? AND account_id = ? AND env = ? AND deleted_at IS NULL',
    [now, id, owner.accountId, owner.env],
  );
}

export interface StoredEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}

interface EventsRow {
  id: string;
  account_id: string;
  env: string;
  type: string;
  data: string;
  created_at: number;
}

const EVENTS = defineTable<EventsRow>()('events', ['id', 'account_id', 'env', 'type', 'data', 'created_at']);

export async function insertEvents(q: Queryable, owner: Owner, events: readonly StoredEvent[]): Promise<void> {
  await insertRows(
    q,
    EVENTS,
    events.map((e) => ({
      id: e.id,
      account_id: owner.accountId,
      env: owner.env,
      type: e.type,
      data: JSON.stringify(e.data),
      created_at: e.createdAt,
    })),
  );
}

export async function findEvent(q: Queryable, id: string): Promise<StoredEvent | undefined> {
  const row = await q.get<{ id: string; type: string; data: string; created_at: number }>(
    'SELECT * FROM events WHERE id = ?',
    [id],
  );
  return row === undefined
    ? undefined
    : {
        id: row.id,
        type: row.type,
        data: JSON.parse(row.data) as Record<string, unknown>,
        createdAt: Number(row.created_at),
      };
}

/** Queues webhook deliveries (one per event and listening endpoint) in the outbox. */
export async function queueWebhooks(
  q: Queryable,
  owner: Owner,
  list: readonly { id: string; endpointId: string; eventId: string; url: string; now: number }[],
): Promise<void> {
  await insertRows(
    q,
    DELIVERIES,
    list.map((d) =>
      deliveriesRow(owner, {
        id: d.id,
        channel: 'webhook',
        recipient: d.url,
        next_attempt_at: d.now,
        created_at: d.now,
        endpoint_id: d.endpointId,
        event_id: d.eventId,
      }),
    ),
  );
}

export async function webhookDeliveries(
  q: Queryable,
  owner: Owner,
  endpointId: string,
  limit: number,
): Promise<WebhookDelivery[]> {
  const rows = await q.all<{
    id: string;
    event_id: string;
    type: string;
    status: string;
    attempts: number;
    response_status: number | null;
    last_error: string | null;
    created_at: number;
    sent_at: number | null;
  }>(
    `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.response_status, d.last_error, d.created_at, d.sent_at
     FROM deliveries d JOIN events e ON e.id = d.event_id
     WHERE d.endpoint_id = ? AND d.account_id = ? AND d.env = ? ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
    [endpointId, owner.accountId, owner.env, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventType: r.type,
    status: r.status,
    attempts: Number(r.attempts),
    responseStatus: r.response_status === null ? null : Number(r.response_status),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    sentAt: r.sent_at === null ? null : Number(r.sent_at),
  }));
}

/** Puts a webhook delivery back in the queue, due now (redelivery on request). */
export async function requeueWebhook(
  q: Queryable,
  owner: Owner,
  endpointId: string,
  deliveryId: string,
  now: number,
): Promise<number> {
  return q.run(
    "UPDATE deliveries SET status = 'queued', next_attempt_at = ?, attempts = 0, lease_until = NULL WHERE id = ? AND endpoint_id = ? AND account_id = ? AND env = ? AND status IN ('sent', 'failed')",
    [now, deliveryId, endpointId, owner.accountId, owner.env],
  );
}

export async function setResponseStatus(q: Queryable, deliveryId: string, status: number | null): Promise<void> {
  await q.run('UPDATE deliveries SET response_status = ? WHERE id = ?', [status, deliveryId]);
}

// Webhook endpoints and the events sent to them (through the deliveries outbox).
import type { Environment, Owner } from '../domain/owner.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../domain/webhook.ts';
import type { Queryable } from './db.ts';
import { DELIVERIES, deliveriesRow } from './deliveries.repository.ts';
import { owned } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertRows, insertStatement, rowValues } from './table.ts';

/** The webhook_endpoints table as stored (migration 004). */
interface WebhookEndpointsRow {
  id: string;
  account_id: string;
  env: Environment;
  url: string;
  secret: string;
  events: string;
  created_at: number;
  deleted_at: number | null;
}

const WEBHOOK_ENDPOINTS = defineTable<WebhookEndpointsRow>()('webhook_endpoints', [
  'id',
  'account_id',
  'env',
  'url',
  'secret',
  'events',
  'created_at',
  'deleted_at',
]);

const INSERT_ENDPOINT = insertStatement(WEBHOOK_ENDPOINTS);
const ENDPOINT_COLUMNS = raw(columnList(WEBHOOK_ENDPOINTS, { except: ['account_id', 'env', 'deleted_at'] }));

type EndpointRow = Pick<WebhookEndpointsRow, 'id' | 'url' | 'secret' | 'events' | 'created_at'>;

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  secret: r.secret,
  events: JSON.parse(r.events) as string[],
  createdAt: Number(r.created_at),
});

export async function insertEndpoint(q: Queryable, owner: Owner, e: WebhookEndpoint): Promise<void> {
  await q.run(
    INSERT_ENDPOINT,
    rowValues(WEBHOOK_ENDPOINTS, {
      id: e.id,
      account_id: owner.accountId,
      env: owner.env,
      url: e.url,
      secret: e.secret,
      events: JSON.stringify(e.events),
      created_at: e.createdAt,
      deleted_at: null,
    }),
  );
}

export async function listEndpoints(q: Queryable, owner: Owner): Promise<WebhookEndpoint[]> {
  const s = sql`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE ${owned(owner, { live: true })} ORDER BY created_at, id`;
  const rows = await q.all<EndpointRow>(s.text, s.params);
  return rows.map(toEndpoint);
}

export async function findEndpoint(q: Queryable, owner: Owner, id: string): Promise<WebhookEndpoint | undefined> {
  const s = sql`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  const row = await q.get<EndpointRow>(s.text, s.params);
  return row === undefined ? undefined : toEndpoint(row);
}

export async function deleteEndpoint(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  const s = sql`UPDATE webhook_endpoints SET deleted_at = ${now} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}

export interface StoredEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}

/** The events table as stored (migration 004). */
interface EventsRow {
  id: string;
  account_id: string;
  env: Environment;
  type: string;
  data: string;
  created_at: number;
}

const EVENTS = defineTable<EventsRow>()('events', ['id', 'account_id', 'env', 'type', 'data', 'created_at']);
const EVENT_COLUMNS = raw(columnList(EVENTS, { except: ['account_id', 'env'] }));

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
  const s = sql`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ${id}`;
  const row = await q.get<Omit<EventsRow, 'account_id' | 'env'>>(s.text, s.params);
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
  const s = sql`SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.response_status, d.last_error, d.created_at, d.sent_at
     FROM deliveries d JOIN events e ON e.id = d.event_id
     WHERE d.endpoint_id = ${endpointId} AND ${owned(owner, { alias: 'd' })} ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`;
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
  }>(s.text, s.params);
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
  const s = sql`UPDATE deliveries SET status = 'queued', next_attempt_at = ${now}, attempts = 0, lease_until = NULL WHERE id = ${deliveryId} AND endpoint_id = ${endpointId} AND ${owned(owner)} AND status IN ('sent', 'failed')`;
  return q.run(s.text, s.params);
}

export async function setResponseStatus(q: Queryable, deliveryId: string, status: number | null): Promise<void> {
  const s = sql`UPDATE deliveries SET response_status = ${status} WHERE id = ${deliveryId}`;
  await q.run(s.text, s.params);
}

// Webhook endpoints over the API. Each endpoint has its own secret; events reach it through the
// deliveries outbox (retries with backoff, a delivery log, redelivery on request).
import { record } from './audit.service.ts';
import { changesBetween } from '../domain/audit.ts';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../domain/owner.ts';
import { newId } from '../domain/ids.ts';
import { refusedUrl } from '../domain/public-address.ts';
import { AppError } from '../errors.ts';
import * as events from '../store/events.repository.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../domain/webhook.ts';
import type { ServiceContext } from './context.ts';
import { EVENT_TYPES } from '../domain/event-types.ts';
import { rules } from './validation.ts';

const notFound = (): AppError => new AppError('not_found', 'Webhook not found.');

export async function createEndpoint(
  ctx: ServiceContext,
  principal: Principal,
  input: { url: string; events?: string[] },
): Promise<WebhookEndpoint> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw rules.custom('url', 'must be an http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw rules.custom('url', 'must be an http or https URL');
  // Endpoints must be public (no requests into the operator's network) in both environments unless
  // the operator allows private ones. What a name resolves to is checked again at every delivery.
  if (!ctx.config.webhooksAllowPrivate) {
    const why = refusedUrl(url);
    if (why !== null)
      throw rules.custom('url', `must point at a public address on port 80, 443 or 1024-65535 (${why})`);
  }
  const wanted = input.events ?? [...EVENT_TYPES];
  for (const [i, type] of wanted.entries())
    if (!(EVENT_TYPES as readonly string[]).includes(type)) throw rules.invalid(`events.${i}`);
  const endpoint: WebhookEndpoint = {
    id: newId('whk', ctx.now()),
    url: url.toString(),
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    events: [...new Set(wanted)],
    createdAt: ctx.now(),
  };
  await ctx.db.transaction(async (tx) => {
    await events.insertEndpoint(tx, principal, endpoint);
    // The endpoint's signing secret never enters the trail.
    await record(
      tx,
      principal,
      [
        {
          action: 'webhook.create',
          objectType: 'webhook',
          objectId: endpoint.id,
          changes: changesBetween(null, endpoint, ['url', 'events']),
        },
      ],
      ctx.now(),
    );
  });
  return endpoint;
}

export function listEndpoints(ctx: ServiceContext, principal: Principal): Promise<WebhookEndpoint[]> {
  return events.listEndpoints(ctx.db, principal);
}

export async function deleteEndpoint(ctx: ServiceContext, principal: Principal, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if ((await events.deleteEndpoint(tx, principal, id, ctx.now())) === 0) throw notFound();
    await record(tx, principal, [{ action: 'webhook.delete', objectType: 'webhook', objectId: id }], ctx.now());
  });
}

export async function endpointDeliveries(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] }> {
  const endpoint = await events.findEndpoint(ctx.db, principal, id);
  if (endpoint === undefined) throw notFound();
  return { endpoint, deliveries: await events.webhookDeliveries(ctx.db, principal, id, 100) };
}

/** Sends a delivered or failed event again, now. */
export async function redeliver(
  ctx: ServiceContext,
  principal: Principal,
  endpointId: string,
  deliveryId: string,
): Promise<void> {
  if ((await events.findEndpoint(ctx.db, principal, endpointId)) === undefined) throw notFound();
  if ((await events.requeueWebhook(ctx.db, principal, endpointId, deliveryId, ctx.now())) === 0) {
    throw new AppError('not_found', 'Webhook delivery not found, or still queued.');
  }
}

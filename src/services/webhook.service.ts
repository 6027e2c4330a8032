// Webhook endpoints over the API. Each endpoint has its own secret; events reach it through the
// deliveries outbox (retries with backoff, a delivery log, redelivery on request).
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { Principal } from '../domain/owner.ts';
import { newId } from '../domain/ids.ts';
import { AppError } from '../errors.ts';
import * as events from '../store/events.repository.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../store/events.repository.ts';
import type { ServiceContext } from './context.ts';
import { EVENT_TYPES } from './events.ts';
import { rules } from './validation.ts';

const notFound = (): AppError => new AppError('not_found', 'Webhook not found.');

/** Loopback, private, link-local and unspecified addresses, IPv4 and IPv6 (SSRF targets). */
export function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.internal') || h.endsWith('.local')) return true;
  const kind = isIP(h);
  if (kind === 4) {
    const [a = 0, b = 0] = h.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (kind === 6) return h === '::1' || h === '::' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80') || h.startsWith('::ffff:');
  return false;
}

export async function createEndpoint(ctx: ServiceContext, principal: Principal, input: { url: string; events?: string[] }): Promise<WebhookEndpoint> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw rules.custom('url', 'must be an http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw rules.custom('url', 'must be an http or https URL');
  // Live endpoints must be public (no requests into the operator's network) unless allowed.
  if (principal.env === 'live' && !ctx.config.webhooksAllowPrivate && isPrivateHost(url.hostname)) {
    throw rules.custom('url', 'must not point at a private or loopback address in the live environment');
  }
  const wanted = input.events ?? [...EVENT_TYPES];
  for (const [i, type] of wanted.entries()) if (!(EVENT_TYPES as readonly string[]).includes(type)) throw rules.invalid(`events.${i}`);
  const endpoint: WebhookEndpoint = { id: newId('whk', ctx.now()), url: url.toString(), secret: `whsec_${randomBytes(24).toString('base64url')}`, events: [...new Set(wanted)], createdAt: ctx.now() };
  await events.insertEndpoint(ctx.db, principal, endpoint);
  return endpoint;
}

export function listEndpoints(ctx: ServiceContext, principal: Principal): Promise<WebhookEndpoint[]> {
  return events.listEndpoints(ctx.db, principal);
}

export async function deleteEndpoint(ctx: ServiceContext, principal: Principal, id: string): Promise<void> {
  if ((await events.deleteEndpoint(ctx.db, principal, id, ctx.now())) === 0) throw notFound();
}

export async function endpointDeliveries(ctx: ServiceContext, principal: Principal, id: string): Promise<{ endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] }> {
  const endpoint = await events.findEndpoint(ctx.db, principal, id);
  if (endpoint === undefined) throw notFound();
  return { endpoint, deliveries: await events.webhookDeliveries(ctx.db, principal, id, 100) };
}

/** Sends a delivered or failed event again, now. */
export async function redeliver(ctx: ServiceContext, principal: Principal, endpointId: string, deliveryId: string): Promise<void> {
  if ((await events.findEndpoint(ctx.db, principal, endpointId)) === undefined) throw notFound();
  if ((await events.requeueWebhook(ctx.db, principal, endpointId, deliveryId, ctx.now())) === 0) {
    throw new AppError('not_found', 'Webhook delivery not found, or still queued.');
  }
}

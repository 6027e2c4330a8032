// Checking that a webhook came from your checkwriter server. Each delivery carries
// `Checkwriter-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under the
// endpoint's secret (shown when the endpoint is created), and `Signature: <hex HMAC of the raw
// body>` as the hosted service sends it. Verify against the raw bytes as received, before parsing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface WebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface VerifyOptions {
  /** The raw request body, exactly as received. */
  payload: string | Uint8Array;
  /** The Checkwriter-Signature header. */
  header: string | null | undefined;
  /** The endpoint's secret. */
  secret: string;
  /** Oldest acceptable timestamp, in seconds from now (replays); default 300. */
  toleranceSeconds?: number;
  /** Current time in ms; default Date.now(). */
  now?: number;
}

function hmacHex(secret: string, data: string | Uint8Array): Buffer {
  return Buffer.from(createHmac('sha256', secret).update(data).digest('hex'));
}

function sameHex(expected: Buffer, given: string): boolean {
  const candidate = Buffer.from(given);
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/** Throws WebhookSignatureError unless the payload is signed by `secret` within the tolerance; returns the event. */
export function verifyWebhook(options: VerifyOptions): WebhookEvent {
  const header = options.header ?? '';
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const name = item.slice(0, eq).trim();
    parts.set(name, [...(parts.get(name) ?? []), item.slice(eq + 1).trim()]);
  }
  const timestamp = parts.get('t')?.[0];
  const signatures = parts.get('v1') ?? [];
  if (timestamp === undefined || !/^\d+$/.test(timestamp) || signatures.length === 0)
    throw new WebhookSignatureError('Checkwriter-Signature header missing or malformed');
  const ageSeconds = ((options.now ?? Date.now()) - Number(timestamp) * 1000) / 1000;
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(ageSeconds) > tolerance)
    throw new WebhookSignatureError(
      `signature timestamp is ${Math.round(ageSeconds)} s away from now (tolerance ${tolerance} s)`,
    );
  const payload = typeof options.payload === 'string' ? Buffer.from(options.payload) : Buffer.from(options.payload);
  const expected = hmacHex(options.secret, Buffer.concat([Buffer.from(`${timestamp}.`), payload]));
  if (!signatures.some((given) => sameHex(expected, given)))
    throw new WebhookSignatureError('signature does not match the payload');
  const parsed = JSON.parse(payload.toString('utf8')) as { event?: WebhookEvent };
  if (parsed.event === undefined) throw new WebhookSignatureError('payload holds no event');
  return parsed.event;
}

/** The hosted service's `Signature` header (no timestamp, so no replay protection). */
export function verifyLegacySignature(
  payload: string | Uint8Array,
  signature: string | null | undefined,
  secret: string,
): boolean {
  return sameHex(hmacHex(secret, payload), signature ?? '');
}

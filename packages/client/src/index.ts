// A typed client for the Check Writing API v3 as checkwriter serves it. The request and response
// types come from the server's own OpenAPI document (src/schema.ts, generated); openapi-fetch
// makes the calls; retryingFetch adds idempotency keys and retries.
import createClient, { type Client } from 'openapi-fetch';
import { retryingFetch, type RetryOptions } from './retrying-fetch.ts';
import type { paths } from './schema.ts';

export type { components, paths } from './schema.ts';
export { retryAfterMs, retryingFetch, type RetryOptions } from './retrying-fetch.ts';
export {
  verifyLegacySignature,
  verifyWebhook,
  WebhookSignatureError,
  type VerifyOptions,
  type WebhookEvent,
} from './webhooks.ts';

export interface CheckwriterOptions extends RetryOptions {
  /** The server's base URL, e.g. https://checks.example.com (with or without /api/v3). */
  baseUrl: string;
  /** An API key made in the panel or with `checkwriter keys create`. */
  apiKey: string;
}

export type CheckwriterClient = Client<paths>;

export function createCheckwriterClient(options: CheckwriterOptions): CheckwriterClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  return createClient<paths>({
    baseUrl: base.endsWith('/api/v3') ? base : `${base}/api/v3`,
    headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
    fetch: retryingFetch(options),
  });
}

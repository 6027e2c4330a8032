// A fetch that retries what is safe to retry. Every POST/PUT/DELETE carries an Idempotency-Key
// (the caller's, or a fresh UUID), and the same key goes with every attempt of that call, so the
// server runs the request at most once and answers a retry with the first response (docs/
// lifecycle.md on the server side). Retried: network failures, 429, 500, 502, 503, 504.

export interface RetryOptions {
  /** Attempts after the first; default 3. */
  maxRetries?: number;
  /** First backoff in ms, doubled each attempt with full jitter; default 500. */
  baseDelayMs?: number;
  /** No single wait is longer, whatever Retry-After says; default 30,000. */
  maxDelayMs?: number;
  /** Makes the key of a call that has none; default crypto.randomUUID. */
  idempotencyKey?: () => string;
  /** The fetch to wrap; default globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Waits between attempts (tests make time pass faster). */
  sleep?: (ms: number) => Promise<void>;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its day and month in letters (IMF-fixdate, or the two obsolete forms).
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function retryingFetch(options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const newKey = options.idempotencyKey ?? (() => crypto.randomUUID());
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  return async (input: Request): Promise<Response> => {
    const original = input.clone();
    if (UNSAFE_METHODS.has(original.method) && !original.headers.has('idempotency-key'))
      original.headers.set('idempotency-key', newKey());
    for (let attempt = 0; ; attempt += 1) {
      const backoff = Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
      let response: Response;
      try {
        response = await send(original.clone());
      } catch (error) {
        // The request may or may not have reached the server; its key makes the retry safe.
        if (attempt >= maxRetries || original.signal.aborted) throw error;
        await sleep(backoff);
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt >= maxRetries) return response;
      const told = retryAfterMs(response.headers.get('retry-after'));
      await response.arrayBuffer().catch(() => undefined);
      await sleep(Math.min(maxDelayMs, told ?? backoff));
    }
  };
}

// Idempotency keys on every POST, PUT and DELETE (the `Idempotency-Key` header): the same key
// with the same request answers the first response again, byte for byte; with a different
// request it is a 422; while the first is still running, a second waits for it (or gets a 409).
// Scoped to account and environment, kept 24 hours. A check's `referenceId` stays the permanent
// guard against duplicates.
import { createHash } from 'node:crypto';
import type { Owner } from '../domain/owner.ts';
import { AppError } from '../errors.ts';
import * as store from '../store/idempotency.repository.ts';
import type { ServiceContext } from './context.ts';

export const KEEP_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request before answering 409. */
const WAIT_MS = 10_000;
/** A pending record older than this belongs to a request whose process died: it may be retaken. */
const ABANDONED_MS = 60_000;

export interface StoredResponse {
  status: number;
  type: string;
  body: Buffer;
}

export function requestHash(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${url}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/** Either the caller runs the request (`proceed`), or here is the first response to replay. */
export async function begin(ctx: ServiceContext, owner: Owner, key: string, hash: string): Promise<{ proceed: true; createdAt: number } | { proceed: false; response: StoredResponse }> {
  if (key.length === 0 || key.length > 255) throw new AppError('validation', 'The Idempotency-Key header must be 1 to 255 characters.');
  const deadline = ctx.now() + WAIT_MS;
  for (;;) {
    const now = ctx.now();
    if (await store.claim(ctx.db, owner, key, hash, now)) return { proceed: true, createdAt: now };
    const record = await store.find(ctx.db, owner, key);
    if (record === undefined) continue;
    if (record.createdAt < now - KEEP_MS || (record.state === 'pending' && record.createdAt < now - ABANDONED_MS)) {
      await store.release(ctx.db, owner, key, record.createdAt);
      continue;
    }
    if (record.requestHash !== hash) throw new AppError('validation', 'This Idempotency-Key was already used with a different request.');
    if (record.state === 'done' && record.responseStatus !== null && record.responseBody !== null) {
      return { proceed: false, response: { status: record.responseStatus, type: record.responseType ?? 'application/json; charset=utf-8', body: record.responseBody } };
    }
    if (ctx.now() >= deadline) throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress; retry later.');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Keeps the response for replays; a 5xx is forgotten instead, so the client may retry. */
export async function finish(ctx: ServiceContext, owner: Owner, key: string, createdAt: number, response: StoredResponse): Promise<void> {
  if (response.status >= 500) await store.release(ctx.db, owner, key, createdAt);
  else await store.complete(ctx.db, owner, key, response);
}

/** Deletes records past their 24 hours (servers call it every few minutes). */
export function purgeExpired(ctx: ServiceContext): Promise<number> {
  return store.purgeOlderThan(ctx.db, ctx.now() - KEEP_MS);
}

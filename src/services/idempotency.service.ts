// Idempotency keys on every POST, PUT and DELETE (the `Idempotency-Key` header): the same key
// with the same request answers the first response again, byte for byte; with a different
// request it is a 422; while the first is still running, a second waits for it (or gets a 409).
// Scoped to account and environment, kept 24 hours. A check's `referenceId` stays the permanent
// guard against duplicates.
//
// Crash safety: the key is claimed, the request's work done and its response
// recorded in ONE transaction, which every query of the work joins (store/db.ts,
// transactionJoinedByCalls). So a crash at any point leaves either nothing (the retry runs, once)
// or the effect together with its response (the retry replays it, with the same ids). A duplicate
// arriving meanwhile waits on the claimed key itself: PostgreSQL's unique index holds it until the
// first transaction ends; SQLite runs one write transaction at a time.
import { createHash } from 'node:crypto';
import type { Owner } from '../domain/owner.ts';
import { AppError } from '../errors.ts';
import { LockTimeout, transactionJoinedByCalls } from '../store/db.ts';
import { waitForLocksAtMost } from '../store/dialect.ts';
import * as store from '../store/idempotency.repository.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import type { ServiceContext } from './context.ts';

export type { StoredResponse } from '../domain/stored-response.ts';

export const KEEP_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request before answering 409. */
const WAIT_MS = 10_000;

/**
 * Request bodies as they are hashed: a file's bytes count by their digest, not as a JSON array.
 * A replacer, not a copy of the body: JSON.stringify hands it each value after toJSON, so the
 * Buffer itself is read from the holder (`this`). Same text as the copy it replaced, at a third of
 * its cost (a 100-check batch: 158 µs before, 73 µs with it, 38 µs for JSON bodies without it).
 */
function digestFiles(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  return Buffer.isBuffer(original) ? { sha256: createHash('sha256').update(original).digest('hex') } : value;
}

/**
 * The hash a key's later requests must match. `parsedJson`: the body came from the JSON parser,
 * which makes no Buffers, so the replacer's walk is skipped (the text is the same either way).
 */
export function requestHash(method: string, url: string, body: unknown, parsedJson = false): string {
  const text = parsedJson ? JSON.stringify(body ?? null) : JSON.stringify(body ?? null, digestFiles);
  return createHash('sha256').update(`${method} ${url}\n${text}`).digest('hex');
}

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > 255)
    throw new AppError('validation', 'The Idempotency-Key header must be 1 to 255 characters.');
}

export interface Outcome {
  replayed: boolean;
  response: StoredResponse;
}

/**
 * Runs `work` once per key: claims the key, runs `work` and keeps its response, all in one
 * transaction that `work`'s queries join; or answers the response kept for the key. A `work`
 * that throws rolls everything back (the key stays free) and the error goes on to the caller.
 */
export async function runOnce(
  ctx: ServiceContext,
  owner: Owner,
  key: string,
  hash: string,
  work: () => Promise<StoredResponse>,
): Promise<Outcome> {
  checkKey(key);
  return transactionJoinedByCalls(ctx.db, async (tx) => {
    const now = ctx.now();
    await waitForLocksAtMost(tx, WAIT_MS);
    if (!(await claimWaiting(tx, owner, key, hash, now))) {
      const record = await store.find(tx, owner, key);
      if (record === undefined)
        throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress; retry later.');
      if (
        record.createdAt >= now - KEEP_MS &&
        record.state === 'done' &&
        record.responseStatus !== null &&
        record.responseBody !== null
      ) {
        if (record.requestHash !== hash)
          throw new AppError('validation', 'This Idempotency-Key was already used with a different request.');
        return {
          replayed: true,
          response: {
            status: record.responseStatus,
            type: record.responseType ?? 'application/json; charset=utf-8',
            body: record.responseBody,
          },
        };
      }
      // Past its 24 hours, or left 'pending' by an older version of the service: the key is free.
      await store.remove(tx, owner, key);
      if (!(await claimWaiting(tx, owner, key, hash, now)))
        throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress; retry later.');
    }
    await waitForLocksAtMost(tx, null);
    const response = await work();
    await store.complete(tx, owner, key, response);
    return { replayed: false, response };
  });
}

async function claimWaiting(
  tx: Parameters<typeof store.claim>[0],
  owner: Owner,
  key: string,
  hash: string,
  now: number,
): Promise<boolean> {
  try {
    return await store.claim(tx, owner, key, hash, now);
  } catch (error) {
    if (error instanceof LockTimeout)
      throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress; retry later.');
    throw error;
  }
}

/** Keeps a refusal (a 4xx that wrote nothing) so that a retry answers it again. */
export async function keepRefusal(
  ctx: ServiceContext,
  owner: Owner,
  key: string,
  hash: string,
  response: StoredResponse,
): Promise<void> {
  await store.keepRefusal(ctx.db, owner, key, hash, ctx.now(), response);
}

/** Deletes records past their 24 hours (servers call it every few minutes). */
export function purgeExpired(ctx: Pick<ServiceContext, 'db' | 'now'>): Promise<number> {
  return store.purgeOlderThan(ctx.db, ctx.now() - KEEP_MS);
}

// Idempotency keys: the first request's response, kept per account, environment and key.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import type { StoredResponse } from '../domain/stored-response.ts';

/**
 * On SQLite kept responses are stored gzip-compressed (level 1): a 100-check batch answers ~37 KB
 * of JSON, ~1 KB compressed in ~60 µs, so every keyed write puts nine fewer pages through the WAL
 * (issue 13, the idempotency overhead). PostgreSQL compresses such values itself (TOAST), so
 * there they are kept as they are. Rows written before this are plain; gzip's magic bytes tell
 * them apart (no response this service keeps — JSON, PDF, CSV — starts with 1f 8b).
 */
function pack(q: Queryable, body: Buffer): Buffer {
  return q.dialect === 'sqlite' ? gzipSync(body, { level: 1 }) : body;
}

function unpack(stored: Buffer): Buffer {
  return stored.length >= 2 && stored[0] === 0x1f && stored[1] === 0x8b ? gunzipSync(stored) : stored;
}

export interface IdempotencyRecord {
  requestHash: string;
  /** 'pending' only exists inside the transaction that claimed the key (or in rows of older versions). */
  state: 'pending' | 'done';
  responseStatus: number | null;
  responseType: string | null;
  responseBody: Buffer | null;
  createdAt: number;
}

/**
 * Claims the key for this request; false when a record exists already. On PostgreSQL, while
 * another open transaction holds the same key, this waits for it to end (the unique index).
 */
export async function claim(
  q: Queryable,
  owner: Owner,
  key: string,
  requestHash: string,
  now: number,
): Promise<boolean> {
  const inserted = await q.run(
    "INSERT INTO idempotency_keys (account_id, env, idem_key, request_hash, state, created_at) VALUES (?, ?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING",
    [owner.accountId, owner.env, key, requestHash, now],
  );
  return inserted === 1;
}

/** Keeps a response that changed nothing (a refusal), unless the key has a record already. */
export async function keepRefusal(
  q: Queryable,
  owner: Owner,
  key: string,
  requestHash: string,
  now: number,
  response: StoredResponse,
): Promise<void> {
  await q.run(
    "INSERT INTO idempotency_keys (account_id, env, idem_key, request_hash, state, response_status, response_type, response_body, created_at) VALUES (?, ?, ?, ?, 'done', ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    [owner.accountId, owner.env, key, requestHash, response.status, response.type, pack(q, response.body), now],
  );
}

export async function find(q: Queryable, owner: Owner, key: string): Promise<IdempotencyRecord | undefined> {
  const row = await q.get<{
    request_hash: string;
    state: 'pending' | 'done';
    response_status: number | null;
    response_type: string | null;
    response_body: Buffer | null;
    created_at: number;
  }>(
    'SELECT request_hash, state, response_status, response_type, response_body, created_at FROM idempotency_keys WHERE account_id = ? AND env = ? AND idem_key = ?',
    [owner.accountId, owner.env, key],
  );
  if (row === undefined) return undefined;
  return {
    requestHash: row.request_hash,
    state: row.state,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    responseType: row.response_type,
    responseBody: row.response_body === null ? null : unpack(Buffer.from(row.response_body)),
    createdAt: Number(row.created_at),
  };
}

export async function complete(q: Queryable, owner: Owner, key: string, response: StoredResponse): Promise<void> {
  await q.run(
    "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_type = ?, response_body = ? WHERE account_id = ? AND env = ? AND idem_key = ?",
    [response.status, response.type, pack(q, response.body), owner.accountId, owner.env, key],
  );
}

/** Forgets a key whose record is too old or was left pending by an older version. */
export async function remove(q: Queryable, owner: Owner, key: string): Promise<void> {
  await q.run('DELETE FROM idempotency_keys WHERE account_id = ? AND env = ? AND idem_key = ?', [
    owner.accountId,
    owner.env,
    key,
  ]);
}

export async function purgeOlderThan(q: Queryable, before: number): Promise<number> {
  return q.run('DELETE FROM idempotency_keys WHERE created_at < ?', [before]);
}

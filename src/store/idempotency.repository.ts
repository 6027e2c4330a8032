// Idempotency keys: the first request's response, kept per account, environment and key.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import { owned } from './owned-queries.ts';
import { sql } from './sql.ts';
import { defineTable, insertStatement, rowValues } from './table.ts';

/** The idempotency_keys table as stored (migration 004). */
interface IdempotencyKeysRow {
  account_id: string;
  env: string;
  idem_key: string;
  request_hash: string;
  /** 'pending' only exists inside the transaction that claimed the key (or in rows of older versions). */
  state: 'pending' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: Buffer | null;
  created_at: number;
}

const IDEMPOTENCY_KEYS = defineTable<IdempotencyKeysRow>()('idempotency_keys', [
  'account_id',
  'env',
  'idem_key',
  'request_hash',
  'state',
  'response_status',
  'response_type',
  'response_body',
  'created_at',
]);

/** A claim and a kept refusal are one statement: a key that has a record keeps it. */
const INSERT_UNLESS_KEPT = insertStatement(IDEMPOTENCY_KEYS, { tail: ' ON CONFLICT DO NOTHING' });

/**
 * On SQLite kept responses are stored gzip-compressed (level 1): a 100-check batch answers ~37 KB
 * of JSON, ~1 KB compressed in ~60 µs, so every keyed write puts nine fewer pages through the WAL
 * (the idempotency record's overhead on every keyed write). PostgreSQL compresses such values
 * itself (TOAST), so there they are kept as they are. Rows written before this are plain; gzip's
 * magic bytes tell them apart (no response this service keeps — JSON, PDF, CSV — starts with 1f
 * 8b).
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
    INSERT_UNLESS_KEPT,
    rowValues(IDEMPOTENCY_KEYS, {
      account_id: owner.accountId,
      env: owner.env,
      idem_key: key,
      request_hash: requestHash,
      state: 'pending',
      response_status: null,
      response_type: null,
      response_body: null,
      created_at: now,
    }),
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
    INSERT_UNLESS_KEPT,
    rowValues(IDEMPOTENCY_KEYS, {
      account_id: owner.accountId,
      env: owner.env,
      idem_key: key,
      request_hash: requestHash,
      state: 'done',
      response_status: response.status,
      response_type: response.type,
      response_body: pack(q, response.body),
      created_at: now,
    }),
  );
}

export async function find(q: Queryable, owner: Owner, key: string): Promise<IdempotencyRecord | undefined> {
  const s = sql`SELECT request_hash, state, response_status, response_type, response_body, created_at FROM idempotency_keys WHERE ${owned(owner)} AND idem_key = ${key}`;
  const row = await q.get<
    Pick<
      IdempotencyKeysRow,
      'request_hash' | 'state' | 'response_status' | 'response_type' | 'response_body' | 'created_at'
    >
  >(s.text, s.params);
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
  const s = sql`UPDATE idempotency_keys SET state = 'done', response_status = ${response.status}, response_type = ${response.type}, response_body = ${pack(q, response.body)} WHERE ${owned(owner)} AND idem_key = ${key}`;
  await q.run(s.text, s.params);
}

/** Forgets a key whose record is too old or was left pending by an older version. */
export async function remove(q: Queryable, owner: Owner, key: string): Promise<void> {
  const s = sql`DELETE FROM idempotency_keys WHERE ${owned(owner)} AND idem_key = ${key}`;
  await q.run(s.text, s.params);
}

export async function purgeOlderThan(q: Queryable, before: number): Promise<number> {
  const s = sql`DELETE FROM idempotency_keys WHERE created_at < ${before}`;
  return q.run(s.text, s.params);
}

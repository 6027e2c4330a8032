import { type AuditBy, record as recordAudit } from './audit.service.ts';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Vault } from '../domain/sealed.ts';
import { openSecrets, type SecretSource } from '../store/server-secret.ts';
import { tokenHash } from '../domain/secret-tokens.ts';
import type { Environment, Principal } from '../domain/owner.ts';
import type { Account, ApiKeyRecord } from '../domain/account.ts';
import { newId } from '../domain/ids.ts';
import { systemActor } from '../domain/actor.ts';
import { AppError, notFound } from '../errors.ts';
import type { Db } from '../store/db.ts';
import { announceKeysChanged } from '../store/dialect.ts';
import * as accounts from '../store/accounts.repository.ts';
import { addFirstOwner } from './people/people.service.ts';

/** Keys made or revoked without a caller named: the command line (`checkwriter keys`). */
const COMMAND_LINE: AuditBy = { actor: systemActor('command line') };

// API keys are JWTs (spec "Authentication": a bearer credential in JWT format), HS256-signed with
// the server secret, naming the key, its account and its environment, and carrying 128 random
// bits. The database keeps only a SHA-256 of the whole key and never the secret (server-secret.ts),
// so a copy of the database yields no usable key: the random part cannot be recomputed from it. Verifying a key runs the
// HMAC and the database lookup once; after that a bounded in-process cache answers (a full JWT
// library verify per request would cost most of the throughput: stack notes). Revocation evicts
// the cache at once in this process and, through the store's change signal, in every other.

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const CACHE_LIMIT = 10_000;
/**
 * Active (unrevoked) keys an account may hold in one environment. Each key has its own rate limit
 * (RATE_LIMIT_PER_KEY), so without a cap an account could multiply its rate by making keys.
 */
export const MAX_ACTIVE_KEYS = 50;
/** last_used_at is written at most this often per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

interface KeyClaims {
  sub: string;
  acc: string;
  env: Environment;
  iat: number;
  /** 128 random bits (new keys): the key cannot be rebuilt from its row, even by someone holding the secret. */
  jti?: string;
}

function sign(secret: Buffer, claims: KeyClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

/** The claims of a key whose signature is ours, or null. Constant-time signature compare. */
function readClaims(secret: Buffer, token: string): KeyClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const [, payload = '', signature = ''] = parts;
  const expected = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<KeyClaims>;
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.acc !== 'string' ||
      (claims.env !== 'test' && claims.env !== 'live')
    )
      return null;
    return { sub: claims.sub, acc: claims.acc, env: claims.env, iat: Number(claims.iat) };
  } catch {
    return null;
  }
}

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

export class ApiKeys {
  private readonly cache = new Map<string, Principal>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Db,
    /** The server secret: signs keys, and (under their own labels) payee link and account tokens. */
    readonly secret: Buffer,
    /** Values encrypted at rest, under data keys derived from the same secret. */
    readonly vault: Vault,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads the server secret from where `source` says (never the database; moving an old one out). */
  static async open(db: Db, source: SecretSource, now: () => number = Date.now): Promise<ApiKeys> {
    const { secret, vault } = await db.transaction((tx) => openSecrets(tx, source));
    return new ApiKeys(db, secret, vault, now);
  }

  /**
   * A new key for `accountId` in `env`. Refused (422) past MAX_ACTIVE_KEYS active keys there: the
   * per-key rate limit would otherwise multiply with keys. The account's row is locked first, so
   * two creates at once count one after the other.
   */
  async create(accountId: string, env: Environment, name: string, by: AuditBy = COMMAND_LINE): Promise<CreatedKey> {
    // Who made it, shown on the keys page: the person in the panel (none from the command line).
    const createdBy = by.actor.kind === 'person' && by.actor.personId !== '' ? by.actor.personId : null;
    const at = this.now();
    const id = newId('key', at);
    const key = sign(this.secret, {
      sub: id,
      acc: accountId,
      env,
      iat: Math.floor(at / 1000),
      jti: randomBytes(16).toString('base64url'),
    });
    const record: ApiKeyRecord = {
      id,
      accountId,
      env,
      name,
      keyHash: tokenHash(key),
      displayPrefix: `${env}…${key.slice(-6)}`,
      createdAt: at,
      createdBy,
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.db.transaction(async (tx) => {
      await accounts.lockAccount(tx, accountId);
      if ((await accounts.countActiveApiKeys(tx, accountId, env)) >= MAX_ACTIVE_KEYS)
        throw new AppError(
          'validation',
          `This account already has ${MAX_ACTIVE_KEYS} active ${env} API keys, the most it may hold: revoke one it no longer uses, then create the new one.`,
        );
      await accounts.insertApiKey(tx, record);
      await recordAudit(
        tx,
        { accountId, env, actor: by.actor, ...(by.origin === undefined ? {} : { origin: by.origin }) },
        [
          {
            action: 'api-key.create',
            objectType: 'api-key',
            objectId: id,
            changes: [
              { field: 'name', old: null, new: name },
              { field: 'env', old: null, new: env },
              { field: 'displayPrefix', old: null, new: record.displayPrefix },
            ],
          },
        ],
        at,
      );
    });
    return { key, record };
  }

  /**
   * The caller behind a token this process has verified before, without waiting on anything: the
   * hot path of every authenticated request, which must not wait on the database. Undefined means
   * "ask verify", not "refused". Revocation is still immediate: the store's change signal empties
   * the cache first.
   */
  cached(token: string): Principal | undefined {
    if (!this.db.keysUnchangedSinceLastCheck()) this.cache.clear();
    const cached = this.cache.get(token);
    if (cached !== undefined) this.touch(cached.keyId);
    return cached;
  }

  /** The caller behind a bearer token, or an `unauthenticated` error. */
  async verify(token: string): Promise<Principal> {
    const cached = this.cached(token);
    if (cached !== undefined) return cached;
    const claims = readClaims(this.secret, token);
    if (claims === null) throw new AppError('unauthenticated', 'Unauthenticated.');
    const record = await accounts.findApiKey(this.db, claims.sub);
    const hash = Buffer.from(tokenHash(token), 'hex');
    if (
      record === undefined ||
      record.revokedAt !== null ||
      record.accountId !== claims.acc ||
      record.env !== claims.env ||
      !timingSafeEqual(hash, Buffer.from(record.keyHash, 'hex'))
    ) {
      throw new AppError('unauthenticated', 'Unauthenticated.');
    }
    const account = await accounts.findAccountById(this.db, record.accountId);
    if (account === undefined) throw new AppError('unauthenticated', 'Unauthenticated.');
    const principal: Principal = {
      keyId: record.id,
      accountId: record.accountId,
      env: record.env,
      timeZone: account.timeZone,
      actor: { kind: 'api-key', keyId: record.id, keyName: record.name },
    };
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(token, principal);
    this.touch(record.id);
    return principal;
  }

  private touch(keyId: string): void {
    const at = this.now();
    const last = this.touched.get(keyId) ?? 0;
    if (at - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(keyId, at);
    // Best effort: a lost "last used" time must never fail the request it describes.
    accounts.touchApiKey(this.db, keyId, at).catch(() => undefined);
  }

  async revoke(keyId: string, accountId: string | null = null, by: AuditBy = COMMAND_LINE): Promise<void> {
    await this.db.transaction(async (tx) => {
      const record = await accounts.findApiKey(tx, keyId);
      if (record === undefined || (accountId !== null && record.accountId !== accountId)) throw notFound('API key');
      const at = this.now();
      await accounts.revokeApiKey(tx, keyId, at);
      await recordAudit(
        tx,
        {
          accountId: record.accountId,
          env: record.env,
          actor: by.actor,
          ...(by.origin === undefined ? {} : { origin: by.origin }),
        },
        [
          {
            action: 'api-key.revoke',
            objectType: 'api-key',
            objectId: keyId,
            changes: [{ field: 'revokedAt', old: null, new: new Date(at).toISOString() }],
          },
        ],
        at,
      );
      await announceKeysChanged(tx);
    });
    this.forget();
  }

  /** Drops every cached verification (after a revocation or an account change in this process). */
  forget(): void {
    this.cache.clear();
  }

  list(accountId: string | null): Promise<ApiKeyRecord[]> {
    return accounts.listApiKeys(this.db, accountId);
  }
}

export interface NewAccount {
  email: string;
  company?: string;
  phone?: string;
  verified: boolean;
  timeZone?: string;
}

/** Finds the account owning `email`, creating it when there is none. */
export async function ensureAccount(
  db: Db,
  input: NewAccount,
  now: number = Date.now(),
): Promise<{ account: Account; created: boolean }> {
  const existing = await accounts.findAccountByEmail(db, input.email);
  if (existing !== undefined) return { account: existing, created: false };
  const account: Account = {
    id: newId('acct', now),
    // No company given: none stored, and payees are told the owner's email sent the check
    // (domain/account.ts senderName) until one is set (--company, /panel/settings).
    company: input.company?.trim() ?? '',
    email: input.email.toLowerCase(),
    emailVerified: input.verified,
    phone: input.phone ?? '',
    phoneVerified: input.verified,
    timeZone: input.timeZone ?? 'UTC',
    createdAt: now,
  };
  // The account's owner is a person (without a password until they reset it), as after sign-up.
  await db.transaction(async (tx) => {
    await accounts.insertAccount(tx, account);
    await addFirstOwner(tx, account, null, now);
  });
  return { account, created: true };
}

export async function verifyAccount(
  db: Db,
  email: string,
  what: { email: boolean; phone: boolean },
  now: number = Date.now(),
): Promise<Account> {
  const account = await accounts.findAccountByEmail(db, email);
  if (account === undefined) throw notFound('Account');
  await accounts.markVerified(db, account.id, what, now);
  const updated = await accounts.findAccountById(db, account.id);
  if (updated === undefined) throw notFound('Account');
  return updated;
}

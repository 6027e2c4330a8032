// The server secret lives outside the database, so a copy of it yields no secret: in
// KEY_SIGNING_SECRET, or in a file created with mode 0600 on first start (beside the SQLite file by
// default). Older versions kept a generated secret in the `settings` table; the first start of this
// version writes that same secret to the file and deletes it from the table, so existing keys and
// links keep working and a copy of the database taken from now on holds no secret.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config.ts';
import { newKeyId, Vault } from '../domain/sealed.ts';
import type { Queryable } from './db.ts';
import { deleteSetting, initSetting, readSetting, writeSetting } from './settings.repository.ts';

/** Where the secret comes from: the two settings of config.ts. */
export type SecretSource = Pick<Config, 'keySigningSecret' | 'secretFile'>;

const LEGACY_SETTING = 'key_signing_secret';
const KEY_ID_SETTING = 'data_key_id';
/**
 * An HMAC of a fixed label under the secret: which secret this database belongs to, without the
 * secret (nothing about it can be learnt from the value, and no key or sealed value opens with it).
 */
const CHECK_SETTING = 'secret_check';
const CHECK_LABEL = 'checkwriter: the server secret of this database';

/** The check value a secret leaves in the database it guards. */
export function secretCheckValue(secret: Buffer): string {
  return createHmac('sha256', secret).update(CHECK_LABEL).digest('base64url');
}

export class SecretFileError extends Error {
  override name = 'SecretFileError';
}

function readSecretFile(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SecretFileError(`cannot read the secret file ${path}: ${(error as Error).message}`);
  }
  const value = text.trim();
  if (Buffer.byteLength(value) < 32)
    throw new SecretFileError(`the secret file ${path} holds fewer than 32 characters`);
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
    throw new SecretFileError(`the secret file ${path} may be read by other users: chmod 600 it`);
  }
  return value;
}

/** Creates the file with `value` unless it exists (another process won the race: its value is used). */
function createSecretFile(path: string, value: string): string {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readSecretFile(path) ?? value;
    throw new SecretFileError(`cannot create the secret file ${path}: ${(error as Error).message}`);
  }
  try {
    writeSync(fd, `${value}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(path, 0o600); // the umask may have narrowed it further; never wider
  return value;
}

/**
 * A new secret for `checkwriter secret rotate`: the file's when it exists (at least 32
 * characters, mode 0600), else a random one written there (0600).
 */
export function readOrCreateSecretFile(path: string): Buffer {
  const value = readSecretFile(path) ?? createSecretFile(path, randomBytes(32).toString('base64url'));
  return Buffer.from(value, 'utf8');
}

/** Where the secret was looked for, in the operator's words (never the secret). */
function describeSource(source: SecretSource): string {
  return source.keySigningSecret !== '' ? 'KEY_SIGNING_SECRET' : `the secret file ${source.secretFile}`;
}

/** Whether the database holds anything the secret guards: API keys or bank accounts (sealed numbers). */
async function holdsGuardedData(q: Queryable): Promise<boolean> {
  const key = await q.get('SELECT 1 AS one FROM api_keys LIMIT 1');
  if (key !== undefined) return true;
  return (await q.get('SELECT 1 AS one FROM bank_accounts LIMIT 1')) !== undefined;
}

async function recordedCheck(q: Queryable): Promise<string | undefined> {
  return readSetting(q, CHECK_SETTING);
}

export async function recordSecretCheck(q: Queryable, secret: Buffer): Promise<void> {
  await writeSetting(q, CHECK_SETTING, secretCheckValue(secret));
}

function checksMatch(recorded: string, secret: Buffer): boolean {
  const mine = Buffer.from(secretCheckValue(secret));
  const theirs = Buffer.from(recorded);
  return mine.length === theirs.length && timingSafeEqual(mine, theirs);
}

/**
 * The server secret. A secret still in the `settings` table (older versions) is moved out: to
 * the file when one is configured and missing, and deleted from the table in every case (when
 * KEY_SIGNING_SECRET is set, that one was already the secret in use).
 *
 * The secret guards its database: the database records the secret's check value, and a secret
 * that does not match it is refused (SecretFileError) rather than used, and so is a missing secret
 * file for a database that already holds keys or sealed values — a new secret there would answer
 * 401 to every key and leave every sealed number unreadable, and seal new ones under a second
 * secret. Only a database with nothing to guard gets a new secret. A database with data but no
 * check value yet (an older version's) records the current secret's on its first start.
 */
export async function serverSecret(q: Queryable, source: SecretSource): Promise<Buffer> {
  const legacy = await readSetting(q, LEGACY_SETTING);
  const recorded = await recordedCheck(q);
  let value: string;
  if (source.keySigningSecret !== '') {
    value = source.keySigningSecret;
  } else if (source.secretFile !== '') {
    const existing = readSecretFile(source.secretFile);
    if (existing === null && legacy === undefined && (recorded !== undefined || (await holdsGuardedData(q)))) {
      throw new SecretFileError(
        `the server secret of this database is missing: no file at ${source.secretFile}, and the database holds ` +
          'API keys or sealed bank account numbers that only its own secret opens. Restore that file (or set ' +
          'SECRET_FILE or KEY_SIGNING_SECRET to it); a new secret is never made for a database that has data. ' +
          'See docs/operations.md, "The secret guards its database".',
      );
    }
    value = existing ?? createSecretFile(source.secretFile, legacy ?? randomBytes(32).toString('base64url'));
  } else {
    throw new SecretFileError('no server secret: set KEY_SIGNING_SECRET or SECRET_FILE (docs/secrets.md)');
  }
  const secret = Buffer.from(value, 'utf8');
  if (recorded === undefined) await recordSecretCheck(q, secret);
  else if (!checksMatch(recorded, secret)) {
    throw new SecretFileError(
      `the server secret does not match this database: ${describeSource(source)} holds another secret than the ` +
        "one this database's API keys and sealed values were made with. Give it the database's own secret " +
        '(the file or KEY_SIGNING_SECRET it ran with); see docs/operations.md, "The secret guards its database".',
    );
  }
  if (legacy !== undefined) await deleteSetting(q, LEGACY_SETTING);
  return secret;
}

/** Whether the database still holds a secret of an older version (migration 009 moves it). */
export async function hasLegacySecret(q: Queryable): Promise<boolean> {
  return (await readSetting(q, LEGACY_SETTING)) !== undefined;
}

/** The id of the data key new values are sealed under (not secret: the key derives from the server secret). */
export async function currentDataKeyId(q: Queryable): Promise<string> {
  // Migration 009 sets it, so this is a read on every path that seals; the write is for a database
  // that somehow lacks it (first writer wins).
  const current = await readSetting(q, KEY_ID_SETTING);
  if (current !== undefined) return current;
  return initSetting(q, KEY_ID_SETTING, newKeyId());
}

export async function setDataKeyId(q: Queryable, keyId: string): Promise<void> {
  await writeSetting(q, KEY_ID_SETTING, keyId);
}

export interface ServerSecrets {
  secret: Buffer;
  vault: Vault;
}

export async function openSecrets(q: Queryable, source: SecretSource): Promise<ServerSecrets> {
  const secret = await serverSecret(q, source);
  return { secret, vault: new Vault(secret) };
}

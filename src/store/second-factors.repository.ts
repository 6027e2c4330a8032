// A person's second factors (migration 030): the authenticator app's sealed secret, recovery code
// hashes, passkeys, and the factor state of panel sessions. Single use is decided here by
// conditional updates, so two servers accepting the same code at once accept it once.
import type { Queryable } from './db.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertRows, insertStatement, rowValues } from './table.ts';

export interface TotpRecord {
  personId: string;
  sealedSecret: string;
  createdAt: number;
  confirmedAt: number | null;
  lastStep: number | null;
}

interface PersonTotpRow {
  person_id: string;
  sealed_secret: string;
  created_at: number;
  confirmed_at: number | null;
  last_step: number | null;
}

const PERSON_TOTP = defineTable<PersonTotpRow>()('person_totp', [
  'person_id',
  'sealed_secret',
  'created_at',
  'confirmed_at',
  'last_step',
]);

export interface PasskeyRecord {
  id: string;
  personId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

interface PasskeysRow {
  id: string;
  person_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

const PASSKEYS = defineTable<PasskeysRow>()('passkeys', [
  'id',
  'person_id',
  'public_key',
  'counter',
  'transports',
  'name',
  'created_at',
  'last_used_at',
]);

/** The recovery_codes table as stored (migration 030): only each code's hash is kept. */
interface RecoveryCodesRow {
  person_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

const RECOVERY_CODES = defineTable<RecoveryCodesRow>()('recovery_codes', [
  'person_id',
  'code_hash',
  'created_at',
  'used_at',
]);

// A pending secret never replaces one that is there (a confirmed one, or a racing request's).
const INSERT_PENDING_TOTP = insertStatement(PERSON_TOTP, { tail: ' ON CONFLICT (person_id) DO NOTHING' });
const TOTP_COLUMNS = raw(columnList(PERSON_TOTP));
const INSERT_PASSKEY = insertStatement(PASSKEYS);
const PASSKEY_COLUMNS = raw(columnList(PASSKEYS));

const optionalNumber = (value: number | null): number | null => (value === null ? null : Number(value));

export async function findTotp(q: Queryable, personId: string): Promise<TotpRecord | undefined> {
  const s = sql`SELECT ${TOTP_COLUMNS} FROM person_totp WHERE person_id = ${personId}`;
  const row = await q.get<PersonTotpRow>(s.text, s.params);
  if (row === undefined) return undefined;
  return {
    personId: row.person_id,
    sealedSecret: row.sealed_secret,
    createdAt: Number(row.created_at),
    confirmedAt: optionalNumber(row.confirmed_at),
    lastStep: optionalNumber(row.last_step),
  };
}

/** A new, unconfirmed secret replaces an unconfirmed one; a confirmed one is never overwritten here. */
export async function putPendingTotp(q: Queryable, personId: string, sealedSecret: string, now: number): Promise<void> {
  const unconfirmed = sql`DELETE FROM person_totp WHERE person_id = ${personId} AND confirmed_at IS NULL`;
  await q.run(unconfirmed.text, unconfirmed.params);
  await q.run(
    INSERT_PENDING_TOTP,
    rowValues(PERSON_TOTP, {
      person_id: personId,
      sealed_secret: sealedSecret,
      created_at: now,
      confirmed_at: null,
      last_step: null,
    }),
  );
}

/**
 * Accepts the code of time step `step`: answers 1 when this request moved `last_step` forward,
 * 0 when a code of this step (or a later one) was already accepted. `confirming` accepts only an
 * unconfirmed secret and confirms it; otherwise only a confirmed one.
 */
const CONFIRMING = raw('confirmed_at IS NULL');
const CONFIRMED = raw('confirmed_at IS NOT NULL');

export async function acceptTotpStep(
  q: Queryable,
  personId: string,
  step: number,
  now: number,
  confirming: boolean,
): Promise<number> {
  const state = confirming ? CONFIRMING : CONFIRMED;
  const s = sql`UPDATE person_totp SET last_step = ${step}, confirmed_at = COALESCE(confirmed_at, ${now})
      WHERE person_id = ${personId} AND ${state} AND (last_step IS NULL OR last_step < ${step})`;
  return q.run(s.text, s.params);
}

export async function deleteTotp(q: Queryable, personId: string): Promise<number> {
  const s = sql`DELETE FROM person_totp WHERE person_id = ${personId}`;
  return q.run(s.text, s.params);
}

export async function replaceRecoveryCodes(
  q: Queryable,
  personId: string,
  hashes: readonly string[],
  now: number,
): Promise<void> {
  await deleteRecoveryCodes(q, personId);
  await insertRows(
    q,
    RECOVERY_CODES,
    hashes.map((hash) => ({ person_id: personId, code_hash: hash, created_at: now, used_at: null })),
  );
}

/** Uses one recovery code: 1 when this request used it, 0 when it is unknown or already used. */
export async function useRecoveryCode(q: Queryable, personId: string, hash: string, now: number): Promise<number> {
  const s = sql`UPDATE recovery_codes SET used_at = ${now} WHERE person_id = ${personId} AND code_hash = ${hash} AND used_at IS NULL`;
  return q.run(s.text, s.params);
}

export async function unusedRecoveryCodes(q: Queryable, personId: string): Promise<number> {
  const s = sql`SELECT COUNT(*) AS n FROM recovery_codes WHERE person_id = ${personId} AND used_at IS NULL`;
  const row = await q.get<{ n: number }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

/** Deletes every recovery code of everyone; answers how many people had one left unused. */
export async function deleteAllRecoveryCodes(q: Queryable): Promise<number> {
  const row = await q.get<{ n: number | string }>(
    'SELECT COUNT(DISTINCT person_id) AS n FROM recovery_codes WHERE used_at IS NULL',
  );
  await q.run('DELETE FROM recovery_codes');
  return Number(row?.n ?? 0);
}

export async function deleteRecoveryCodes(q: Queryable, personId: string): Promise<void> {
  const s = sql`DELETE FROM recovery_codes WHERE person_id = ${personId}`;
  await q.run(s.text, s.params);
}

function toPasskey(row: PasskeysRow): PasskeyRecord {
  return {
    id: row.id,
    personId: row.person_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports === '' ? [] : row.transports.split(','),
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: optionalNumber(row.last_used_at),
  };
}

export async function insertPasskey(q: Queryable, passkey: PasskeyRecord): Promise<void> {
  await q.run(
    INSERT_PASSKEY,
    rowValues(PASSKEYS, {
      id: passkey.id,
      person_id: passkey.personId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports.join(','),
      name: passkey.name,
      created_at: passkey.createdAt,
      last_used_at: passkey.lastUsedAt,
    }),
  );
}

export async function passkeysOf(q: Queryable, personId: string): Promise<PasskeyRecord[]> {
  const s = sql`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE person_id = ${personId} ORDER BY created_at, id`;
  const rows = await q.all<PasskeysRow>(s.text, s.params);
  return rows.map(toPasskey);
}

/** Moves the counter on after a use; 0 when another request moved it first (a cloned authenticator or a replay). */
export async function usePasskey(
  q: Queryable,
  id: string,
  oldCounter: number,
  counter: number,
  now: number,
): Promise<number> {
  const s = sql`UPDATE passkeys SET counter = ${counter}, last_used_at = ${now} WHERE id = ${id} AND counter = ${oldCounter}`;
  return q.run(s.text, s.params);
}

export async function deletePasskey(q: Queryable, personId: string, id: string): Promise<number> {
  const s = sql`DELETE FROM passkeys WHERE person_id = ${personId} AND id = ${id}`;
  return q.run(s.text, s.params);
}

/** The factor was proven now: a pending session becomes a full one. */
export async function markSessionFactor(q: Queryable, idHash: string, now: number): Promise<number> {
  const s = sql`UPDATE panel_sessions SET factor_at = ${now}, factor_pending = 0, webauthn_challenge = NULL WHERE id_hash = ${idHash}`;
  return q.run(s.text, s.params);
}

export async function setSessionChallenge(q: Queryable, idHash: string, challenge: string | null): Promise<void> {
  const s = sql`UPDATE panel_sessions SET webauthn_challenge = ${challenge} WHERE id_hash = ${idHash}`;
  await q.run(s.text, s.params);
}

/** Takes the session's passkey challenge: it is answered once. */
export async function takeSessionChallenge(q: Queryable, idHash: string): Promise<string | null> {
  const read = sql`SELECT webauthn_challenge FROM panel_sessions WHERE id_hash = ${idHash}`;
  const row = await q.get<{ webauthn_challenge: string | null }>(read.text, read.params);
  const challenge = row?.webauthn_challenge ?? null;
  if (challenge === null) return null;
  const take = sql`UPDATE panel_sessions SET webauthn_challenge = NULL WHERE id_hash = ${idHash} AND webauthn_challenge = ${challenge}`;
  const taken = await q.run(take.text, take.params);
  return taken === 1 ? challenge : null;
}

export async function factorRequiredOfEveryone(q: Queryable, accountId: string): Promise<boolean> {
  const s = sql`SELECT factor_required FROM accounts WHERE id = ${accountId}`;
  const row = await q.get<{ factor_required: number }>(s.text, s.params);
  return Number(row?.factor_required ?? 0) === 1;
}

export async function setFactorRequiredOfEveryone(q: Queryable, accountId: string, required: boolean): Promise<void> {
  const s = sql`UPDATE accounts SET factor_required = ${required ? 1 : 0} WHERE id = ${accountId}`;
  await q.run(s.text, s.params);
}

/** Every sealed TOTP secret, for re-sealing under a new data key (data-keys.service rotateDataKey). */
export async function allSealedTotp(q: Queryable): Promise<{ personId: string; sealed: string }[]> {
  const rows = await q.all<{ person_id: string; sealed_secret: string }>(
    'SELECT person_id, sealed_secret FROM person_totp',
  );
  return rows.map((r) => ({ personId: r.person_id, sealed: r.sealed_secret }));
}

export async function storeSealedTotp(q: Queryable, personId: string, sealed: string): Promise<void> {
  const s = sql`UPDATE person_totp SET sealed_secret = ${sealed} WHERE person_id = ${personId}`;
  await q.run(s.text, s.params);
}

// A person's second factors (migration 030): the authenticator app's sealed secret, recovery code
// hashes, passkeys, and the factor state of panel sessions. Single use is decided here by
// conditional updates, so two servers accepting the same code at once accept it once.
import type { Queryable } from './db.ts';
import { defineTable, insertStatement, rowValues } from './table.ts';

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

const optionalNumber = (value: number | null): number | null => (value === null ? null : Number(value));

export async function findTotp(q: Queryable, personId: string): Promise<TotpRecord | undefined> {
  const row = await q.get<PersonTotpRow>(
    'SELECT person_id, sealed_secret, created_at, confirmed_at, last_step FROM person_totp WHERE person_id = ?',
    [personId],
  );
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
  await q.run('DELETE FROM person_totp WHERE person_id = ? AND confirmed_at IS NULL', [personId]);
  await q.run(
    `${insertStatement(PERSON_TOTP)} ON CONFLICT (person_id) DO NOTHING`,
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
export async function acceptTotpStep(
  q: Queryable,
  personId: string,
  step: number,
  now: number,
  confirming: boolean,
): Promise<number> {
  const state = confirming ? 'confirmed_at IS NULL' : 'confirmed_at IS NOT NULL';
  return q.run(
    `UPDATE person_totp SET last_step = ?, confirmed_at = COALESCE(confirmed_at, ?)
      WHERE person_id = ? AND ${state} AND (last_step IS NULL OR last_step < ?)`,
    [step, now, personId, step],
  );
}

export async function deleteTotp(q: Queryable, personId: string): Promise<number> {
  return q.run('DELETE FROM person_totp WHERE person_id = ?', [personId]);
}

export async function replaceRecoveryCodes(
  q: Queryable,
  personId: string,
  hashes: readonly string[],
  now: number,
): Promise<void> {
  await q.run('DELETE FROM recovery_codes WHERE person_id = ?', [personId]);
  for (const hash of hashes)
    await q.run('INSERT INTO recovery_codes (person_id, code_hash, created_at, used_at) VALUES (?, ?, ?, NULL)', [
      personId,
      hash,
      now,
    ]);
}

/** Uses one recovery code: 1 when this request used it, 0 when it is unknown or already used. */
export async function useRecoveryCode(q: Queryable, personId: string, hash: string, now: number): Promise<number> {
  return q.run('UPDATE recovery_codes SET used_at = ? WHERE person_id = ? AND code_hash = ? AND used_at IS NULL', [
    now,
    personId,
    hash,
  ]);
}

export async function unusedRecoveryCodes(q: Queryable, personId: string): Promise<number> {
  const row = await q.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM recovery_codes WHERE person_id = ? AND used_at IS NULL',
    [personId],
  );
  return Number(row?.n ?? 0);
}

/** Deletes every recovery code of everyone; answers how many people had one left unused. */
export async function deleteAllRecoveryCodes(q: Queryable): Promise<number> {
  const row = await q.get<{ n: number | string }>(
    'SELECT COUNT(DISTINCT person_id) AS n FROM recovery_codes WHERE used_at IS NULL',
    [],
  );
  await q.run('DELETE FROM recovery_codes', []);
  return Number(row?.n ?? 0);
}

export async function deleteRecoveryCodes(q: Queryable, personId: string): Promise<void> {
  await q.run('DELETE FROM recovery_codes WHERE person_id = ?', [personId]);
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
    insertStatement(PASSKEYS),
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
  const rows = await q.all<PasskeysRow>(
    'SELECT id, person_id, public_key, counter, transports, name, created_at, last_used_at FROM passkeys WHERE person_id = ? ORDER BY created_at, id',
    [personId],
  );
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
  return q.run('UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND counter = ?', [
    counter,
    now,
    id,
    oldCounter,
  ]);
}

export async function deletePasskey(q: Queryable, personId: string, id: string): Promise<number> {
  return q.run('DELETE FROM passkeys WHERE person_id = ? AND id = ?', [personId, id]);
}

/** The factor was proven now: a pending session becomes a full one. */
export async function markSessionFactor(q: Queryable, idHash: string, now: number): Promise<number> {
  return q.run(
    'UPDATE panel_sessions SET factor_at = ?, factor_pending = 0, webauthn_challenge = NULL WHERE id_hash = ?',
    [now, idHash],
  );
}

export async function setSessionChallenge(q: Queryable, idHash: string, challenge: string | null): Promise<void> {
  await q.run('UPDATE panel_sessions SET webauthn_challenge = ? WHERE id_hash = ?', [challenge, idHash]);
}

/** Takes the session's passkey challenge: it is answered once. */
export async function takeSessionChallenge(q: Queryable, idHash: string): Promise<string | null> {
  const row = await q.get<{ webauthn_challenge: string | null }>(
    'SELECT webauthn_challenge FROM panel_sessions WHERE id_hash = ?',
    [idHash],
  );
  const challenge = row?.webauthn_challenge ?? null;
  if (challenge === null) return null;
  const taken = await q.run(
    'UPDATE panel_sessions SET webauthn_challenge = NULL WHERE id_hash = ? AND webauthn_challenge = ?',
    [idHash, challenge],
  );
  return taken === 1 ? challenge : null;
}

export async function factorRequiredOfEveryone(q: Queryable, accountId: string): Promise<boolean> {
  const row = await q.get<{ factor_required: number }>('SELECT factor_required FROM accounts WHERE id = ?', [
    accountId,
  ]);
  return Number(row?.factor_required ?? 0) === 1;
}

export async function setFactorRequiredOfEveryone(q: Queryable, accountId: string, required: boolean): Promise<void> {
  await q.run('UPDATE accounts SET factor_required = ? WHERE id = ?', [required ? 1 : 0, accountId]);
}

/** Every sealed TOTP secret, for re-sealing under a new data key (data-keys.service rotateDataKey). */
export async function allSealedTotp(q: Queryable): Promise<{ personId: string; sealed: string }[]> {
  const rows = await q.all<{ person_id: string; sealed_secret: string }>(
    'SELECT person_id, sealed_secret FROM person_totp',
  );
  return rows.map((r) => ({ personId: r.person_id, sealed: r.sealed_secret }));
}

export async function storeSealedTotp(q: Queryable, personId: string, sealed: string): Promise<void> {
  await q.run('UPDATE person_totp SET sealed_secret = ? WHERE person_id = ?', [sealed, personId]);
}

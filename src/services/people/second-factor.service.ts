// A person's second factor (docs/team.md, "Second factor"): an authenticator app (TOTP, RFC 6238),
// ten single-use recovery codes, and passkeys (WebAuthn). Sign-in asks for one after the password;
// step-up asks again before the riskiest acts when the last proof is older than STEP_UP_MS.
//
// What is kept: the TOTP secret sealed like bank account numbers (a database copy yields no
// factor), recovery codes only as an HMAC under the server secret, passkeys' public keys. No code,
// secret or recovery code is ever logged or written to the audit trail.
//
// Here: enrolment, recovery codes, removal and the policy. Proving a code is factor-proof.service.ts;
// passkeys are passkeys.service.ts.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Origin } from '../../domain/audit.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Membership } from '../../domain/people/roles.ts';
import { totpSecretContext } from '../../domain/sealed.ts';
import { tokenHash } from '../../domain/secret-tokens.ts';
import type { Queryable } from '../../store/db.ts';
import * as factors from '../../store/second-factors.repository.ts';
import { currentDataKeyId } from '../../store/server-secret.ts';
import { record as recordAudit } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';

/** Step-up: the riskiest acts ask for the factor again when the last proof is older than this. */
export const STEP_UP_MS = 10 * 60 * 1000;
/** Between the password and the factor: a half-signed session lasts this long. */
export const PENDING_FACTOR_MS = 10 * 60 * 1000;
/** Failed factor attempts per person, across servers (docs/security.md, "Abuse limits"). */
export const FACTOR_FAILURES = { limit: 5, ms: 15 * 60 * 1000 } as const;
export const RECOVERY_CODE_COUNT = 10;

const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the step before and after are accepted too: clocks drift, and typing takes time. */
const WINDOW_STEPS = 1;
export const ISSUER = 'checkwriter';

/** Roles that must have a second factor: those who change money's path or approve it. */
export function roleRequiresFactor(membership: Membership): boolean {
  return (
    membership.role === 'owner' || membership.role === 'admin' || membership.role === 'approver' || membership.approves
  );
}

/** Who acts, for the audit trail: the person, in the company they are working in, from where. */
export interface FactorActor {
  readonly accountId: string;
  readonly actor: Actor;
  readonly origin?: Origin;
  /** Proving the factor completes a sign-in: the sign-in is recorded then, not at the password. */
  readonly signingIn?: boolean;
}

export async function recordSignIn(tx: Queryable, who: FactorActor, now: number): Promise<void> {
  if (who.signingIn !== true) return;
  await recordAudit(
    tx,
    {
      accountId: who.accountId,
      env: '',
      actor: who.actor,
      ...(who.origin === undefined ? {} : { origin: who.origin }),
    },
    [{ action: 'sign-in', objectType: 'account', objectId: who.accountId }],
    now,
  );
}

export async function audit(
  tx: Queryable,
  who: FactorActor,
  personId: string,
  action: string,
  now: number,
  detail?: { field: string; value: string },
): Promise<void> {
  await recordAudit(
    tx,
    {
      accountId: who.accountId,
      env: '',
      actor: who.actor,
      ...(who.origin === undefined ? {} : { origin: who.origin }),
    },
    [
      {
        action,
        objectType: 'person',
        objectId: personId,
        ...(detail === undefined ? {} : { changes: [{ field: detail.field, old: null, new: detail.value }] }),
      },
    ],
    now,
  );
}

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

function sameCode(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The time step whose code `code` is, within the window around `now`, else null. */
export function matchingStep(secretBase32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpFor(secretBase32, '');
  const current = Math.floor(now / 1000 / PERIOD_SECONDS);
  let found: number | null = null;
  // Every step of the window is compared, so the time taken does not say which one matched.
  for (let step = current - WINDOW_STEPS; step <= current + WINDOW_STEPS; step += 1) {
    if (sameCode(totp.generate({ timestamp: step * PERIOD_SECONDS * 1000 }), code) && found === null) found = step;
  }
  return found;
}

function recoveryKey(secret: Buffer): Buffer {
  return createHmac('sha256', secret).update('checkwriter recovery codes').digest();
}

/** Codes are read aloud and typed: case, spaces and dashes do not matter. */
export function normalRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Recovery codes are kept as HMACs under the server secret, so a new secret can't check them and
 * they can't be hashed again (the codes themselves are not kept): `secret rotate` withdraws them
 * all in its transaction, and each person makes new ones on the security page. Answers how many
 * people had codes left. Apps and passkeys are unaffected (the app's secret is re-sealed).
 */
export function withdrawRecoveryCodesForNewSecret(tx: Queryable): Promise<number> {
  return factors.deleteAllRecoveryCodes(tx);
}

export function recoveryHash(secret: Buffer, personId: string, code: string): string {
  return createHmac('sha256', recoveryKey(secret))
    .update(`${personId}\n${normalRecoveryCode(code)}`)
    .digest('hex');
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten characters from an unambiguous alphabet (about 49 bits), shown as xxxxx-xxxxx. */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let out = '';
  for (const byte of bytes) out += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

export interface FactorSummary {
  readonly totp: 'none' | 'pending' | 'confirmed';
  readonly passkeys: readonly { id: string; name: string; createdAt: number; lastUsedAt: number | null }[];
  readonly recoveryCodesLeft: number;
}

export async function factorsOf(ctx: ServiceContext, personId: string): Promise<FactorSummary> {
  const totp = await factors.findTotp(ctx.db, personId);
  const passkeys = await factors.passkeysOf(ctx.db, personId);
  return {
    totp: totp === undefined ? 'none' : totp.confirmedAt === null ? 'pending' : 'confirmed',
    passkeys: passkeys.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt })),
    recoveryCodesLeft: await factors.unusedRecoveryCodes(ctx.db, personId),
  };
}

/** Whether a person has a factor to prove: a confirmed authenticator app or a passkey. */
export async function hasFactor(q: Queryable, personId: string): Promise<boolean> {
  const totp = await factors.findTotp(q, personId);
  if (totp?.confirmedAt !== null && totp?.confirmedAt !== undefined) return true;
  return (await factors.passkeysOf(q, personId)).length > 0;
}

/** Whether this person must have a factor in this company: by role, or the owner asked it of everyone. */
export async function factorRequired(ctx: ServiceContext, accountId: string, membership: Membership): Promise<boolean> {
  if (!ctx.config.secondFactorRequired) return false;
  return roleRequiresFactor(membership) || (await factors.factorRequiredOfEveryone(ctx.db, accountId));
}

export async function setFactorRequiredOfEveryone(
  ctx: ServiceContext,
  who: FactorActor,
  required: boolean,
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const before = await factors.factorRequiredOfEveryone(tx, who.accountId);
    if (before === required) return;
    await factors.setFactorRequiredOfEveryone(tx, who.accountId, required);
    await recordAudit(
      tx,
      {
        accountId: who.accountId,
        env: '',
        actor: who.actor,
        ...(who.origin === undefined ? {} : { origin: who.origin }),
      },
      [
        {
          action: 'settings.changed',
          objectType: 'account',
          objectId: who.accountId,
          changes: [{ field: 'secondFactorRequiredOfEveryone', old: String(before), new: String(required) }],
        },
      ],
      now,
    );
  });
}

export async function isFactorRequiredOfEveryone(ctx: ServiceContext, accountId: string): Promise<boolean> {
  return factors.factorRequiredOfEveryone(ctx.db, accountId);
}

// ---- TOTP enrolment ----

/** Starts enrolling an authenticator app: a new secret, sealed, not yet confirmed. */
export async function startTotp(ctx: ServiceContext, personId: string): Promise<void> {
  const now = ctx.now();
  const secret = new Secret({ size: 20 }).base32;
  await ctx.db.transaction(async (tx) => {
    const sealed = ctx.vault.seal(secret, await currentDataKeyId(tx), totpSecretContext(personId));
    await factors.putPendingTotp(tx, personId, sealed, now);
  });
}

export interface PendingTotp {
  /** The secret as text, for typing into an app that cannot scan. */
  readonly secret: string;
  readonly uri: string;
  /** The QR code of `uri`, as an SVG document. */
  readonly qrSvg: string;
}

/** The unconfirmed secret, opened for showing (enrolment page only), or null. */
export async function pendingTotp(ctx: ServiceContext, personId: string, label: string): Promise<PendingTotp | null> {
  const totp = await factors.findTotp(ctx.db, personId);
  if (totp === undefined || totp.confirmedAt !== null) return null;
  const secret = ctx.vault.open(totp.sealedSecret, totpSecretContext(personId));
  const uri = totpFor(secret, label).toString();
  const { default: QRCode } = await import('qrcode');
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret: secret.replace(/(.{4})/g, '$1 ').trim(), uri, qrSvg };
}

export type ConfirmOutcome = { ok: true; recoveryCodes: string[] | null } | { ok: false };

/**
 * Confirms the app by its first code. The first factor also makes the ten recovery codes (shown
 * once, returned here); the session counts as having just proven the factor.
 */
export async function confirmTotp(
  ctx: ServiceContext,
  who: FactorActor,
  personId: string,
  sessionToken: string,
  code: string,
): Promise<ConfirmOutcome> {
  const now = ctx.now();
  const totp = await factors.findTotp(ctx.db, personId);
  if (totp === undefined || totp.confirmedAt !== null) return { ok: false };
  const step = matchingStep(ctx.vault.open(totp.sealedSecret, totpSecretContext(personId)), code.trim(), now);
  if (step === null) return { ok: false };
  return ctx.db.transaction(async (tx) => {
    if ((await factors.acceptTotpStep(tx, personId, step, now, true)) !== 1) return { ok: false } as const;
    const codes =
      (await factors.unusedRecoveryCodes(tx, personId)) === 0 ? await newRecoveryCodes(ctx, tx, personId, now) : null;
    await factors.markSessionFactor(tx, tokenHash(sessionToken), now);
    await audit(tx, who, personId, 'second-factor.enrolled', now, { field: 'factor', value: 'authenticator app' });
    return { ok: true, recoveryCodes: codes } as const;
  });
}

export async function newRecoveryCodes(
  ctx: ServiceContext,
  tx: Queryable,
  personId: string,
  now: number,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await factors.replaceRecoveryCodes(
    tx,
    personId,
    codes.map((c) => recoveryHash(ctx.secret, personId, c)),
    now,
  );
  return codes;
}

/** Ten new recovery codes; the old ones stop working. Shown once, by the caller. */
export async function regenerateRecoveryCodes(
  ctx: ServiceContext,
  who: FactorActor,
  personId: string,
): Promise<string[]> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const codes = await newRecoveryCodes(ctx, tx, personId, now);
    await audit(tx, who, personId, 'second-factor.recovery-codes-regenerated', now);
    return codes;
  });
}

export type RemoveOutcome = 'removed' | 'not-found' | 'required';

/**
 * Removes the authenticator app or one passkey. The last factor of a person who must have one
 * stays (they would be sent straight back to enrol); without any factor left the recovery codes go
 * too, since they stand in for a factor that no longer exists.
 */
export async function removeFactor(
  ctx: ServiceContext,
  who: FactorActor,
  personId: string,
  which: { kind: 'totp' } | { kind: 'passkey'; id: string },
  required: boolean,
): Promise<RemoveOutcome> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const totp = await factors.findTotp(tx, personId);
    const passkeys = await factors.passkeysOf(tx, personId);
    const confirmedTotp = totp !== undefined && totp.confirmedAt !== null ? 1 : 0;
    const removing = which.kind === 'totp' ? totp !== undefined : passkeys.some((p) => p.id === which.id);
    if (!removing) return 'not-found';
    const left = confirmedTotp + passkeys.length - (which.kind === 'totp' ? confirmedTotp : 1);
    if (left === 0 && required) return 'required';
    if (which.kind === 'totp') await factors.deleteTotp(tx, personId);
    else await factors.deletePasskey(tx, personId, which.id);
    if (left === 0) await factors.deleteRecoveryCodes(tx, personId);
    await audit(tx, who, personId, 'second-factor.removed', now, {
      field: 'factor',
      value: which.kind === 'totp' ? 'authenticator app' : 'passkey',
    });
    return 'removed';
  });
}

/** Whether the session must prove the factor again before a step-up act. */
export async function stepUpDue(ctx: ServiceContext, personId: string, factorAt: number | null): Promise<boolean> {
  // A session that never proved a factor owes one only if the person has one (with the factor
  // required, a person without one never gets this far: they are sent to enrol first).
  if (factorAt === null) return hasFactor(ctx.db, personId);
  return ctx.now() - factorAt > STEP_UP_MS;
}

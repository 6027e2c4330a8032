// Accounts of the developer panel: sign up, sign in, sessions, email and phone verification and
// password resets. Verification and reset messages leave through the same outbox as check emails
// (the account's `live` rows), so the same mailer and SMS provider send them and a crash loses none.
import {
  MAX_CODE_ATTEMPTS,
  TOKEN_LIFETIME_MS,
  accountToken,
  phoneCode,
  type AccountTokenPurpose,
} from '../domain/account-tokens.ts';
import { randomToken, sameSecret, tokenHash } from '../domain/secret-tokens.ts';
import { deliveryTokenContext } from '../domain/sealed.ts';
import { currentDataKeyId } from '../store/server-secret.ts';
import type { Account } from '../domain/account.ts';
import { type Delivery, queuedMessage } from '../domain/delivery.ts';
import { newId } from '../domain/ids.ts';
import { validationError } from '../errors.ts';
import type { Db, Queryable } from '../store/db.ts';
import * as accounts from '../store/accounts.repository.ts';
import * as deliveries from '../store/deliveries.repository.ts';
import * as people from '../store/people.repository.ts';
import * as sessions from '../store/sessions.repository.ts';
import type { ServiceContext } from './context.ts';
import { hashPassword } from './password.ts';
import { addFirstOwner, type Person } from './people/people.service.ts';
import { normalisePhone } from './payee.service.ts';

/** A verification message is sent again at most this often per account. */
export const RESEND_INTERVAL_MS = 60 * 1000;
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 200;

/** An address with something before and after one @ and a dot in the domain (the CLI's rule too). */
export function isEmailAddress(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export interface SignUpInput {
  company: string;
  email: string;
  phone: string;
  password: string;
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw validationError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw validationError(`The password must not be longer than ${MAX_PASSWORD_LENGTH} characters.`);
}

/** Queues one account message in the outbox with the token it carries (same id for both). */
async function queueAccountMessage(
  ctx: ServiceContext,
  tx: Queryable,
  account: Account,
  purpose: AccountTokenPurpose,
  now: number,
  person: { id: string; email: string } | null = null,
): Promise<void> {
  const id = newId('dlv', now);
  const channel: Delivery['channel'] = purpose === 'verify-phone' ? 'sms' : 'email';
  // Email links are random tokens: the database keeps their hash, and the token itself only sealed
  // in the outbox row until the email is sent. The six-digit phone code stays derived from the
  // row id with the server secret (a hash of six digits would hide nothing).
  const token = channel === 'email' ? randomToken() : accountToken(ctx.secret, id);
  const delivery = queuedMessage(
    id,
    channel,
    channel === 'sms' ? account.phone : (person?.email ?? account.email),
    { account: purpose },
    channel === 'email' ? ctx.vault.seal(token, await currentDataKeyId(tx), deliveryTokenContext(id)) : null,
    now,
  );
  // Account messages go to the account's own people: they are real (`live`) whatever key is used.
  await deliveries.insertDeliveries(tx, { accountId: account.id, env: 'live' }, [delivery]);
  await sessions.insertToken(tx, {
    id,
    accountId: account.id,
    personId: person?.id ?? null,
    purpose,
    tokenHash: tokenHash(token),
    createdAt: now,
    expiresAt: now + TOKEN_LIFETIME_MS[purpose],
  });
}

/** Creates the account and queues its email link and phone code, all in one transaction. */
/**
 * Creates the account, or — when the email already has one — emails its owner a password-reset
 * link and returns null. The caller answers both the same way, so sign-up never tells a stranger
 * which emails have accounts; both paths hash the password first, so they
 * take as long.
 */
export async function signUp(ctx: ServiceContext, input: SignUpInput): Promise<Account | null> {
  const company = input.company.trim();
  const email = input.email.trim().toLowerCase();
  if (company === '') throw validationError('The company field is required.');
  if (company.length > 100) throw validationError('The company must not be longer than 100 characters.');
  if (!isEmailAddress(email) || email.length > 254) throw validationError('The email must be a valid email address.');
  const phone = normalisePhone(input.phone.trim());
  if (phone === null)
    throw validationError('The phone must be a valid phone number (with its country code unless it is in the US).');
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  const account: Account = {
    id: newId('acct', now),
    company,
    email,
    emailVerified: false,
    phone,
    phoneVerified: false,
    timeZone: 'UTC',
    createdAt: now,
  };
  return ctx.db.transaction(async (tx) => {
    // One email is one person across companies: an email already a person's gets a reset link
    // (through their first company's outbox) and the caller answers as for a new account.
    const person = await people.findPersonByEmail(tx, email);
    if (person !== undefined) {
      await queuePersonReset(ctx, tx, person, now);
      return null;
    }
    await accounts.insertAccount(tx, account);
    await addFirstOwner(tx, account, passwordHash, now);
    await queueAccountMessage(ctx, tx, account, 'verify-email', now);
    await queueAccountMessage(ctx, tx, account, 'verify-phone', now);
    return account;
  });
}

/** A reset link for one person, at most one a minute, sent through the outbox of their first company. */
async function queuePersonReset(ctx: ServiceContext, tx: Queryable, person: Person, now: number): Promise<void> {
  const [first] = await people.membershipsOf(tx, person.id);
  const account = first === undefined ? undefined : await accounts.findAccountById(tx, first.accountId);
  if (account === undefined) return;
  const latest = await sessions.latestToken(tx, account.id, 'reset-password');
  if (latest !== undefined && now - latest.createdAt < RESEND_INTERVAL_MS) return;
  await queueAccountMessage(ctx, tx, account, 'reset-password', now, person);
}

/** Deletes sessions past their end or idle too long: requests refuse them but leave them here. */
export function purgeExpiredSessions(ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>): Promise<number> {
  const now = ctx.now();
  return sessions.deleteEndedSessions(ctx.db, now, now - ctx.config.sessionIdleMinutes * 60_000);
}

export type ResendOutcome = 'sent' | 'too-soon' | 'already-verified';

/** Sends a fresh email link or phone code, unless one went out less than a minute ago. */
export async function resendVerification(
  ctx: ServiceContext,
  account: Account,
  what: 'email' | 'phone',
): Promise<ResendOutcome> {
  if (what === 'email' ? account.emailVerified : account.phoneVerified) return 'already-verified';
  const purpose: AccountTokenPurpose = what === 'email' ? 'verify-email' : 'verify-phone';
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const latest = await sessions.latestToken(tx, account.id, purpose);
    if (latest !== undefined && now - latest.createdAt < RESEND_INTERVAL_MS) return 'too-soon';
    await sessions.retireTokens(tx, account.id, purpose, now);
    await queueAccountMessage(ctx, tx, account, purpose, now);
    return 'sent';
  });
}

export type LinkOutcome = 'verified' | 'invalid' | 'expired';

/** The email link: marks the address verified. Works without a session (another browser, say). */
/** What the email link would do, without doing it: its page is opened with GET by mail scanners. */
export async function emailLinkState(ctx: ServiceContext, token: string): Promise<LinkOutcome | 'usable'> {
  const record = await sessions.findTokenByHash(ctx.db, tokenHash(token));
  if (record === undefined || record.purpose !== 'verify-email') return 'invalid';
  const account = await accounts.findAccountById(ctx.db, record.accountId);
  if (account?.emailVerified === true) return 'verified';
  if (record.usedAt !== null) return 'invalid';
  return record.expiresAt <= ctx.now() ? 'expired' : 'usable';
}

export async function confirmEmail(ctx: ServiceContext, token: string): Promise<LinkOutcome> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const record = await sessions.findTokenByHash(tx, tokenHash(token));
    if (record === undefined || record.purpose !== 'verify-email') return 'invalid';
    const account = await accounts.findAccountById(tx, record.accountId);
    if (account?.emailVerified === true) return 'verified';
    if (record.usedAt !== null) return 'invalid';
    if (record.expiresAt <= now) return 'expired';
    await sessions.useToken(tx, record.id, now);
    await accounts.markVerified(tx, record.accountId, { email: true, phone: false }, now);
    return 'verified';
  });
}

export type CodeOutcome = 'verified' | 'wrong' | 'expired' | 'too-many' | 'none';

/** The phone code: the latest one sent, at most MAX_CODE_ATTEMPTS tries, within its lifetime. */
export async function confirmPhone(ctx: ServiceContext, accountId: string, code: string): Promise<CodeOutcome> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const record = await sessions.latestToken(tx, accountId, 'verify-phone');
    if (record === undefined || record.usedAt !== null) return 'none';
    if (record.expiresAt <= now) return 'expired';
    if (record.attempts >= MAX_CODE_ATTEMPTS) return 'too-many';
    if (!sameSecret(phoneCode(ctx.secret, record.id), code.replace(/\s/g, ''))) {
      await sessions.countWrongAttempt(tx, record.id);
      return record.attempts + 1 >= MAX_CODE_ATTEMPTS ? 'too-many' : 'wrong';
    }
    await sessions.useToken(tx, record.id, now);
    await accounts.markVerified(tx, accountId, { email: false, phone: true }, now);
    return 'verified';
  });
}

/**
 * A one-time link to set the password of the person with this email, handed over by whoever runs
 * the server (`checkwriter people link`, `keys create`): an account made on the command line has
 * no password and, without SMTP, the emailed reset link would wait in the outbox. It is a
 * reset-password token like the emailed one (one use, one hour, the same page), only printed
 * instead of queued. Undefined when no person has this email.
 */
export async function passwordLink(
  db: Db,
  publicUrl: string,
  email: string,
  now: number = Date.now(),
): Promise<string | undefined> {
  const person = await people.findPersonByEmail(db, email.trim().toLowerCase());
  if (person === undefined) return undefined;
  const [first] = await people.membershipsOf(db, person.id);
  if (first === undefined) return undefined;
  const token = randomToken();
  await sessions.insertToken(db, {
    id: newId('tok', now),
    accountId: first.accountId,
    personId: person.id,
    purpose: 'reset-password',
    tokenHash: tokenHash(token),
    createdAt: now,
    expiresAt: now + TOKEN_LIFETIME_MS['reset-password'],
  });
  return `${publicUrl}/panel/reset-password?token=${token}`;
}

/**
 * "Forgot password": queues a reset link when the email has an account (at most one a minute).
 * The caller answers the same either way, so the form does not reveal who has an account.
 */
export async function requestPasswordReset(ctx: ServiceContext, email: string): Promise<void> {
  const person = await people.findPersonByEmail(ctx.db, email);
  if (person === undefined) return;
  const now = ctx.now();
  await ctx.db.transaction((tx) => queuePersonReset(ctx, tx, person, now));
}

/** Whether a reset link can still be used (the form is shown only then). */
export async function resetLinkState(ctx: ServiceContext, token: string): Promise<LinkOutcome | 'usable'> {
  const record = await sessions.findTokenByHash(ctx.db, tokenHash(token));
  if (record === undefined || record.purpose !== 'reset-password' || record.usedAt !== null) return 'invalid';
  return record.expiresAt <= ctx.now() ? 'expired' : 'usable';
}

/**
 * Sets the new password from a reset link. Every session of the account ends and every other
 * reset link dies with it. The link came by email, so the address is verified as well.
 */
export async function resetPassword(
  ctx: ServiceContext,
  token: string,
  password: string,
): Promise<LinkOutcome | 'done'> {
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const record = await sessions.findTokenByHash(tx, tokenHash(token));
    if (record === undefined || record.purpose !== 'reset-password') return 'invalid';
    if (record.expiresAt <= now) return 'expired';
    // Links from before people (migration 027) name nobody: they reset the account's first owner.
    const personId = record.personId ?? (await people.firstOwnerOf(tx, record.accountId));
    const person = personId === undefined ? undefined : await people.findPersonById(tx, personId);
    if (person === undefined) return 'invalid';
    if ((await sessions.useToken(tx, record.id, now)) === 0) return 'invalid';
    await sessions.retireTokens(tx, record.accountId, 'reset-password', now);
    await people.setPersonPasswordHash(tx, person.id, passwordHash);
    // The link came by email to the person: the company's address is verified when it is theirs.
    const account = await accounts.findAccountById(tx, record.accountId);
    if (account !== undefined && account.email.toLowerCase() === person.email)
      await accounts.markVerified(tx, record.accountId, { email: true, phone: false }, now);
    await sessions.deletePersonSessions(tx, person.id);
    return 'done';
  });
}

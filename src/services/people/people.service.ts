// People in companies: signing in by person, their sessions, and every change to who belongs to a
// company. All of it is here so the audit trail can be wired in one place.
//
// Signing in is `signInWithPassword` alone (email, password → the person and the company they
// open): a later step, such as a second factor, goes between it and `startSession`.
import { type AuditBy, record as recordAudit } from '../audit.service.ts';
import type { Origin } from '../../domain/audit.ts';
import { systemActor } from '../../domain/actor.ts';
import { randomBytes } from 'node:crypto';
import type { Account } from '../../domain/account.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Membership } from '../../domain/people/roles.ts';
import { tokenHash } from '../../domain/secret-tokens.ts';
import * as accounts from '../../store/accounts.repository.ts';
import type { Queryable } from '../../store/db.ts';
import * as people from '../../store/people.repository.ts';
import * as sessions from '../../store/sessions.repository.ts';
import type { ServiceContext } from '../context.ts';
import { decoyHash, verifyPassword } from '../password.ts';

export type { Person } from '../../store/people.repository.ts';

/** last_seen_at is written at most this often, so a run of page views doesn't write per request. */
export const LAST_SEEN_GRANULARITY_MS = 60 * 1000;

/** Who is signed in, in which company, with what role there. */
export interface SignedIn {
  readonly account: Account;
  readonly person: people.Person;
  readonly membership: Membership;
  /** When this session last proved the second factor (null: never); set only on sessions read back. */
  readonly factorAt?: number | null;
}

/** How long a session may stay between the right password and the second factor. */
export const PENDING_FACTOR_MS = 10 * 60 * 1000;

/** What a session cookie names: a person signed in, or one who still owes the second factor. */
export type SessionState =
  | { readonly kind: 'signed-in'; readonly signedIn: SignedIn }
  | { readonly kind: 'factor-pending'; readonly signedIn: SignedIn };

/** The actor a signed-in person acts as: their name and email, and the role they hold in this company. */
export function actorOf(signedIn: SignedIn): Actor {
  return {
    kind: 'person',
    personId: signedIn.person.id,
    name: signedIn.person.name,
    email: signedIn.person.email,
    role: signedIn.membership.role,
    approves: signedIn.membership.approves,
  };
}

/** The person id migration 026 gives an account's first owner, used for new accounts too. */
export function ownerIdFor(accountId: string): string {
  return `per_${accountId.slice('acct_'.length)}`;
}

/**
 * A new company's first person, its owner (inside the caller's transaction). An email that is
 * already a person's joins as that person: their password stays theirs.
 */
export async function addFirstOwner(
  tx: Queryable,
  account: Account,
  passwordHash: string | null,
  now: number,
): Promise<string> {
  const existing = await people.findPersonByEmail(tx, account.email);
  const personId = existing?.id ?? ownerIdFor(account.id);
  if (existing === undefined)
    await people.insertPerson(tx, { id: personId, email: account.email, name: '', createdAt: now }, passwordHash);
  await people.insertMembership(tx, {
    accountId: account.id,
    personId,
    role: 'owner',
    approves: false,
    createdAt: now,
  });
  return personId;
}

/**
 * The person when email and password match, with the company they open (their oldest membership),
 * else null. An unknown email, or one without a password, costs as much time.
 */
export async function signInWithPassword(
  ctx: ServiceContext,
  email: string,
  password: string,
  origin?: Origin,
): Promise<SignedIn | null> {
  const person = await people.findPersonByEmail(ctx.db, email);
  const stored = person === undefined ? null : await people.findPersonPasswordHash(ctx.db, person.id);
  if (person === undefined || stored === null) {
    await verifyPassword(password, await decoyHash());
    return null;
  }
  if (!(await verifyPassword(password, stored))) {
    // A failed sign-in goes in the trail of each company the person is in, with the email tried,
    // never the password; an email that names nobody has no trail to go in (docs/audit.md).
    const now = ctx.now();
    const memberships = await people.membershipsOf(ctx.db, person.id);
    await ctx.db.transaction(async (tx) => {
      for (const membership of memberships)
        await recordAudit(
          tx,
          {
            accountId: membership.accountId,
            env: '',
            actor: systemActor('sign-in'),
            ...(origin === undefined ? {} : { origin }),
          },
          [
            {
              action: 'sign-in.failed',
              objectType: 'account',
              objectId: membership.accountId,
              changes: [{ field: 'email', old: null, new: email.trim().slice(0, 320) }],
            },
          ],
          now,
        );
    });
    return null;
  }
  for (const membership of await people.membershipsOf(ctx.db, person.id)) {
    const account = await accounts.findAccountById(ctx.db, membership.accountId);
    if (account !== undefined) return { account, person, membership };
  }
  // Right password, but in no company any more: the same answer as a wrong one.
  return null;
}

function sessionLimits(ctx: ServiceContext): { idleMs: number; maxMs: number } {
  return { idleMs: ctx.config.sessionIdleMinutes * 60_000, maxMs: ctx.config.sessionMaxHours * 3_600_000 };
}

/** How long the session cookie lives: the absolute maximum (the idle timeout is checked on the server). */
export function sessionCookieSeconds(ctx: ServiceContext): number {
  return ctx.config.sessionMaxHours * 3600;
}

/** A new session id, always freshly generated: a visitor's earlier cookie is never promoted (fixation). */
export async function startSession(
  ctx: ServiceContext,
  signedIn: { accountId: string; personId: string },
  by?: AuditBy,
  /** The password was right and a second factor is owed: the session reaches only the factor page. */
  factorPending = false,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await sessions.insertSession(tx, {
      idHash: tokenHash(token),
      accountId: signedIn.accountId,
      personId: signedIn.personId,
      createdAt: now,
      expiresAt: now + sessionLimits(ctx).maxMs,
      factorPending,
    });
    // The sign-in in the company's trail, as the person who signed in.
    if (by !== undefined)
      await recordAudit(
        tx,
        {
          accountId: signedIn.accountId,
          env: '',
          actor: by.actor,
          ...(by.origin === undefined ? {} : { origin: by.origin }),
        },
        [{ action: 'sign-in', objectType: 'account', objectId: signedIn.accountId }],
        now,
      );
  });
  return token;
}

/**
 * The person a session cookie names, in its company, checked on every request: past the absolute
 * maximum, idle too long, or no longer a member of the company, the session ends here.
 */
export async function sessionFor(ctx: ServiceContext, token: string): Promise<SignedIn | undefined> {
  const state = await openSession(ctx, token);
  return state?.kind === 'signed-in' ? state.signedIn : undefined;
}

/**
 * The session a cookie names, signed in or still owing the second factor, checked on every
 * request as `sessionFor` says; a half-signed session ends PENDING_FACTOR_MS after the password.
 */
export async function openSession(ctx: ServiceContext, token: string): Promise<SessionState | undefined> {
  const hash = tokenHash(token);
  const now = ctx.now();
  const session = await sessions.findSession(ctx.db, hash);
  if (session === undefined) return undefined;
  const { idleMs, maxMs } = sessionLimits(ctx);
  const ended =
    session.expiresAt <= now ||
    now - session.createdAt >= maxMs ||
    now - session.lastSeenAt >= idleMs ||
    (session.factorPending && now - session.createdAt >= PENDING_FACTOR_MS);
  const membership = ended ? undefined : await people.findMembership(ctx.db, session.accountId, session.personId);
  const person = membership === undefined ? undefined : await people.findPersonById(ctx.db, session.personId);
  const account = person === undefined ? undefined : await accounts.findAccountById(ctx.db, session.accountId);
  // An ended session is refused here and left for the sweep to delete: reading a page (GET) must
  // not write. The one write a request makes is the idle clock below, at most once a minute:
  // bookkeeping of the session itself (like the rate limiter's counters), never of the company's data.
  if (membership === undefined || person === undefined || account === undefined) return undefined;
  if (now - session.lastSeenAt >= LAST_SEEN_GRANULARITY_MS) await sessions.touchSession(ctx.db, hash, now);
  const signedIn: SignedIn = {
    account,
    person,
    membership: { role: membership.role, approves: membership.approves },
    factorAt: session.factorAt,
  };
  return { kind: session.factorPending ? 'factor-pending' : 'signed-in', signedIn };
}

export async function endSession(ctx: ServiceContext, token: string): Promise<void> {
  await sessions.deleteSession(ctx.db, tokenHash(token));
}

/** How pages name people by id (their name, else their email); unknown ids are left out. */
export async function peopleLabels(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for (const id of new Set(ids)) {
    const person = await people.findPersonById(ctx.db, id);
    if (person !== undefined) labels.set(id, person.name.trim() === '' ? person.email : person.name);
  }
  return labels;
}

/** A person in a company as a session would name them (a new member signed in right after joining). */
export async function signedInAs(
  ctx: ServiceContext,
  accountId: string,
  personId: string,
): Promise<SignedIn | undefined> {
  const membership = await people.findMembership(ctx.db, accountId, personId);
  const person = membership === undefined ? undefined : await people.findPersonById(ctx.db, personId);
  const account = person === undefined ? undefined : await accounts.findAccountById(ctx.db, accountId);
  if (membership === undefined || person === undefined || account === undefined) return undefined;
  return { account, person, membership: { role: membership.role, approves: membership.approves } };
}

/** Signing out: the session ends, and the company's trail says who signed out. */
export async function signOutSession(
  ctx: ServiceContext,
  token: string,
  signedIn: SignedIn,
  origin?: Origin,
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await sessions.deleteSession(tx, tokenHash(token));
    await recordAudit(
      tx,
      {
        accountId: signedIn.account.id,
        env: '',
        actor: actorOf(signedIn),
        ...(origin === undefined ? {} : { origin }),
      },
      [{ action: 'sign-out', objectType: 'account', objectId: signedIn.account.id }],
      now,
    );
  });
}

/** The companies a person may switch between (the header's switcher): one query. */
export function companiesOfPerson(
  ctx: ServiceContext,
  personId: string,
): Promise<{ accountId: string; company: string }[]> {
  return people.companiesOfPerson(ctx.db, personId);
}

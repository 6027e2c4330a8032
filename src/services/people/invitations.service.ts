// Accepting an invitation link: what the link is (for the page, read only), and joining the
// company by it — as a new person who sets a name and password, or as the person already signed
// in with the invited email. Someone who has a password but is not signed in signs in first
// (through the ordinary sign-in, with whatever steps it has), then comes back to the link.
import type { Origin } from '../../domain/audit.ts';
import { newId } from '../../domain/ids.ts';
import { ROLE_NAMES, type Role } from '../../domain/people/roles.ts';
import { tokenHash } from '../../domain/secret-tokens.ts';
import { validationError } from '../../errors.ts';
import * as accounts from '../../store/accounts.repository.ts';
import type { Queryable } from '../../store/db.ts';
import * as invitations from '../../store/invitations.repository.ts';
import * as people from '../../store/people.repository.ts';
import * as sessions from '../../store/sessions.repository.ts';
import { record as recordAudit } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { hashPassword } from '../password.ts';
import type { SignedIn } from './people.service.ts';

const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 200;

/** Why a link cannot be used; each has its own words on the page. */
export type DeadInvitation = 'invalid' | 'expired' | 'used' | 'revoked';

export interface LiveInvitation {
  readonly state: 'usable';
  readonly id: string;
  readonly accountId: string;
  readonly company: string;
  readonly email: string;
  readonly role: Role;
  readonly approves: boolean;
  /** Whether the invited email is already a person (with a sign-in of their own). */
  readonly personExists: boolean;
}

function deadState(record: invitations.InvitationRecord, now: number): DeadInvitation | null {
  if (record.usedAt !== null) return 'used';
  if (record.revokedAt !== null) return 'revoked';
  if (record.expiresAt <= now) return 'expired';
  return null;
}

async function read(tx: Queryable, token: string, now: number): Promise<LiveInvitation | DeadInvitation> {
  const record = token === '' ? undefined : await invitations.findInvitationByHash(tx, tokenHash(token));
  if (record === undefined) return 'invalid';
  const dead = deadState(record, now);
  if (dead !== null) return dead;
  const account = await accounts.findAccountById(tx, record.accountId);
  if (account === undefined) return 'invalid';
  const person = await people.findPersonByEmail(tx, record.email);
  return {
    state: 'usable',
    id: record.id,
    accountId: account.id,
    company: account.company,
    email: record.email,
    role: record.role,
    approves: record.approves,
    personExists: person !== undefined,
  };
}

/** What the link would do, without doing it: its page is opened with GET by mail scanners too. */
export function invitationState(ctx: ServiceContext, token: string): Promise<LiveInvitation | DeadInvitation> {
  return read(ctx.db, token, ctx.now());
}

export type JoinOutcome =
  | { readonly joined: true; readonly accountId: string; readonly personId: string }
  | { readonly joined: false; readonly why: DeadInvitation | 'sign-in-first' | 'other-person' | 'already-member' };

/** How a person comes to the link: signed in already, or new with a name and a password. */
export type Joiner =
  | { readonly kind: 'signed-in'; readonly signedIn: SignedIn }
  | { readonly kind: 'new'; readonly name: string; readonly password: string };

function checkNewPerson(name: string, password: string): void {
  if (name.trim() === '') throw validationError('The name field is required.');
  if (name.trim().length > 100) throw validationError('The name must not be longer than 100 characters.');
  if (password.length < MIN_PASSWORD_LENGTH)
    throw validationError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw validationError(`The password must not be longer than ${MAX_PASSWORD_LENGTH} characters.`);
}

/**
 * Joins the company by the link, all in one transaction: the link used, the person (when new) and
 * their membership made, the join in the company's trail. A refused join writes nothing. A new
 * person is then signed in by the caller (startSession); a signed-in one's session moves to the
 * company they joined.
 */
export async function acceptInvitation(
  ctx: ServiceContext,
  token: string,
  joiner: Joiner,
  sessionToken: string | null,
  origin?: Origin,
): Promise<JoinOutcome> {
  let passwordHash: string | null = null;
  if (joiner.kind === 'new') {
    checkNewPerson(joiner.name, joiner.password);
    passwordHash = await hashPassword(joiner.password);
  }
  const now = ctx.now();
  return ctx.db.transaction(async (tx): Promise<JoinOutcome> => {
    const live = await read(tx, token, now);
    if (typeof live === 'string') return { joined: false, why: live };
    await accounts.lockAccount(tx, live.accountId);
    // Read again under the lock: a join that committed while this one waited has used the link
    // (on PostgreSQL the first read saw it unused), and that is what the second joiner is told.
    const locked = await read(tx, token, now);
    if (typeof locked === 'string') return { joined: false, why: locked };
    const existing = await people.findPersonByEmail(tx, live.email);
    let personId: string;
    let name: string;
    if (joiner.kind === 'signed-in') {
      if (joiner.signedIn.person.email !== live.email) return { joined: false, why: 'other-person' };
      personId = joiner.signedIn.person.id;
      name = joiner.signedIn.person.name;
    } else {
      // The email has a sign-in already: its owner proves it by signing in, not by a new password.
      if (existing !== undefined) return { joined: false, why: 'sign-in-first' };
      personId = newId('per', now);
      name = joiner.name.trim();
    }
    if ((await people.findMembership(tx, live.accountId, personId)) !== undefined)
      return { joined: false, why: 'already-member' };
    if ((await invitations.useInvitation(tx, live.id, now)) === 0) return { joined: false, why: 'used' };
    if (joiner.kind === 'new') {
      await people.insertPerson(tx, { id: personId, email: live.email, name, createdAt: now }, passwordHash);
    }
    await people.insertMembership(tx, {
      accountId: live.accountId,
      personId,
      role: live.role,
      approves: live.approves,
      createdAt: now,
    });
    if (joiner.kind === 'signed-in' && sessionToken !== null)
      await sessions.switchSessionAccount(tx, tokenHash(sessionToken), live.accountId);
    await recordAudit(
      tx,
      {
        accountId: live.accountId,
        env: '',
        actor: { kind: 'person', personId, name, email: live.email, role: live.role, approves: live.approves },
        ...(origin === undefined ? {} : { origin }),
      },
      [
        {
          action: 'person.joined',
          objectType: 'person',
          objectId: personId,
          changes: [
            { field: 'invitation', old: null, new: live.id },
            { field: 'role', old: null, new: `${ROLE_NAMES[live.role]}${live.approves ? ' (also approves)' : ''}` },
          ],
        },
      ],
      now,
    );
    return { joined: true, accountId: live.accountId, personId };
  });
}

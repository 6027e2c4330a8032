// Who belongs to a company and with what role: the people page's list, invitations sent and
// revoked, role changes, removals and leaving, and moving a session to another company. Every
// change is recorded in the company's audit trail in the same transaction as the change.
import { randomToken, tokenHash } from '../../domain/secret-tokens.ts';
import { deliveryTokenContext } from '../../domain/sealed.ts';
import type { Origin } from '../../domain/audit.ts';
import { queuedMessage } from '../../domain/delivery.ts';
import { newId } from '../../domain/ids.ts';
import type { Environment } from '../../domain/owner.ts';
import {
  approvesWith,
  forbiddenWords,
  may,
  mayGrant,
  mayManage,
  ROLE_NAMES,
  type Membership,
  type Role,
} from '../../domain/people/roles.ts';
import { AppError, validationError } from '../../errors.ts';
import * as accounts from '../../store/accounts.repository.ts';
import type { Queryable } from '../../store/db.ts';
import * as deliveries from '../../store/deliveries.repository.ts';
import * as invitations from '../../store/invitations.repository.ts';
import * as people from '../../store/people.repository.ts';
import { currentDataKeyId } from '../../store/server-secret.ts';
import * as sessions from '../../store/sessions.repository.ts';
import { record as recordAudit } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { actorOf, type SignedIn } from './people.service.ts';

export type { InvitationRecord } from '../../store/invitations.repository.ts';
export type { MemberRow } from '../../store/people.repository.ts';

/** An invitation link works this long, once. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where an invitation goes: by email (the outbox, through SMTP), or the sandbox inbox to try the flow out. */
export type InvitationRoute = 'email' | 'sandbox';

export interface InviteInput {
  readonly email: string;
  readonly role: Role;
  readonly approves: boolean;
  readonly via: InvitationRoute;
}

function auditWho(signedIn: SignedIn, origin: Origin | undefined) {
  return {
    accountId: signedIn.account.id,
    env: '' as const,
    actor: actorOf(signedIn),
    ...(origin === undefined ? {} : { origin }),
  };
}

/** The panel checks each route's action first; the service holds the same line for any other caller. */
function mustManage(signedIn: SignedIn): void {
  if (!may(signedIn.membership, 'people.manage'))
    throw new AppError('forbidden', forbiddenWords(signedIn.membership, 'people.manage', signedIn.account.company));
}

function roleWords(m: Membership): string {
  return `${ROLE_NAMES[m.role]}${m.approves ? ' (also approves)' : ''}`;
}

export async function membersOf(ctx: ServiceContext, accountId: string): Promise<people.MemberRow[]> {
  return people.membersOf(ctx.db, accountId);
}

export async function pendingInvitations(
  ctx: ServiceContext,
  accountId: string,
): Promise<invitations.InvitationRecord[]> {
  return invitations.pendingInvitations(ctx.db, accountId, ctx.now());
}

/** The companies a person may switch between, oldest membership first. */
export async function companiesOf(
  ctx: ServiceContext,
  personId: string,
): Promise<{ accountId: string; company: string; role: Role }[]> {
  const out: { accountId: string; company: string; role: Role }[] = [];
  for (const m of await people.membershipsOf(ctx.db, personId)) {
    const account = await accounts.findAccountById(ctx.db, m.accountId);
    if (account !== undefined) out.push({ accountId: account.id, company: account.company, role: m.role });
  }
  return out;
}

/** Queues the invitation email in the outbox, its link sealed in the row until it is sent. */
async function queueInvitation(
  ctx: ServiceContext,
  tx: Queryable,
  accountId: string,
  email: string,
  via: InvitationRoute,
  token: string,
  role: Role,
  inviter: string,
  now: number,
): Promise<void> {
  const id = newId('dlv', now);
  const delivery = queuedMessage(
    id,
    'email',
    email,
    { account: 'invite', role: ROLE_NAMES[role], inviter },
    ctx.vault.seal(token, await currentDataKeyId(tx), deliveryTokenContext(id)),
    now,
  );
  // A sandbox invitation is a test message: it lands in the company's sandbox inbox, nothing leaves.
  const env: Environment = via === 'sandbox' ? 'test' : 'live';
  await deliveries.insertDeliveries(tx, { accountId, env }, [delivery]);
}

/**
 * Invites an email to the company with a role. Someone already in the company is refused; an
 * earlier waiting invitation to the same email is revoked, so one link at a time works.
 */
export async function invite(
  ctx: ServiceContext,
  signedIn: SignedIn,
  input: InviteInput,
  origin?: Origin,
): Promise<invitations.InvitationRecord> {
  mustManage(signedIn);
  const email = input.email.trim().toLowerCase();
  if (!EMAIL_SHAPE.test(email) || email.length > 254) throw validationError('The email must be a valid email address.');
  if (!mayGrant(signedIn.membership.role, input.role))
    throw new AppError(
      'forbidden',
      `Your role, ${ROLE_NAMES[signedIn.membership.role]}, can't make ${ROLE_NAMES[input.role]}s. Only an owner makes owners.`,
    );
  const accountId = signedIn.account.id;
  const now = ctx.now();
  const token = randomToken();
  const record: invitations.InvitationRecord = {
    id: newId('inv', now),
    accountId,
    email,
    role: input.role,
    approves: approvesWith(input.role, input.approves),
    invitedBy: signedIn.person.id,
    createdAt: now,
    expiresAt: now + INVITATION_LIFETIME_MS,
    usedAt: null,
    revokedAt: null,
  };
  await ctx.db.transaction(async (tx) => {
    await accounts.lockAccount(tx, accountId);
    const person = await people.findPersonByEmail(tx, email);
    if (person !== undefined && (await people.findMembership(tx, accountId, person.id)) !== undefined)
      throw new AppError('conflict', `${email} is already in ${signedIn.account.company}.`);
    const events = [];
    for (const earlier of await invitations.pendingInvitations(tx, accountId, now)) {
      if (earlier.email !== email) continue;
      await invitations.revokeInvitation(tx, accountId, earlier.id, now);
      events.push({ action: 'invitation.revoked', objectType: 'invitation', objectId: earlier.id });
    }
    await invitations.insertInvitation(tx, { ...record, tokenHash: tokenHash(token) });
    const inviter = signedIn.person.name.trim() === '' ? signedIn.person.email : signedIn.person.name;
    await queueInvitation(ctx, tx, accountId, email, input.via, token, record.role, inviter, now);
    events.push({
      action: 'invitation.sent',
      objectType: 'invitation',
      objectId: record.id,
      changes: [
        { field: 'email', old: null, new: email },
        { field: 'role', old: null, new: roleWords(record) },
      ],
    });
    await recordAudit(tx, auditWho(signedIn, origin), events, now);
  });
  return record;
}

export async function revokeInvitation(
  ctx: ServiceContext,
  signedIn: SignedIn,
  id: string,
  origin?: Origin,
): Promise<void> {
  mustManage(signedIn);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const found = await invitations.findInvitation(tx, signedIn.account.id, id);
    if (found === undefined || (await invitations.revokeInvitation(tx, signedIn.account.id, id, now)) === 0)
      throw new AppError('not_found', 'That invitation is not waiting any more (used, revoked or never made).');
    await recordAudit(
      tx,
      auditWho(signedIn, origin),
      [
        {
          action: 'invitation.revoked',
          objectType: 'invitation',
          objectId: id,
          changes: [{ field: 'email', old: found.email, new: null }],
        },
      ],
      now,
    );
  });
}

/** The person's place, read with the company locked, or a 404 when they are not in it. */
async function lockedMember(tx: Queryable, accountId: string, personId: string) {
  // One decision about a company's people at a time (PostgreSQL: the account row's lock; SQLite:
  // one writer): two owners demoting each other at once cannot both see the other still an owner.
  await accounts.lockAccount(tx, accountId);
  const member = await people.findMembership(tx, accountId, personId);
  if (member === undefined) throw new AppError('not_found', 'That person is not in this company.');
  return member;
}

const LAST_OWNER = 'A company needs an owner: make someone else an owner first.';

/**
 * Changes a person's role (and approving flag). `from` is the role the manager saw: when another
 * manager changed it meanwhile, the change is refused rather than overwriting theirs. Their
 * sessions in this company end at once, so the new role applies from their next request.
 */
export async function changeRole(
  ctx: ServiceContext,
  signedIn: SignedIn,
  personId: string,
  from: Membership,
  to: Membership,
  origin?: Origin,
): Promise<void> {
  mustManage(signedIn);
  const accountId = signedIn.account.id;
  const next: Membership = { role: to.role, approves: approvesWith(to.role, to.approves) };
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const member = await lockedMember(tx, accountId, personId);
    const manager = signedIn.membership.role;
    if (!mayManage(manager, member.role) || !mayGrant(manager, next.role))
      throw new AppError('forbidden', `Your role, ${ROLE_NAMES[manager]}, can't change an owner or make owners.`);
    if (member.role !== from.role || member.approves !== from.approves)
      throw new AppError(
        'conflict',
        `Someone changed this person's role to ${roleWords(member)} meanwhile. Look again and choose.`,
      );
    if (member.role === next.role && member.approves === next.approves) return;
    if (member.role === 'owner' && next.role !== 'owner' && (await people.countOwners(tx, accountId)) <= 1)
      throw new AppError('conflict', LAST_OWNER);
    if ((await people.updateMembership(tx, accountId, personId, from, next)) === 0)
      throw new AppError('conflict', "Someone changed this person's role meanwhile. Look again and choose.");
    await sessions.deletePersonSessionsIn(tx, personId, accountId);
    await recordAudit(
      tx,
      auditWho(signedIn, origin),
      [
        {
          action: 'person.role-changed',
          objectType: 'person',
          objectId: personId,
          changes: [{ field: 'role', old: roleWords(member), new: roleWords(next) }],
        },
      ],
      now,
    );
  });
}

/**
 * Removes a person from the company (or, when it is the person themself, they leave). Their
 * sessions in this company end at once; their other companies are untouched.
 */
export async function removePerson(
  ctx: ServiceContext,
  signedIn: SignedIn,
  personId: string,
  origin?: Origin,
): Promise<void> {
  const accountId = signedIn.account.id;
  const self = personId === signedIn.person.id;
  if (!self) mustManage(signedIn);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const member = await lockedMember(tx, accountId, personId);
    if (!self && !mayManage(signedIn.membership.role, member.role))
      throw new AppError(
        'forbidden',
        `Your role, ${ROLE_NAMES[signedIn.membership.role]}, can't remove an owner. Only an owner can.`,
      );
    if (member.role === 'owner' && (await people.countOwners(tx, accountId)) <= 1)
      throw new AppError('conflict', LAST_OWNER);
    await people.deleteMembership(tx, accountId, personId);
    await sessions.deletePersonSessionsIn(tx, personId, accountId);
    const person = await people.findPersonById(tx, personId);
    await recordAudit(
      tx,
      auditWho(signedIn, origin),
      [
        {
          action: self ? 'person.left' : 'person.removed',
          objectType: 'person',
          objectId: personId,
          changes: [
            { field: 'email', old: person?.email ?? null, new: null },
            { field: 'role', old: roleWords(member), new: null },
          ],
        },
      ],
      now,
    );
  });
}

/**
 * Moves a session to another company of the same person. Any company they are not in answers
 * 404, as an unknown id would: the switcher tells nobody which companies exist.
 */
export async function switchCompany(
  ctx: ServiceContext,
  signedIn: SignedIn,
  sessionToken: string,
  accountId: string,
  origin?: Origin,
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const member = await people.findMembership(tx, accountId, signedIn.person.id);
    const account = member === undefined ? undefined : await accounts.findAccountById(tx, accountId);
    if (member === undefined || account === undefined) throw new AppError('not_found', 'Not found.');
    await sessions.switchSessionAccount(tx, tokenHash(sessionToken), accountId);
    const actor = { ...actorOf(signedIn), role: member.role, approves: member.approves };
    const event = { action: 'company.switched', objectType: 'account' };
    // The move goes in both trails: the company left, and the one entered with the role held there.
    await recordAudit(
      tx,
      auditWho(signedIn, origin),
      [
        {
          ...event,
          objectId: accountId,
          changes: [{ field: 'company', old: signedIn.account.company, new: account.company }],
        },
      ],
      now,
    );
    await recordAudit(
      tx,
      { accountId, env: '', actor, ...(origin === undefined ? {} : { origin }) },
      [
        {
          ...event,
          objectId: accountId,
          changes: [{ field: 'company', old: signedIn.account.company, new: account.company }],
        },
      ],
      now,
    );
  });
}

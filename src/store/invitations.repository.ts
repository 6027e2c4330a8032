// Invitations to a company (migration 026): single-use links, only the token's hash kept.
import type { Role } from '../domain/people/roles.ts';
import type { Queryable } from './db.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

export interface InvitationRecord {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  approves: boolean;
  invitedBy: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
}

interface InvitationsRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  approves: number;
  invited_by: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

const INVITATIONS = defineTable<InvitationsRow>()('invitations', [
  'id',
  'account_id',
  'email',
  'role',
  'approves',
  'invited_by',
  'token_hash',
  'created_at',
  'expires_at',
  'used_at',
  'revoked_at',
]);
const INSERT = insertStatement(INVITATIONS);
// Reads leave the hash out: a lookup by hash has it already, and nothing else needs it.
const COLUMNS = raw(columnList(INVITATIONS, { except: ['token_hash'] }));

function toInvitation(row: Omit<InvitationsRow, 'token_hash'>): InvitationRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    role: row.role,
    approves: Number(row.approves) === 1,
    invitedBy: row.invited_by,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

export async function insertInvitation(
  q: Queryable,
  invitation: Omit<InvitationRecord, 'usedAt' | 'revokedAt'> & { tokenHash: string },
): Promise<void> {
  await q.run(
    INSERT,
    rowValues(INVITATIONS, {
      id: invitation.id,
      account_id: invitation.accountId,
      email: invitation.email,
      role: invitation.role,
      approves: invitation.approves ? 1 : 0,
      invited_by: invitation.invitedBy,
      token_hash: invitation.tokenHash,
      created_at: invitation.createdAt,
      expires_at: invitation.expiresAt,
      used_at: null,
      revoked_at: null,
    }),
  );
}

export async function findInvitationByHash(q: Queryable, tokenHash: string): Promise<InvitationRecord | undefined> {
  const s = sql`SELECT ${COLUMNS} FROM invitations WHERE token_hash = ${tokenHash}`;
  const row = await q.get<InvitationsRow>(s.text, s.params);
  return row === undefined ? undefined : toInvitation(row);
}

export async function findInvitation(
  q: Queryable,
  accountId: string,
  id: string,
): Promise<InvitationRecord | undefined> {
  const s = sql`SELECT ${COLUMNS} FROM invitations WHERE account_id = ${accountId} AND id = ${id}`;
  const row = await q.get<InvitationsRow>(s.text, s.params);
  return row === undefined ? undefined : toInvitation(row);
}

/** The company's invitations still waiting (neither used, revoked nor expired), newest first. */
export async function pendingInvitations(q: Queryable, accountId: string, now: number): Promise<InvitationRecord[]> {
  const s = sql`SELECT ${COLUMNS} FROM invitations WHERE account_id = ${accountId} AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ${now} ORDER BY created_at DESC, id DESC`;
  const rows = await q.all<InvitationsRow>(s.text, s.params);
  return rows.map(toInvitation);
}

/** Marks an invitation used; answers 0 when it was used, revoked or expired first (single use under races). */
export async function useInvitation(q: Queryable, id: string, now: number): Promise<number> {
  const s = sql`UPDATE invitations SET used_at = ${now} WHERE id = ${id} AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}`;
  return q.run(s.text, s.params);
}

/** Revokes a waiting invitation; answers 0 when it was no longer waiting. */
export async function revokeInvitation(q: Queryable, accountId: string, id: string, now: number): Promise<number> {
  const s = sql`UPDATE invitations SET revoked_at = ${now} WHERE account_id = ${accountId} AND id = ${id} AND used_at IS NULL AND revoked_at IS NULL`;
  return q.run(s.text, s.params);
}

// Panel sessions and one-time account tokens (verification links, phone codes, password resets).
import type { AccountTokenPurpose } from '../domain/account-tokens.ts';
import type { Queryable } from './db.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/**
 * The panel_sessions table as stored (migrations 006, 026 and 030): only the session id's hash is kept;
 * the person signed in, the company they work in (`account_id`) and when they were last seen.
 */
interface PanelSessionsRow {
  id_hash: string;
  account_id: string;
  person_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  factor_at: number | null;
  factor_pending: number;
  webauthn_challenge: string | null;
}

const PANEL_SESSIONS = defineTable<PanelSessionsRow>()('panel_sessions', [
  'id_hash',
  'account_id',
  'person_id',
  'created_at',
  'expires_at',
  'last_seen_at',
  'factor_at',
  'factor_pending',
  'webauthn_challenge',
]);

export interface PanelSessionRecord {
  accountId: string;
  personId: string;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
  /** When the second factor was last proven in this session (migration 030); null: never. */
  factorAt: number | null;
  /** The password was right but the second factor is still owed: only the factor page is open. */
  factorPending: boolean;
}

const INSERT_SESSION = insertStatement(PANEL_SESSIONS);
// A lookup by the id's hash has the hash already; the passkey challenge is read only when taken.
const SESSION_COLUMNS = raw(columnList(PANEL_SESSIONS, { except: ['id_hash', 'webauthn_challenge'] }));

export async function insertSession(
  q: Queryable,
  session: {
    idHash: string;
    accountId: string;
    personId: string;
    createdAt: number;
    expiresAt: number;
    factorPending?: boolean;
  },
): Promise<void> {
  await q.run(
    INSERT_SESSION,
    rowValues(PANEL_SESSIONS, {
      id_hash: session.idHash,
      account_id: session.accountId,
      person_id: session.personId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
      last_seen_at: session.createdAt,
      factor_at: null,
      factor_pending: session.factorPending === true ? 1 : 0,
      // A passkey ceremony sets its challenge (second-factors.repository.ts).
      webauthn_challenge: null,
    }),
  );
}

export async function findSession(q: Queryable, idHash: string): Promise<PanelSessionRecord | undefined> {
  const s = sql`SELECT ${SESSION_COLUMNS} FROM panel_sessions WHERE id_hash = ${idHash}`;
  const row = await q.get<Omit<PanelSessionsRow, 'id_hash' | 'webauthn_challenge'>>(s.text, s.params);
  if (row === undefined || row.person_id === null) return undefined;
  return {
    accountId: row.account_id,
    personId: row.person_id,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    lastSeenAt: row.last_seen_at === null ? Number(row.created_at) : Number(row.last_seen_at),
    factorAt: row.factor_at === null ? null : Number(row.factor_at),
    factorPending: Number(row.factor_pending) === 1,
  };
}

export async function touchSession(q: Queryable, idHash: string, now: number): Promise<void> {
  const s = sql`UPDATE panel_sessions SET last_seen_at = ${now} WHERE id_hash = ${idHash}`;
  await q.run(s.text, s.params);
}

/** Moves a session to another company of the same person (the company switcher). */
export async function switchSessionAccount(q: Queryable, idHash: string, accountId: string): Promise<void> {
  const s = sql`UPDATE panel_sessions SET account_id = ${accountId} WHERE id_hash = ${idHash}`;
  await q.run(s.text, s.params);
}

/** Ends one person's sessions in one company (their role changed, or they left it). */
export async function deletePersonSessionsIn(q: Queryable, personId: string, accountId: string): Promise<void> {
  const s = sql`DELETE FROM panel_sessions WHERE person_id = ${personId} AND account_id = ${accountId}`;
  await q.run(s.text, s.params);
}

/** Ends every session of one person (their password was reset). */
export async function deletePersonSessions(q: Queryable, personId: string): Promise<void> {
  const s = sql`DELETE FROM panel_sessions WHERE person_id = ${personId}`;
  await q.run(s.text, s.params);
}

export async function deleteSession(q: Queryable, idHash: string): Promise<void> {
  const s = sql`DELETE FROM panel_sessions WHERE id_hash = ${idHash}`;
  await q.run(s.text, s.params);
}

export async function deleteAccountSessions(q: Queryable, accountId: string): Promise<void> {
  const s = sql`DELETE FROM panel_sessions WHERE account_id = ${accountId}`;
  await q.run(s.text, s.params);
}

/** Sessions past their absolute end, or whose last request is before `idleSince`. */
export async function deleteEndedSessions(q: Queryable, now: number, idleSince: number): Promise<number> {
  const s = sql`DELETE FROM panel_sessions WHERE expires_at <= ${now} OR COALESCE(last_seen_at, created_at) <= ${idleSince}`;
  return q.run(s.text, s.params);
}

export interface AccountTokenRecord {
  id: string;
  accountId: string;
  /** The person a reset link resets (migration 027); null on older links and on verifications. */
  personId: string | null;
  purpose: AccountTokenPurpose;
  attempts: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** The account_tokens table as stored (migration 006): the token itself is never kept, its hash is. */
interface AccountTokensRow {
  id: string;
  account_id: string;
  person_id: string | null;
  purpose: AccountTokenPurpose;
  token_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

const ACCOUNT_TOKENS = defineTable<AccountTokensRow>()('account_tokens', [
  'id',
  'account_id',
  'person_id',
  'purpose',
  'token_hash',
  'attempts',
  'created_at',
  'expires_at',
  'used_at',
]);

const INSERT_TOKEN = insertStatement(ACCOUNT_TOKENS);
// Reads leave the hash out: a lookup by hash has it already, and nothing else needs it.
const TOKEN_COLUMNS = raw(columnList(ACCOUNT_TOKENS, { except: ['token_hash'] }));

type TokenRow = Omit<AccountTokensRow, 'token_hash'>;

function toToken(row: TokenRow): AccountTokenRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    personId: row.person_id,
    purpose: row.purpose,
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

export async function insertToken(
  q: Queryable,
  token: Omit<AccountTokenRecord, 'attempts' | 'usedAt'> & { tokenHash: string },
): Promise<void> {
  await q.run(
    INSERT_TOKEN,
    rowValues(ACCOUNT_TOKENS, {
      id: token.id,
      account_id: token.accountId,
      person_id: token.personId,
      purpose: token.purpose,
      token_hash: token.tokenHash,
      attempts: 0,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      used_at: null,
    }),
  );
}

export async function findTokenByHash(q: Queryable, tokenHash: string): Promise<AccountTokenRecord | undefined> {
  const s = sql`SELECT ${TOKEN_COLUMNS} FROM account_tokens WHERE token_hash = ${tokenHash}`;
  const row = await q.get<TokenRow>(s.text, s.params);
  return row === undefined ? undefined : toToken(row);
}

export async function latestToken(
  q: Queryable,
  accountId: string,
  purpose: AccountTokenPurpose,
): Promise<AccountTokenRecord | undefined> {
  const s = sql`SELECT ${TOKEN_COLUMNS} FROM account_tokens WHERE account_id = ${accountId} AND purpose = ${purpose} ORDER BY created_at DESC, id DESC LIMIT 1`;
  const row = await q.get<TokenRow>(s.text, s.params);
  return row === undefined ? undefined : toToken(row);
}

export async function countWrongAttempt(q: Queryable, id: string): Promise<void> {
  const s = sql`UPDATE account_tokens SET attempts = attempts + 1 WHERE id = ${id}`;
  await q.run(s.text, s.params);
}

/** Marks a token used; answers 0 when another request used it first (single use under races). */
export async function useToken(q: Queryable, id: string, now: number): Promise<number> {
  const s = sql`UPDATE account_tokens SET used_at = ${now} WHERE id = ${id} AND used_at IS NULL`;
  return q.run(s.text, s.params);
}

/** Retires every unused token of one purpose (after a password reset, say). */
export async function retireTokens(
  q: Queryable,
  accountId: string,
  purpose: AccountTokenPurpose,
  now: number,
): Promise<void> {
  const s = sql`UPDATE account_tokens SET used_at = ${now} WHERE account_id = ${accountId} AND purpose = ${purpose} AND used_at IS NULL`;
  await q.run(s.text, s.params);
}

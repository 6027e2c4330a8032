import type { Environment } from '../domain/owner.ts';
import type { Account, ApiKeyRecord } from '../domain/account.ts';
import type { Queryable } from './db.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/** The accounts table as stored (migrations 001, 006, 015 and 030). */
interface AccountsRow {
  id: string;
  company: string;
  email: string;
  email_verified_at: number | null;
  phone: string;
  phone_verified_at: number | null;
  time_zone: string;
  created_at: number;
  password_hash: string | null;
  company_address: string;
  company_phone: string;
  logo: Buffer | null;
  factor_required: number;
}

const ACCOUNTS = defineTable<AccountsRow>()('accounts', [
  'id',
  'company',
  'email',
  'email_verified_at',
  'phone',
  'phone_verified_at',
  'time_zone',
  'created_at',
  'password_hash',
  'company_address',
  'company_phone',
  'logo',
  'factor_required',
]);

/**
 * What an `Account` is read from: not the password hash, the sender's details, the logo, or
 * whether everyone needs a second factor (second-factors.repository.ts reads that).
 */
const NOT_READ = ['password_hash', 'company_address', 'company_phone', 'logo', 'factor_required'] as const;
type AccountRow = Omit<AccountsRow, (typeof NOT_READ)[number]>;

/** The API keys table as stored (migration 001). */
interface ApiKeyRow {
  id: string;
  account_id: string;
  env: Environment;
  name: string;
  key_hash: string;
  display_prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  created_by: string | null;
}

const API_KEYS = defineTable<ApiKeyRow>()('api_keys', [
  'id',
  'account_id',
  'env',
  'name',
  'key_hash',
  'display_prefix',
  'created_at',
  'last_used_at',
  'revoked_at',
  'created_by',
]);

// Named, not `*`: the logo (migration 015) stays out of the read every panel page makes.
const ACCOUNT_COLUMNS = raw(columnList(ACCOUNTS, { except: NOT_READ }));
const ACCOUNT_COLUMNS_OF_A = raw(columnList(ACCOUNTS, { alias: 'a', except: NOT_READ }));
const INSERT_ACCOUNT = insertStatement(ACCOUNTS);
const INSERT_API_KEY = insertStatement(API_KEYS);
const API_KEY_COLUMNS = raw(columnList(API_KEYS));

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    company: row.company,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    phone: row.phone,
    phoneVerified: row.phone_verified_at !== null,
    timeZone: row.time_zone,
    createdAt: Number(row.created_at),
  };
}

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    env: row.env,
    name: row.name,
    keyHash: row.key_hash,
    displayPrefix: row.display_prefix,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    createdBy: row.created_by ?? null,
  };
}

export async function findAccountById(q: Queryable, id: string): Promise<Account | undefined> {
  const s = sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ${id}`;
  const row = await q.get<AccountRow>(s.text, s.params);
  return row === undefined ? undefined : toAccount(row);
}

export async function findAccountByEmail(q: Queryable, email: string): Promise<Account | undefined> {
  const s = sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = ${email.toLowerCase()}`;
  const row = await q.get<AccountRow>(s.text, s.params);
  return row === undefined ? undefined : toAccount(row);
}

export async function insertAccount(q: Queryable, account: Account): Promise<void> {
  const now = account.createdAt;
  await q.run(
    INSERT_ACCOUNT,
    rowValues(ACCOUNTS, {
      id: account.id,
      company: account.company,
      email: account.email.toLowerCase(),
      email_verified_at: account.emailVerified ? now : null,
      phone: account.phone,
      phone_verified_at: account.phoneVerified ? now : null,
      time_zone: account.timeZone,
      created_at: now,
      // Set later, by the owner (a password, the sender's details, a logo).
      password_hash: null,
      company_address: '',
      company_phone: '',
      logo: null,
      factor_required: 0,
    }),
  );
}

export async function markVerified(
  q: Queryable,
  accountId: string,
  what: { email: boolean; phone: boolean },
  now: number,
): Promise<number> {
  const s = sql`UPDATE accounts SET
       email_verified_at = CASE WHEN ${what.email ? 1 : 0} = 1 THEN COALESCE(email_verified_at, ${now}) ELSE email_verified_at END,
       phone_verified_at = CASE WHEN ${what.phone ? 1 : 0} = 1 THEN COALESCE(phone_verified_at, ${now}) ELSE phone_verified_at END
     WHERE id = ${accountId}`;
  return q.run(s.text, s.params);
}

export async function insertApiKey(q: Queryable, key: ApiKeyRecord): Promise<void> {
  await q.run(
    INSERT_API_KEY,
    rowValues(API_KEYS, {
      id: key.id,
      account_id: key.accountId,
      env: key.env,
      name: key.name,
      key_hash: key.keyHash,
      display_prefix: key.displayPrefix,
      created_at: key.createdAt,
      last_used_at: null,
      revoked_at: null,
      created_by: key.createdBy,
    }),
  );
}

/**
 * Holds the account's row until the transaction ends (PostgreSQL: a row lock; SQLite: the
 * transaction's write lock), so decisions about its keys are taken one at a time.
 */
export async function lockAccount(q: Queryable, accountId: string): Promise<void> {
  const s = sql`UPDATE accounts SET id = id WHERE id = ${accountId}`;
  await q.run(s.text, s.params);
}

export async function countActiveApiKeys(q: Queryable, accountId: string, env: string): Promise<number> {
  const s = sql`SELECT count(*) AS n FROM api_keys WHERE account_id = ${accountId} AND env = ${env} AND revoked_at IS NULL`;
  const row = await q.get<{ n: number | string }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

export async function findApiKey(q: Queryable, id: string): Promise<ApiKeyRecord | undefined> {
  const s = sql`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = ${id}`;
  const row = await q.get<ApiKeyRow>(s.text, s.params);
  return row === undefined ? undefined : toApiKey(row);
}

export async function listApiKeys(q: Queryable, accountId: string | null): Promise<ApiKeyRecord[]> {
  const s =
    accountId === null
      ? sql`SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`
      : sql`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ${accountId} ORDER BY created_at, id`;
  const rows = await q.all<ApiKeyRow>(s.text, s.params);
  return rows.map(toApiKey);
}

/** Whether any key is still usable (the start banner's hint), without reading every key. */
export async function hasActiveApiKey(q: Queryable): Promise<boolean> {
  return (await q.get('SELECT 1 AS found FROM api_keys WHERE revoked_at IS NULL LIMIT 1')) !== undefined;
}

export async function revokeApiKey(q: Queryable, id: string, now: number): Promise<number> {
  const s = sql`UPDATE api_keys SET revoked_at = ${now} WHERE id = ${id} AND revoked_at IS NULL`;
  return q.run(s.text, s.params);
}

export async function touchApiKey(q: Queryable, id: string, now: number): Promise<void> {
  const s = sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${id}`;
  await q.run(s.text, s.params);
}

// ---- panel sign-in ----

/** The account a live panel session belongs to: one query per page view. */
export async function findAccountBySession(
  q: Queryable,
  sessionHash: string,
  now: number,
): Promise<Account | undefined> {
  const s = sql`SELECT ${ACCOUNT_COLUMNS_OF_A} FROM panel_sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = ${sessionHash} AND s.expires_at > ${now}`;
  const row = await q.get<AccountRow>(s.text, s.params);
  return row === undefined ? undefined : toAccount(row);
}

export async function findPasswordHash(q: Queryable, accountId: string): Promise<string | null> {
  const s = sql`SELECT password_hash FROM accounts WHERE id = ${accountId}`;
  const row = await q.get<{ password_hash: string | null }>(s.text, s.params);
  return row?.password_hash ?? null;
}

export async function setPasswordHash(q: Queryable, accountId: string, hash: string): Promise<void> {
  const s = sql`UPDATE accounts SET password_hash = ${hash} WHERE id = ${accountId}`;
  await q.run(s.text, s.params);
}

// ---- account settings (what payees see as the sender) ----

export interface AccountSettings {
  company: string;
  companyAddress: string;
  companyPhone: string;
  timeZone: string;
  hasLogo: boolean;
}

export async function findAccountSettings(q: Queryable, accountId: string): Promise<AccountSettings | undefined> {
  const s = sql`SELECT company, company_address, company_phone, time_zone, CASE WHEN logo IS NULL THEN 0 ELSE 1 END AS has_logo
     FROM accounts WHERE id = ${accountId}`;
  const row = await q.get<{
    company: string;
    company_address: string;
    company_phone: string;
    time_zone: string;
    has_logo: number;
  }>(s.text, s.params);
  if (row === undefined) return undefined;
  return {
    company: row.company,
    companyAddress: row.company_address,
    companyPhone: row.company_phone,
    timeZone: row.time_zone,
    hasLogo: Number(row.has_logo) === 1,
  };
}

export async function updateAccountSettings(
  q: Queryable,
  accountId: string,
  settings: Omit<AccountSettings, 'hasLogo'>,
): Promise<number> {
  const s = sql`UPDATE accounts SET company = ${settings.company}, company_address = ${settings.companyAddress}, company_phone = ${settings.companyPhone}, time_zone = ${settings.timeZone} WHERE id = ${accountId}`;
  return q.run(s.text, s.params);
}

export async function setCompany(q: Queryable, accountId: string, company: string): Promise<void> {
  const s = sql`UPDATE accounts SET company = ${company} WHERE id = ${accountId}`;
  await q.run(s.text, s.params);
}

export async function setAccountLogo(q: Queryable, accountId: string, image: Buffer | null): Promise<void> {
  const s = sql`UPDATE accounts SET logo = ${image} WHERE id = ${accountId}`;
  await q.run(s.text, s.params);
}

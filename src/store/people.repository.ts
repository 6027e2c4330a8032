// People, their memberships in companies (migration 026) and their panel sessions' owners.
import type { Role } from '../domain/people/roles.ts';
import type { Queryable } from './db.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

export interface Person {
  id: string;
  email: string;
  name: string;
  createdAt: number;
}

export interface MembershipRecord {
  accountId: string;
  personId: string;
  role: Role;
  approves: boolean;
  createdAt: number;
}

interface PeopleRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: number;
}

interface MembershipsRow {
  account_id: string;
  person_id: string;
  role: Role;
  approves: number;
  created_at: number;
}

const PEOPLE = defineTable<PeopleRow>()('people', ['id', 'email', 'name', 'password_hash', 'created_at']);
const MEMBERSHIPS = defineTable<MembershipsRow>()('memberships', [
  'account_id',
  'person_id',
  'role',
  'approves',
  'created_at',
]);
const INSERT_PERSON = insertStatement(PEOPLE);
const INSERT_MEMBERSHIP = insertStatement(MEMBERSHIPS);
// A person is read without the password hash: only the sign-in asks for it, by itself.
const PERSON_COLUMNS = raw(columnList(PEOPLE, { except: ['password_hash'] }));
const MEMBERSHIP_COLUMNS = raw(columnList(MEMBERSHIPS));

function toPerson(row: Omit<PeopleRow, 'password_hash'>): Person {
  return { id: row.id, email: row.email, name: row.name, createdAt: Number(row.created_at) };
}

function toMembership(row: MembershipsRow): MembershipRecord {
  return {
    accountId: row.account_id,
    personId: row.person_id,
    role: row.role,
    approves: Number(row.approves) === 1,
    createdAt: Number(row.created_at),
  };
}

export async function insertPerson(q: Queryable, person: Person, passwordHash: string | null): Promise<void> {
  await q.run(
    INSERT_PERSON,
    rowValues(PEOPLE, {
      id: person.id,
      email: person.email,
      name: person.name,
      password_hash: passwordHash,
      created_at: person.createdAt,
    }),
  );
}

export async function insertMembership(q: Queryable, m: MembershipRecord): Promise<void> {
  await q.run(
    INSERT_MEMBERSHIP,
    rowValues(MEMBERSHIPS, {
      account_id: m.accountId,
      person_id: m.personId,
      role: m.role,
      approves: m.approves ? 1 : 0,
      created_at: m.createdAt,
    }),
  );
}

/** Emails are kept lower-cased; the caller's is lower-cased here too, so case never splits a person. */
export async function findPersonByEmail(q: Queryable, email: string): Promise<Person | undefined> {
  const s = sql`SELECT ${PERSON_COLUMNS} FROM people WHERE email = ${email.trim().toLowerCase()}`;
  const row = await q.get<PeopleRow>(s.text, s.params);
  return row === undefined ? undefined : toPerson(row);
}

export async function findPersonById(q: Queryable, id: string): Promise<Person | undefined> {
  const s = sql`SELECT ${PERSON_COLUMNS} FROM people WHERE id = ${id}`;
  const row = await q.get<PeopleRow>(s.text, s.params);
  return row === undefined ? undefined : toPerson(row);
}

export async function findPersonPasswordHash(q: Queryable, personId: string): Promise<string | null> {
  const s = sql`SELECT password_hash FROM people WHERE id = ${personId}`;
  const row = await q.get<{ password_hash: string | null }>(s.text, s.params);
  return row?.password_hash ?? null;
}

export async function setPersonPasswordHash(q: Queryable, personId: string, hash: string): Promise<void> {
  const s = sql`UPDATE people SET password_hash = ${hash} WHERE id = ${personId}`;
  await q.run(s.text, s.params);
}

export async function findMembership(
  q: Queryable,
  accountId: string,
  personId: string,
): Promise<MembershipRecord | undefined> {
  const s = sql`SELECT ${MEMBERSHIP_COLUMNS} FROM memberships WHERE account_id = ${accountId} AND person_id = ${personId}`;
  const row = await q.get<MembershipsRow>(s.text, s.params);
  return row === undefined ? undefined : toMembership(row);
}

/** A person's companies, oldest membership first (the one signing in opens). */
export async function membershipsOf(q: Queryable, personId: string): Promise<MembershipRecord[]> {
  const s = sql`SELECT ${MEMBERSHIP_COLUMNS} FROM memberships WHERE person_id = ${personId} ORDER BY created_at, account_id`;
  const rows = await q.all<MembershipsRow>(s.text, s.params);
  return rows.map(toMembership);
}

/** The owner migration 026 made for an account (older reset links name no person). */
export async function firstOwnerOf(q: Queryable, accountId: string): Promise<string | undefined> {
  const s = sql`SELECT person_id FROM memberships WHERE account_id = ${accountId} AND role = 'owner' ORDER BY created_at, person_id LIMIT 1`;
  const row = await q.get<{ person_id: string }>(s.text, s.params);
  return row?.person_id;
}

/** One row of a company's people page: the person, their place, and when any session of theirs was last seen there. */
export interface MemberRow extends Person {
  role: Role;
  approves: boolean;
  joinedAt: number;
  lastSeenAt: number | null;
}

/** The company's people, most powerful role first is the page's job; here: oldest member first. */
export async function membersOf(q: Queryable, accountId: string): Promise<MemberRow[]> {
  const s = sql`SELECT p.id, p.email, p.name, p.created_at, m.role, m.approves, m.created_at AS joined_at,
       (SELECT MAX(s.last_seen_at) FROM panel_sessions s WHERE s.person_id = p.id AND s.account_id = m.account_id) AS last_seen_at
     FROM memberships m JOIN people p ON p.id = m.person_id
     WHERE m.account_id = ${accountId} ORDER BY m.created_at, p.id`;
  const rows = await q.all<{
    id: string;
    email: string;
    name: string;
    created_at: number;
    role: Role;
    approves: number;
    joined_at: number;
    last_seen_at: number | null;
  }>(s.text, s.params);
  return rows.map((row) => ({
    ...toPerson(row),
    role: row.role,
    approves: Number(row.approves) === 1,
    joinedAt: Number(row.joined_at),
    lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at),
  }));
}

export async function countOwners(q: Queryable, accountId: string): Promise<number> {
  const s = sql`SELECT COUNT(*) AS n FROM memberships WHERE account_id = ${accountId} AND role = 'owner'`;
  const row = await q.get<{ n: number | string }>(s.text, s.params);
  return Number(row?.n ?? 0);
}

/**
 * Changes a person's role only if it is still the one the manager saw: answers 0 when another
 * manager changed it first, so two changes at once never silently overwrite each other.
 */
export async function updateMembership(
  q: Queryable,
  accountId: string,
  personId: string,
  from: { role: Role; approves: boolean },
  to: { role: Role; approves: boolean },
): Promise<number> {
  const s = sql`UPDATE memberships SET role = ${to.role}, approves = ${to.approves ? 1 : 0} WHERE account_id = ${accountId} AND person_id = ${personId} AND role = ${from.role} AND approves = ${from.approves ? 1 : 0}`;
  return q.run(s.text, s.params);
}

export async function deleteMembership(q: Queryable, accountId: string, personId: string): Promise<number> {
  const s = sql`DELETE FROM memberships WHERE account_id = ${accountId} AND person_id = ${personId}`;
  return q.run(s.text, s.params);
}

export async function setPersonName(q: Queryable, personId: string, name: string): Promise<void> {
  const s = sql`UPDATE people SET name = ${name} WHERE id = ${personId}`;
  await q.run(s.text, s.params);
}

/** The companies a person belongs to, by name, oldest membership first (the header's switcher). */
export async function companiesOfPerson(
  q: Queryable,
  personId: string,
): Promise<{ accountId: string; company: string }[]> {
  const s = sql`SELECT a.id, a.company FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.person_id = ${personId} ORDER BY m.created_at, a.id`;
  const rows = await q.all<{ id: string; company: string }>(s.text, s.params);
  return rows.map((r) => ({ accountId: r.id, company: r.company }));
}

// People, their memberships in companies (migration 026) and their panel sessions' owners.
import type { Role } from '../domain/people/roles.ts';
import type { Queryable } from './db.ts';
import { defineTable, insertStatement, rowValues } from './table.ts';

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
  const row = await q.get<PeopleRow>('SELECT id, email, name, created_at FROM people WHERE email = ?', [
    email.trim().toLowerCase(),
  ]);
  return row === undefined ? undefined : toPerson(row);
}

export async function findPersonById(q: Queryable, id: string): Promise<Person | undefined> {
  const row = await q.get<PeopleRow>('SELECT id, email, name, created_at FROM people WHERE id = ?', [id]);
  return row === undefined ? undefined : toPerson(row);
}

export async function findPersonPasswordHash(q: Queryable, personId: string): Promise<string | null> {
  const row = await q.get<{ password_hash: string | null }>('SELECT password_hash FROM people WHERE id = ?', [
    personId,
  ]);
  return row?.password_hash ?? null;
}

export async function setPersonPasswordHash(q: Queryable, personId: string, hash: string): Promise<void> {
  await q.run('UPDATE people SET password_hash = ? WHERE id = ?', [hash, personId]);
}

export async function findMembership(
  q: Queryable,
  accountId: string,
  personId: string,
): Promise<MembershipRecord | undefined> {
  const row = await q.get<MembershipsRow>(
    'SELECT account_id, person_id, role, approves, created_at FROM memberships WHERE account_id = ? AND person_id = ?',
    [accountId, personId],
  );
  return row === undefined ? undefined : toMembership(row);
}

/** A person's companies, oldest membership first (the one signing in opens). */
export async function membershipsOf(q: Queryable, personId: string): Promise<MembershipRecord[]> {
  const rows = await q.all<MembershipsRow>(
    'SELECT account_id, person_id, role, approves, created_at FROM memberships WHERE person_id = ? ORDER BY created_at, account_id',
    [personId],
  );
  return rows.map(toMembership);
}

/** The owner migration 026 made for an account (older reset links name no person). */
export async function firstOwnerOf(q: Queryable, accountId: string): Promise<string | undefined> {
  const row = await q.get<{ person_id: string }>(
    "SELECT person_id FROM memberships WHERE account_id = ? AND role = 'owner' ORDER BY created_at, person_id LIMIT 1",
    [accountId],
  );
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
  const rows = await q.all<{
    id: string;
    email: string;
    name: string;
    created_at: number;
    role: Role;
    approves: number;
    joined_at: number;
    last_seen_at: number | null;
  }>(
    `SELECT p.id, p.email, p.name, p.created_at, m.role, m.approves, m.created_at AS joined_at,
       (SELECT MAX(s.last_seen_at) FROM panel_sessions s WHERE s.person_id = p.id AND s.account_id = m.account_id) AS last_seen_at
     FROM memberships m JOIN people p ON p.id = m.person_id
     WHERE m.account_id = ? ORDER BY m.created_at, p.id`,
    [accountId],
  );
  return rows.map((row) => ({
    ...toPerson(row),
    role: row.role,
    approves: Number(row.approves) === 1,
    joinedAt: Number(row.joined_at),
    lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at),
  }));
}

export async function countOwners(q: Queryable, accountId: string): Promise<number> {
  const row = await q.get<{ n: number | string }>(
    "SELECT COUNT(*) AS n FROM memberships WHERE account_id = ? AND role = 'owner'",
    [accountId],
  );
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
  return q.run(
    'UPDATE memberships SET role = ?, approves = ? WHERE account_id = ? AND person_id = ? AND role = ? AND approves = ?',
    [to.role, to.approves ? 1 : 0, accountId, personId, from.role, from.approves ? 1 : 0],
  );
}

export async function deleteMembership(q: Queryable, accountId: string, personId: string): Promise<number> {
  return q.run('DELETE FROM memberships WHERE account_id = ? AND person_id = ?', [accountId, personId]);
}

export async function setPersonName(q: Queryable, personId: string, name: string): Promise<void> {
  await q.run('UPDATE people SET name = ? WHERE id = ?', [name, personId]);
}

/** The companies a person belongs to, by name, oldest membership first (the header's switcher). */
export async function companiesOfPerson(
  q: Queryable,
  personId: string,
): Promise<{ accountId: string; company: string }[]> {
  const rows = await q.all<{ id: string; company: string }>(
    'SELECT a.id, a.company FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.person_id = ? ORDER BY m.created_at, a.id',
    [personId],
  );
  return rows.map((r) => ({ accountId: r.id, company: r.company }));
}

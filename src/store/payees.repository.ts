// Payees, scoped by owner; deleted payees stay for the checks that name them.
import type { Owner } from '../domain/owner.ts';
import type { Payee, PayeeField, PayeeFields } from '../domain/payee.ts';
import type { Queryable } from './db.ts';
import { columnList, defineTable, insertRows } from './table.ts';
import type { Paged } from '../domain/paging.ts';
import { owned, type Page, pagedRows } from './owned-queries.ts';
import { inList, joinSql, raw, Sql, sql } from './sql.ts';

/** The payees table as stored (migration 001); reads select every column. */
interface PayeeRow {
  id: string;
  account_id: string;
  env: string;
  name: string;
  nick_name: string;
  company: string;
  email: string;
  phone: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  created_at: number;
  deleted_at: number | null;
}

const PAYEES = defineTable<PayeeRow>()('payees', [
  'id',
  'account_id',
  'env',
  'name',
  'nick_name',
  'company',
  'email',
  'phone',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'created_at',
  'deleted_at',
]);

const READ_COLUMNS = raw(columnList(PAYEES));

const PAYEE_COLUMNS: Readonly<Record<PayeeField, keyof PayeeRow>> = {
  name: 'name',
  nickName: 'nick_name',
  company: 'company',
  email: 'email',
  phone: 'phone',
  address1: 'address1',
  address2: 'address2',
  city: 'city',
  state: 'state',
  zip: 'zip',
  country: 'country',
};

/** `column = ?` of each field, made once so an update builds no text but the joined SET list. */
const SET_TEXTS = Object.fromEntries(
  Object.entries(PAYEE_COLUMNS).map(([field, column]) => [field, `${column} = ?`]),
) as Readonly<Record<PayeeField, string>>;

function toPayee(row: PayeeRow): Payee {
  return {
    id: row.id,
    name: row.name,
    nickName: row.nick_name,
    company: row.company,
    email: row.email,
    phone: row.phone,
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    country: row.country,
    createdAt: Number(row.created_at),
  };
}

export async function insertPayees(q: Queryable, owner: Owner, payees: readonly Payee[]): Promise<void> {
  await insertRows(
    q,
    PAYEES,
    payees.map((p) => ({
      id: p.id,
      account_id: owner.accountId,
      env: owner.env,
      name: p.name,
      nick_name: p.nickName,
      company: p.company,
      email: p.email,
      phone: p.phone,
      address1: p.address1,
      address2: p.address2,
      city: p.city,
      state: p.state,
      zip: p.zip,
      country: p.country,
      created_at: p.createdAt,
      deleted_at: null,
    })),
  );
}

export async function findPayee(q: Queryable, owner: Owner, id: string): Promise<Payee | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM payees WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  const row = await q.get<PayeeRow>(s.text, s.params);
  return row === undefined ? undefined : toPayee(row);
}

/** A check's payee as it was, deleted or not (printing). */
export async function findPayeeForPrinting(q: Queryable, owner: Owner, id: string): Promise<Payee | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM payees WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<PayeeRow>(s.text, s.params);
  return row === undefined ? undefined : toPayee(row);
}

export async function findPayees(q: Queryable, owner: Owner, ids: readonly string[]): Promise<Map<string, Payee>> {
  const found = new Map<string, Payee>();
  if (ids.length === 0) return found;
  const s = sql`SELECT ${READ_COLUMNS} FROM payees WHERE id IN ${inList(ids)} AND ${owned(owner, { live: true, keyed: q.dialect })}`;
  const rows = await q.all<PayeeRow>(s.text, s.params);
  for (const row of rows) found.set(row.id, toPayee(row));
  return found;
}

/** The payees named exactly `names` (an import's payee column), several when names repeat. */
export async function findPayeesByName(q: Queryable, owner: Owner, names: readonly string[]): Promise<Payee[]> {
  if (names.length === 0) return [];
  const s = sql`SELECT ${READ_COLUMNS} FROM payees WHERE name IN ${inList(names)} AND ${owned(owner, { live: true })}`;
  const rows = await q.all<PayeeRow>(s.text, s.params);
  return rows.map(toPayee);
}

/**
 * The oldest live payee whose name, company and postal address are exactly these (quickpay's
 * destination, docs/api-notes.md). The index of migration 021 narrows the read to the name.
 */
export async function findPayeeByNameAndAddress(
  q: Queryable,
  owner: Owner,
  match: Pick<PayeeFields, 'name' | 'company' | 'address1' | 'address2' | 'city' | 'state' | 'zip'>,
): Promise<Payee | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM payees WHERE ${owned(owner, { live: true })} AND name = ${match.name} AND company = ${match.company} AND address1 = ${match.address1} AND address2 = ${match.address2}
       AND city = ${match.city} AND state = ${match.state} AND zip = ${match.zip} ORDER BY created_at, id LIMIT 1`;
  const row = await q.get<PayeeRow>(s.text, s.params);
  return row === undefined ? undefined : toPayee(row);
}

export function listPayees(q: Queryable, owner: Owner, page: Page): Promise<Paged<Payee>> {
  return pagedRows(q, {
    table: 'payees',
    where: owned(owner, { live: true }),
    searchColumns: ['name', 'nick_name', 'company', 'email'],
    page,
    map: toPayee,
    columns: READ_COLUMNS.text,
  });
}

export async function updatePayee(
  q: Queryable,
  owner: Owner,
  id: string,
  changes: Partial<PayeeFields>,
): Promise<number> {
  const entries = Object.entries(changes).filter(
    (e): e is [PayeeField, string] => e[1] !== undefined && e[0] in PAYEE_COLUMNS,
  );
  if (entries.length === 0) return 0;
  const sets = entries.map(([field, value]) => new Sql(SET_TEXTS[field], [value]));
  const s = sql`UPDATE payees SET ${joinSql(sets, ', ')} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}

export async function deletePayee(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  const s = sql`UPDATE payees SET deleted_at = ${now} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}

/**
 * The panel's delete (issue 14): the payee goes only while no check names it, decided in the one
 * statement that deletes, so a check written meanwhile cannot slip between a look and the delete.
 * 0 when it is not there or is in use (the caller tells which).
 */
export async function deleteUnusedPayee(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  const s = sql`UPDATE payees SET deleted_at = ${now} WHERE id = ${id} AND ${owned(owner, { live: true })}
       AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.payee_id = payees.id)`;
  return q.run(s.text, s.params);
}

// Payees, scoped by owner; deleted payees stay for the checks that name them.
import type { Owner } from '../domain/owner.ts';
import type { Payee, PayeeField, PayeeFields } from '../domain/payee.ts';
import type { Queryable } from './db.ts';
import { defineTable, insertRows } from './table.ts';
import type { Paged } from '../domain/paging.ts';
import { LIVE, liveKeyedRows, OWNED, type Page, paged } from './owned-queries.ts';

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
  const row = await q.get<PayeeRow>(`SELECT * FROM payees WHERE id = ? AND ${LIVE}`, [id, owner.accountId, owner.env]);
  return row === undefined ? undefined : toPayee(row);
}

/** A check's payee as it was, deleted or not (printing). */
export async function findPayeeForPrinting(q: Queryable, owner: Owner, id: string): Promise<Payee | undefined> {
  const row = await q.get<PayeeRow>(`SELECT * FROM payees WHERE id = ? AND ${OWNED}`, [id, owner.accountId, owner.env]);
  return row === undefined ? undefined : toPayee(row);
}

export async function findPayees(q: Queryable, owner: Owner, ids: readonly string[]): Promise<Map<string, Payee>> {
  const found = new Map<string, Payee>();
  if (ids.length === 0) return found;
  const rows = await q.all<PayeeRow>(
    `SELECT * FROM payees WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${liveKeyedRows(q.dialect)}`,
    [...ids, owner.accountId, owner.env],
  );
  for (const row of rows) found.set(row.id, toPayee(row));
  return found;
}

/** The payees named exactly `names` (an import's payee column), several when names repeat. */
export async function findPayeesByName(q: Queryable, owner: Owner, names: readonly string[]): Promise<Payee[]> {
  if (names.length === 0) return [];
  const rows = await q.all<PayeeRow>(
    `SELECT * FROM payees WHERE name IN (${names.map(() => '?').join(', ')}) AND ${LIVE}`,
    [...names, owner.accountId, owner.env],
  );
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
  const row = await q.get<PayeeRow>(
    `SELECT * FROM payees WHERE ${LIVE} AND name = ? AND company = ? AND address1 = ? AND address2 = ?
       AND city = ? AND state = ? AND zip = ? ORDER BY created_at, id LIMIT 1`,
    [
      owner.accountId,
      owner.env,
      match.name,
      match.company,
      match.address1,
      match.address2,
      match.city,
      match.state,
      match.zip,
    ],
  );
  return row === undefined ? undefined : toPayee(row);
}

export function listPayees(q: Queryable, owner: Owner, page: Page): Promise<Paged<Payee>> {
  return paged(
    q,
    'payees',
    LIVE,
    [owner.accountId, owner.env],
    ['name', 'nick_name', 'company', 'email'],
    page,
    toPayee,
  );
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
  return q.run(
    `UPDATE payees SET ${entries.map(([f]) => `${PAYEE_COLUMNS[f]} = ?`).join(', ')} WHERE id = ? AND ${LIVE}`,
    [...entries.map(([, v]) => v), id, owner.accountId, owner.env],
  );
}

export async function deletePayee(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  return q.run(`UPDATE payees SET deleted_at = ? WHERE id = ? AND ${LIVE}`, [now, id, owner.accountId, owner.env]);
}

/**
 * The panel's delete (issue 14): the payee goes only while no check names it, decided in the one
 * statement that deletes, so a check written meanwhile cannot slip between a look and the delete.
 * 0 when it is not there or is in use (the caller tells which).
 */
export async function deleteUnusedPayee(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  return q.run(
    `UPDATE payees SET deleted_at = ? WHERE id = ? AND ${LIVE}
       AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.payee_id = payees.id)`,
    [now, id, owner.accountId, owner.env],
  );
}

// Custom from and to addresses, scoped by owner.
import type { Owner } from '../domain/owner.ts';
import type { Address, AddressField, AddressFields, AddressKind } from '../domain/address.ts';
import type { Queryable } from './db.ts';
import { forShare, forUpdate } from './dialect.ts';
import { columnList, defineTable, insertRows } from './table.ts';
import type { Paged } from '../domain/paging.ts';
import { owned, type Page, pagedRows } from './owned-queries.ts';
import { joinSql, raw, Sql, sql } from './sql.ts';

/** The addresses table as stored (migration 001); reads select every column. */
interface AddressRow {
  id: string;
  account_id: string;
  env: string;
  kind: AddressKind;
  name: string;
  company_name: string;
  address_line1: string;
  address_line2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
  email: string;
  note: string;
  created_at: number;
}

const ADDRESSES = defineTable<AddressRow>()('addresses', [
  'id',
  'account_id',
  'env',
  'kind',
  'name',
  'company_name',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'zip',
  'country',
  'phone',
  'email',
  'note',
  'created_at',
]);

const READ_COLUMNS = raw(columnList(ADDRESSES));

function toAddress(row: AddressRow): Address {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    companyName: row.company_name,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    country: row.country,
    phone: row.phone,
    email: row.email,
    note: row.note,
    createdAt: Number(row.created_at),
  };
}

export async function insertAddresses(q: Queryable, owner: Owner, addresses: readonly Address[]): Promise<void> {
  await insertRows(
    q,
    ADDRESSES,
    addresses.map((a) => ({
      id: a.id,
      account_id: owner.accountId,
      env: owner.env,
      kind: a.kind,
      name: a.name,
      company_name: a.companyName,
      address_line1: a.addressLine1,
      address_line2: a.addressLine2,
      city: a.city,
      state: a.state,
      zip: a.zip,
      country: a.country,
      phone: a.phone,
      email: a.email,
      note: a.note,
      created_at: a.createdAt,
    })),
  );
}

export async function findAddress(
  q: Queryable,
  owner: Owner,
  kind: AddressKind,
  id: string,
): Promise<Address | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM addresses WHERE id = ${id} AND kind = ${kind} AND ${owned(owner)}`;
  const row = await q.get<AddressRow>(s.text, s.params);
  return row === undefined ? undefined : toAddress(row);
}

/**
 * As findAddress, for a write about to name the address (a bank account's drawer, a mailing's
 * destination or sender): on PostgreSQL the row stays locked FOR SHARE until the transaction
 * ends, so a delete racing the write waits for it and then sees the reference.
 */
export async function findAddressForUse(
  q: Queryable,
  owner: Owner,
  kind: AddressKind,
  id: string,
): Promise<Address | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM addresses WHERE id = ${id} AND kind = ${kind} AND ${owned(owner)}${raw(forShare(q.dialect))}`;
  const row = await q.get<AddressRow>(s.text, s.params);
  return row === undefined ? undefined : toAddress(row);
}

export function listAddresses(q: Queryable, owner: Owner, kind: AddressKind, page: Page): Promise<Paged<Address>> {
  return pagedRows(q, {
    table: 'addresses',
    where: sql`kind = ${kind} AND ${owned(owner)}`,
    searchColumns: ['name', 'company_name', 'city'],
    page,
    map: toAddress,
    columns: READ_COLUMNS.text,
  });
}

const ADDRESS_COLUMNS: Readonly<Record<AddressField, keyof AddressRow>> = {
  name: 'name',
  companyName: 'company_name',
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  city: 'city',
  state: 'state',
  zip: 'zip',
  country: 'country',
  phone: 'phone',
  email: 'email',
  note: 'note',
};

/** `column = ?` of each field, made once so an update builds no text but the joined SET list. */
const SET_TEXTS = Object.fromEntries(
  Object.entries(ADDRESS_COLUMNS).map(([field, column]) => [field, `${column} = ?`]),
) as Readonly<Record<AddressField, string>>;

export async function updateAddress(
  q: Queryable,
  owner: Owner,
  kind: AddressKind,
  id: string,
  changes: Partial<AddressFields>,
): Promise<number> {
  const entries = Object.entries(changes).filter(
    (e): e is [AddressField, string] => e[1] !== undefined && e[0] in ADDRESS_COLUMNS,
  );
  if (entries.length === 0) return (await findAddress(q, owner, kind, id)) === undefined ? 0 : 1;
  const sets = entries.map(([field, value]) => new Sql(SET_TEXTS[field], [value]));
  const s = sql`UPDATE addresses SET ${joinSql(sets, ', ')} WHERE id = ${id} AND kind = ${kind} AND ${owned(owner)}`;
  return q.run(s.text, s.params);
}

/**
 * Removes the address while nothing refers to it: no bank account prints it as its drawer
 * (deleted bank accounts too: their checks may be reprinted) and no mailing was sent from or to
 * it. Run in a transaction: on PostgreSQL the row is locked first, so a write naming it (which
 * holds it FOR SHARE, findAddressForUse) commits before the guarded DELETE looks and is seen.
 */
export async function deleteUnusedAddress(q: Queryable, owner: Owner, kind: AddressKind, id: string): Promise<number> {
  const lock = sql`SELECT id FROM addresses WHERE id = ${id} AND kind = ${kind} AND ${owned(owner)}${raw(forUpdate(q.dialect))}`;
  await q.get(lock.text, lock.params);
  const s = sql`DELETE FROM addresses WHERE id = ${id} AND kind = ${kind} AND ${owned(owner)}
       AND NOT EXISTS (SELECT 1 FROM bank_accounts b WHERE b.custom_from_address_id = addresses.id)
       AND NOT EXISTS (SELECT 1 FROM mailings m WHERE m.account_id = ${owner.accountId} AND (m.from_address_id = addresses.id OR m.to_address_id = addresses.id))`;
  return q.run(s.text, s.params);
}

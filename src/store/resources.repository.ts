// Bank accounts, payees, categories, addresses and vouchers: the records a check refers to.
// Every query is scoped by owner (account and environment), so another account's id is
// indistinguishable from an unknown one.
import type { Owner } from '../domain/owner.ts';
import type { Address, AddressKind, BankAccount, Category, Payee, PayeeField, PayeeFields, Voucher, VoucherItem } from '../domain/records.ts';
import type { Queryable, SqlValue } from './db.ts';
import { containsIgnoreCase } from './dialect.ts';

export interface Page {
  limit: number;
  offset: number;
  term: string | null;
}

export interface Paged<T> {
  total: number;
  items: T[];
}

/** `%term%` with LIKE's wildcards escaped, lower-cased. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function paged<Row, T>(
  q: Queryable,
  table: string,
  where: string,
  params: SqlValue[],
  searchColumns: readonly string[],
  page: Page,
  map: (row: Row) => T,
  columns = '*',
): Promise<Paged<T>> {
  let clause = where;
  const args = [...params];
  if (page.term !== null && page.term !== '') {
    clause += ` AND (${searchColumns.map((c) => containsIgnoreCase(q.dialect, c)).join(' OR ')})`;
    for (let i = 0; i < searchColumns.length; i += 1) args.push(likePattern(page.term));
  }
  const count = await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`, args);
  const rows = await q.all<Row>(`SELECT ${columns} FROM ${table} WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [...args, page.limit, page.offset]);
  return { total: Number(count?.n ?? 0), items: rows.map(map) };
}

// ---- bank accounts ----

interface BankAccountRow {
  id: string;
  name: string;
  bank_name: string;
  bank_address: string;
  routing_number: string;
  account_number: string;
  account_number_masked: string;
  next_serial: number;
  custom_from_address_id: string | null;
  has_signature: number;
  print_offset_x: number;
  print_offset_y: number;
  created_at: number;
}

// The signature image stays out of ordinary reads; it is fetched only to print.
const BANK_COLUMNS = `id, name, bank_name, bank_address, routing_number, account_number, account_number_masked, next_serial, custom_from_address_id,
  CASE WHEN signature IS NULL THEN 0 ELSE 1 END AS has_signature, print_offset_x, print_offset_y, created_at`;

function toBankAccount(row: BankAccountRow): BankAccount {
  return {
    id: row.id,
    name: row.name,
    bankName: row.bank_name,
    bankAddress: row.bank_address,
    routingNumber: row.routing_number,
    accountNumberMasked: row.account_number_masked,
    sealedAccountNumber: row.account_number,
    nextSerial: Number(row.next_serial),
    customFromAddressId: row.custom_from_address_id,
    hasSignature: Number(row.has_signature) === 1,
    printOffsetX: Number(row.print_offset_x),
    printOffsetY: Number(row.print_offset_y),
    createdAt: Number(row.created_at),
  };
}

const LIVE = 'account_id = ? AND env = ? AND deleted_at IS NULL';
const OWNED = 'account_id = ? AND env = ?';

export async function insertBankAccount(q: Queryable, owner: Owner, b: BankAccount): Promise<void> {
  await q.run(
    `INSERT INTO bank_accounts (id, account_id, env, name, bank_name, bank_address, routing_number, account_number, account_number_masked, next_serial, custom_from_address_id, print_offset_x, print_offset_y, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [b.id, owner.accountId, owner.env, b.name, b.bankName, b.bankAddress, b.routingNumber, b.sealedAccountNumber, b.accountNumberMasked, b.nextSerial, b.customFromAddressId, b.printOffsetX, b.printOffsetY, b.createdAt],
  );
}

export async function findBankAccount(q: Queryable, owner: Owner, id: string): Promise<BankAccount | undefined> {
  const row = await q.get<BankAccountRow>(`SELECT ${BANK_COLUMNS} FROM bank_accounts WHERE id = ? AND ${LIVE}`, [id, owner.accountId, owner.env]);
  return row === undefined ? undefined : toBankAccount(row);
}

/** The bank account a check was drawn on, deleted or not, with its signature image for printing. */
export async function findBankAccountForPrinting(q: Queryable, owner: Owner, id: string): Promise<{ account: BankAccount; signature: Buffer | null } | undefined> {
  const row = await q.get<BankAccountRow & { signature: Buffer | null }>(`SELECT ${BANK_COLUMNS}, signature FROM bank_accounts WHERE id = ? AND ${OWNED}`, [id, owner.accountId, owner.env]);
  return row === undefined ? undefined : { account: toBankAccount(row), signature: row.signature === null ? null : Buffer.from(row.signature) };
}

export async function setBankAccountSignature(q: Queryable, owner: Owner, id: string, image: Buffer | null): Promise<number> {
  return q.run(`UPDATE bank_accounts SET signature = ? WHERE id = ? AND ${LIVE}`, [image, id, owner.accountId, owner.env]);
}

export function listBankAccounts(q: Queryable, owner: Owner, page: Page): Promise<Paged<BankAccount>> {
  return paged(q, 'bank_accounts', LIVE, [owner.accountId, owner.env], ['name', 'bank_name'], page, toBankAccount, BANK_COLUMNS);
}

export async function updateBankAccount(
  q: Queryable,
  owner: Owner,
  id: string,
  changes: Partial<Pick<BankAccount, 'name' | 'bankName' | 'bankAddress' | 'nextSerial' | 'customFromAddressId' | 'printOffsetX' | 'printOffsetY'>>,
): Promise<number> {
  const columns: Record<string, string> = {
    name: 'name',
    bankName: 'bank_name',
    bankAddress: 'bank_address',
    nextSerial: 'next_serial',
    customFromAddressId: 'custom_from_address_id',
    printOffsetX: 'print_offset_x',
    printOffsetY: 'print_offset_y',
  };
  const sets: string[] = [];
  const args: SqlValue[] = [];
  for (const [key, value] of Object.entries(changes)) {
    const column = columns[key];
    if (column === undefined || value === undefined) continue;
    sets.push(`${column} = ?`);
    args.push(value);
  }
  if (sets.length === 0) return (await findBankAccount(q, owner, id)) === undefined ? 0 : 1;
  return q.run(`UPDATE bank_accounts SET ${sets.join(', ')} WHERE id = ? AND ${LIVE}`, [...args, id, owner.accountId, owner.env]);
}

export async function deleteBankAccount(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  return q.run(`UPDATE bank_accounts SET deleted_at = ? WHERE id = ? AND ${LIVE}`, [now, id, owner.accountId, owner.env]);
}

export async function bankAccountNames(q: Queryable, owner: Owner, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.all<{ id: string; name: string }>(`SELECT id, name FROM bank_accounts WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${LIVE}`, [...ids, owner.accountId, owner.env]);
  return new Map(rows.map((r) => [r.id, r.name]));
}

// ---- payees ----

interface PayeeRow {
  id: string;
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
}

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

export async function insertPayee(q: Queryable, owner: Owner, p: Payee): Promise<void> {
  const fields = Object.keys(PAYEE_COLUMNS) as PayeeField[];
  await q.run(
    `INSERT INTO payees (id, account_id, env, ${fields.map((f) => PAYEE_COLUMNS[f]).join(', ')}, created_at)
     VALUES (?, ?, ?, ${fields.map(() => '?').join(', ')}, ?)`,
    [p.id, owner.accountId, owner.env, ...fields.map((f) => p[f]), p.createdAt],
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
  const rows = await q.all<PayeeRow>(`SELECT * FROM payees WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${LIVE}`, [...ids, owner.accountId, owner.env]);
  for (const row of rows) found.set(row.id, toPayee(row));
  return found;
}

export function listPayees(q: Queryable, owner: Owner, page: Page): Promise<Paged<Payee>> {
  return paged(q, 'payees', LIVE, [owner.accountId, owner.env], ['name', 'nick_name', 'company', 'email'], page, toPayee);
}

export async function updatePayee(q: Queryable, owner: Owner, id: string, changes: Partial<PayeeFields>): Promise<number> {
  const entries = Object.entries(changes).filter((e): e is [PayeeField, string] => e[1] !== undefined && e[0] in PAYEE_COLUMNS);
  if (entries.length === 0) return 0;
  return q.run(
    `UPDATE payees SET ${entries.map(([f]) => `${PAYEE_COLUMNS[f]} = ?`).join(', ')} WHERE id = ? AND ${LIVE}`,
    [...entries.map(([, v]) => v), id, owner.accountId, owner.env],
  );
}

export async function deletePayee(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  return q.run(`UPDATE payees SET deleted_at = ? WHERE id = ? AND ${LIVE}`, [now, id, owner.accountId, owner.env]);
}

// ---- categories ----

interface CategoryRow {
  id: string;
  name: string;
  type: string;
  created_at: number;
}


function toCategory(row: CategoryRow): Category {
  return { id: row.id, name: row.name, type: row.type, createdAt: Number(row.created_at) };
}

export async function insertCategory(q: Queryable, owner: Owner, c: Category): Promise<void> {
  await q.run('INSERT INTO categories (id, account_id, env, name, type, created_at) VALUES (?, ?, ?, ?, ?, ?)', [c.id, owner.accountId, owner.env, c.name, c.type, c.createdAt]);
}

export function listCategories(q: Queryable, owner: Owner, page: Page): Promise<Paged<Category>> {
  return paged(q, 'categories', OWNED, [owner.accountId, owner.env], ['name', 'type'], page, toCategory);
}

// ---- addresses (custom from / custom to) ----

interface AddressRow {
  id: string;
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

export async function insertAddress(q: Queryable, owner: Owner, a: Address): Promise<void> {
  await q.run(
    `INSERT INTO addresses (id, account_id, env, kind, name, company_name, address_line1, address_line2, city, state, zip, country, phone, email, note, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [a.id, owner.accountId, owner.env, a.kind, a.name, a.companyName, a.addressLine1, a.addressLine2, a.city, a.state, a.zip, a.country, a.phone, a.email, a.note, a.createdAt],
  );
}

export async function findAddress(q: Queryable, owner: Owner, kind: AddressKind, id: string): Promise<Address | undefined> {
  const row = await q.get<AddressRow>(`SELECT * FROM addresses WHERE id = ? AND kind = ? AND ${OWNED}`, [id, kind, owner.accountId, owner.env]);
  return row === undefined ? undefined : toAddress(row);
}

export function listAddresses(q: Queryable, owner: Owner, kind: AddressKind, page: Page): Promise<Paged<Address>> {
  return paged(q, 'addresses', `kind = ? AND ${OWNED}`, [kind, owner.accountId, owner.env], ['name', 'company_name', 'city'], page, toAddress);
}

// ---- vouchers ----

interface VoucherRow {
  id: string;
  voucher_number: string;
  voucher_date: string | null;
  memo: string;
  items: string;
  created_at: number;
}

function toVoucher(row: VoucherRow): Voucher {
  return {
    id: row.id,
    voucherNumber: row.voucher_number,
    date: row.voucher_date,
    memo: row.memo,
    items: JSON.parse(row.items) as VoucherItem[],
    createdAt: Number(row.created_at),
  };
}

export async function insertVoucher(q: Queryable, owner: Owner, v: Voucher): Promise<void> {
  await q.run(
    'INSERT INTO vouchers (id, account_id, env, voucher_number, voucher_date, memo, items, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [v.id, owner.accountId, owner.env, v.voucherNumber, v.date, v.memo, JSON.stringify(v.items), v.createdAt],
  );
}

export async function findVoucher(q: Queryable, owner: Owner, id: string): Promise<Voucher | undefined> {
  const row = await q.get<VoucherRow>(`SELECT * FROM vouchers WHERE id = ? AND ${OWNED}`, [id, owner.accountId, owner.env]);
  return row === undefined ? undefined : toVoucher(row);
}

/** Which of `ids` exist for this owner in `table`. */
export async function existingIds(q: Queryable, owner: Owner, table: 'categories' | 'vouchers', ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await q.all<{ id: string }>(`SELECT id FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${OWNED}`, [...ids, owner.accountId, owner.env]);
  return new Set(rows.map((r) => r.id));
}

/** Every bank account's stored number, deleted accounts too (migration 009 and key rotation). */
export async function allSealedAccountNumbers(q: Queryable): Promise<{ id: string; accountNumber: string }[]> {
  const rows = await q.all<{ id: string; account_number: string }>('SELECT id, account_number FROM bank_accounts ORDER BY id');
  return rows.map((r) => ({ id: r.id, accountNumber: r.account_number }));
}

export async function storeAccountNumber(q: Queryable, id: string, sealed: string, masked: string | null): Promise<void> {
  if (masked === null) await q.run('UPDATE bank_accounts SET account_number = ? WHERE id = ?', [sealed, id]);
  else await q.run('UPDATE bank_accounts SET account_number = ?, account_number_masked = ? WHERE id = ?', [sealed, masked, id]);
}

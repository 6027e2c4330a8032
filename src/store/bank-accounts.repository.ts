// Bank accounts. The account number is stored sealed (docs/secrets.md); the signature image is read
// only to print.
import type { Owner } from '../domain/owner.ts';
import type { BankAccount, BankAccountDetail } from '../domain/bank-account.ts';
import type { Queryable, SqlValue } from './db.ts';
import type { Paged } from '../domain/paging.ts';
import { owned, type Page, pagedRows } from './owned-queries.ts';
import { inList, joinSql, raw, Sql, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/** The bank_accounts table as stored (migrations 001, 002, 008, 009, 015, 021 and 033). */
interface BankAccountsRow {
  id: string;
  account_id: string;
  env: string;
  name: string;
  bank_name: string;
  bank_address: string;
  routing_number: string;
  account_number: string;
  account_number_masked: string;
  next_serial: number;
  custom_from_address_id: string | null;
  signature: Buffer | null;
  logo: Buffer | null;
  print_offset_x: number;
  print_offset_y: number;
  nick_name: string;
  address_line1: string;
  address_line2: string;
  phone: string;
  city: string;
  state: string;
  zip: string;
  bank_city: string;
  bank_state: string;
  bank_zip: string;
  created_at: number;
  deleted_at: number | null;
  positive_pay_layout: string | null;
}

const BANK_ACCOUNTS = defineTable<BankAccountsRow>()('bank_accounts', [
  'id',
  'account_id',
  'env',
  'name',
  'bank_name',
  'bank_address',
  'routing_number',
  'account_number',
  'account_number_masked',
  'next_serial',
  'custom_from_address_id',
  'signature',
  'logo',
  'print_offset_x',
  'print_offset_y',
  'nick_name',
  'address_line1',
  'address_line2',
  'phone',
  'city',
  'state',
  'zip',
  'bank_city',
  'bank_state',
  'bank_zip',
  'created_at',
  'deleted_at',
  'positive_pay_layout',
]);

/**
 * What a `BankAccount` is read from: the signature only as whether there is one, the logo not at
 * all, nor the positive pay layout (positive-pay-layouts.repository.ts reads it).
 */
const NOT_READ = ['account_id', 'env', 'signature', 'logo', 'deleted_at', 'positive_pay_layout'] as const;
type BankAccountRow = Omit<BankAccountsRow, (typeof NOT_READ)[number]> & {
  has_signature: number;
};

/** Column of each hosted detail field (migration 021). */
const DETAIL_COLUMNS: Readonly<Record<BankAccountDetail, keyof BankAccountsRow & keyof BankAccountRow>> = {
  nickName: 'nick_name',
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  phone: 'phone',
  city: 'city',
  state: 'state',
  zip: 'zip',
  bankCity: 'bank_city',
  bankState: 'bank_state',
  bankZip: 'bank_zip',
};
const DETAIL_ENTRIES = Object.entries(DETAIL_COLUMNS) as [
  BankAccountDetail,
  keyof BankAccountsRow & keyof BankAccountRow,
][];

// The signature image stays out of ordinary reads; it is fetched only to print.
const BANK_COLUMNS = raw(
  `${columnList(BANK_ACCOUNTS, { except: NOT_READ })}, CASE WHEN signature IS NULL THEN 0 ELSE 1 END AS has_signature`,
);
const INSERT_BANK_ACCOUNT = insertStatement(BANK_ACCOUNTS);

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
    ...(Object.fromEntries(DETAIL_ENTRIES.map(([field, column]) => [field, String(row[column] ?? '')])) as Record<
      BankAccountDetail,
      string
    >),
    createdAt: Number(row.created_at),
  };
}

export async function insertBankAccount(q: Queryable, owner: Owner, b: BankAccount): Promise<void> {
  await q.run(
    INSERT_BANK_ACCOUNT,
    rowValues(BANK_ACCOUNTS, {
      id: b.id,
      account_id: owner.accountId,
      env: owner.env,
      name: b.name,
      bank_name: b.bankName,
      bank_address: b.bankAddress,
      routing_number: b.routingNumber,
      account_number: b.sealedAccountNumber,
      account_number_masked: b.accountNumberMasked,
      next_serial: b.nextSerial,
      custom_from_address_id: b.customFromAddressId,
      // The images are stored by their own calls, once checked (bank-account.service.ts).
      signature: null,
      logo: null,
      print_offset_x: b.printOffsetX,
      print_offset_y: b.printOffsetY,
      nick_name: b.nickName,
      address_line1: b.addressLine1,
      address_line2: b.addressLine2,
      phone: b.phone,
      city: b.city,
      state: b.state,
      zip: b.zip,
      bank_city: b.bankCity,
      bank_state: b.bankState,
      bank_zip: b.bankZip,
      created_at: b.createdAt,
      deleted_at: null,
      // None chosen: the export names its format (positive-pay-layouts.repository.ts chooses one).
      positive_pay_layout: null,
    }),
  );
}

export async function findBankAccount(q: Queryable, owner: Owner, id: string): Promise<BankAccount | undefined> {
  const s = sql`SELECT ${BANK_COLUMNS} FROM bank_accounts WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  const row = await q.get<BankAccountRow>(s.text, s.params);
  return row === undefined ? undefined : toBankAccount(row);
}

/** The bank account a check was drawn on, deleted or not, with its signature image for printing. */
export async function findBankAccountForPrinting(
  q: Queryable,
  owner: Owner,
  id: string,
): Promise<{ account: BankAccount; signature: Buffer | null } | undefined> {
  const s = sql`SELECT ${BANK_COLUMNS}, signature FROM bank_accounts WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<BankAccountRow & Pick<BankAccountsRow, 'signature'>>(s.text, s.params);
  return row === undefined
    ? undefined
    : { account: toBankAccount(row), signature: row.signature === null ? null : Buffer.from(row.signature) };
}

export async function setBankAccountSignature(
  q: Queryable,
  owner: Owner,
  id: string,
  image: Buffer | null,
): Promise<number> {
  const s = sql`UPDATE bank_accounts SET signature = ${image} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}

export function listBankAccounts(q: Queryable, owner: Owner, page: Page): Promise<Paged<BankAccount>> {
  return pagedRows(q, {
    table: 'bank_accounts',
    where: owned(owner, { live: true }),
    searchColumns: ['name', 'bank_name'],
    page,
    map: toBankAccount,
    columns: BANK_COLUMNS.text,
  });
}

export async function updateBankAccount(
  q: Queryable,
  owner: Owner,
  id: string,
  changes: Partial<
    Pick<
      BankAccount,
      | 'name'
      | 'bankName'
      | 'bankAddress'
      | 'nextSerial'
      | 'customFromAddressId'
      | 'printOffsetX'
      | 'printOffsetY'
      | BankAccountDetail
    >
  >,
): Promise<number> {
  const columns: Record<string, string> = {
    ...DETAIL_COLUMNS,
    name: 'name',
    bankName: 'bank_name',
    bankAddress: 'bank_address',
    nextSerial: 'next_serial',
    customFromAddressId: 'custom_from_address_id',
    printOffsetX: 'print_offset_x',
    printOffsetY: 'print_offset_y',
  };
  const sets: Sql[] = [];
  for (const [key, value] of Object.entries(changes)) {
    const column = columns[key];
    if (column === undefined || value === undefined) continue;
    sets.push(new Sql(`${column} = ?`, [value as SqlValue]));
  }
  if (sets.length === 0) return (await findBankAccount(q, owner, id)) === undefined ? 0 : 1;
  const s = sql`UPDATE bank_accounts SET ${joinSql(sets, ', ')} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}

export async function deleteBankAccount(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  const s = sql`UPDATE bank_accounts SET deleted_at = ${now} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}

export async function bankAccountNames(
  q: Queryable,
  owner: Owner,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const s = sql`SELECT id, name FROM bank_accounts WHERE id IN ${inList(ids)} AND ${owned(owner, { live: true, keyed: q.dialect })}`;
  const rows = await q.all<{ id: string; name: string }>(s.text, s.params);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Every bank account's stored number, deleted accounts too (migration 009 and key rotation). */
export async function allSealedAccountNumbers(q: Queryable): Promise<{ id: string; accountNumber: string }[]> {
  const rows = await q.all<{ id: string; account_number: string }>(
    'SELECT id, account_number FROM bank_accounts ORDER BY id',
  );
  return rows.map((r) => ({ id: r.id, accountNumber: r.account_number }));
}

export async function storeAccountNumber(
  q: Queryable,
  id: string,
  sealed: string,
  masked: string | null,
): Promise<void> {
  const s =
    masked === null
      ? sql`UPDATE bank_accounts SET account_number = ${sealed} WHERE id = ${id}`
      : sql`UPDATE bank_accounts SET account_number = ${sealed}, account_number_masked = ${masked} WHERE id = ${id}`;
  await q.run(s.text, s.params);
}

/** The panel's delete: only while no check is drawn on it, decided in the deleting statement. */
export async function deleteUnusedBankAccount(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  const s = sql`UPDATE bank_accounts SET deleted_at = ${now} WHERE id = ${id} AND ${owned(owner, { live: true })}
       AND NOT EXISTS (SELECT 1 FROM checks c WHERE ${owned(owner, { alias: 'c' })} AND c.bank_account_id = bank_accounts.id)`;
  return q.run(s.text, s.params);
}

/** Stores (or with null, removes) the bank account's logo (migration 015); 0 when it is not there. */
export async function setBankAccountLogo(
  q: Queryable,
  owner: Owner,
  id: string,
  image: Buffer | null,
): Promise<number> {
  const s = sql`UPDATE bank_accounts SET logo = ${image} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}

/** Whether the bank account has a logo of its own (kept out of BANK_COLUMNS: ordinary reads need not know). */
export async function bankAccountHasLogo(q: Queryable, owner: Owner, id: string): Promise<boolean> {
  const s = sql`SELECT CASE WHEN logo IS NULL THEN 0 ELSE 1 END AS has_logo FROM bank_accounts WHERE id = ${id} AND ${owned(owner, { live: true })}`;
  const row = await q.get<{ has_logo: number }>(s.text, s.params);
  return Number(row?.has_logo ?? 0) === 1;
}

/** The logo printed on a bank account's checks: its own, else its account's (null when neither has one). */
export async function logoForPrinting(q: Queryable, owner: Owner, id: string): Promise<Buffer | null> {
  const s = sql`SELECT COALESCE(b.logo, a.logo) AS logo FROM bank_accounts b JOIN accounts a ON a.id = b.account_id
     WHERE b.id = ${id} AND ${owned(owner, { alias: 'b' })}`;
  const row = await q.get<{ logo: Buffer | null }>(s.text, s.params);
  return row?.logo === null || row?.logo === undefined ? null : Buffer.from(row.logo);
}

/**
 * The caller's live bank accounts on this routing number whose account number ends as `masked`
 * does: the only ones that can hold the same number (the number itself is sealed, so the caller
 * opens each to compare).
 */
export async function sameNumberCandidates(
  q: Queryable,
  owner: Owner,
  routingNumber: string,
  masked: string,
): Promise<{ id: string; sealed: string }[]> {
  const s = sql`SELECT id, account_number AS sealed FROM bank_accounts WHERE ${owned(owner, { live: true })} AND routing_number = ${routingNumber} AND account_number_masked = ${masked} ORDER BY created_at, id`;
  return q.all<{ id: string; sealed: string }>(s.text, s.params);
}

// Bank accounts. The account number is stored sealed (docs/secrets.md); the signature image is read
// only to print.
import type { Owner } from '../domain/owner.ts';
import type { BankAccount, BankAccountDetail } from '../domain/bank-account.ts';
import type { Queryable, SqlValue } from './db.ts';
import type { Paged } from '../domain/paging.ts';
import { LIVE, liveKeyedRows, OWNED, type Page, paged } from './owned-queries.ts';

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
}

/** Column of each hosted detail field (migration 021). */
const DETAIL_COLUMNS: Readonly<Record<BankAccountDetail, keyof BankAccountRow>> = {
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
const DETAIL_ENTRIES = Object.entries(DETAIL_COLUMNS) as [BankAccountDetail, keyof BankAccountRow][];

// The signature image stays out of ordinary reads; it is fetched only to print.
const BANK_COLUMNS = `id, name, bank_name, bank_address, routing_number, account_number, account_number_masked, next_serial, custom_from_address_id,
  CASE WHEN signature IS NULL THEN 0 ELSE 1 END AS has_signature, print_offset_x, print_offset_y, created_at,
  nick_name, address_line1, address_line2, phone, city, state, zip, bank_city, bank_state, bank_zip`;

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
    `INSERT INTO bank_accounts (id, account_id, env, name, bank_name, bank_address, routing_number, account_number, account_number_masked, next_serial, custom_from_address_id, print_offset_x, print_offset_y, created_at, ${DETAIL_ENTRIES.map(([, c]) => c).join(', ')})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${', ?'.repeat(DETAIL_ENTRIES.length)})`,
    [
      b.id,
      owner.accountId,
      owner.env,
      b.name,
      b.bankName,
      b.bankAddress,
      b.routingNumber,
      b.sealedAccountNumber,
      b.accountNumberMasked,
      b.nextSerial,
      b.customFromAddressId,
      b.printOffsetX,
      b.printOffsetY,
      b.createdAt,
      ...DETAIL_ENTRIES.map(([field]) => b[field]),
    ],
  );
}

export async function findBankAccount(q: Queryable, owner: Owner, id: string): Promise<BankAccount | undefined> {
  const row = await q.get<BankAccountRow>(`SELECT ${BANK_COLUMNS} FROM bank_accounts WHERE id = ? AND ${LIVE}`, [
    id,
    owner.accountId,
    owner.env,
  ]);
  return row === undefined ? undefined : toBankAccount(row);
}

/** The bank account a check was drawn on, deleted or not, with its signature image for printing. */
export async function findBankAccountForPrinting(
  q: Queryable,
  owner: Owner,
  id: string,
): Promise<{ account: BankAccount; signature: Buffer | null } | undefined> {
  const row = await q.get<BankAccountRow & { signature: Buffer | null }>(
    `SELECT ${BANK_COLUMNS}, signature FROM bank_accounts WHERE id = ? AND ${OWNED}`,
    [id, owner.accountId, owner.env],
  );
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
  return q.run(`UPDATE bank_accounts SET signature = ? WHERE id = ? AND ${LIVE}`, [
    image,
    id,
    owner.accountId,
    owner.env,
  ]);
}

export function listBankAccounts(q: Queryable, owner: Owner, page: Page): Promise<Paged<BankAccount>> {
  return paged(
    q,
    'bank_accounts',
    LIVE,
    [owner.accountId, owner.env],
    ['name', 'bank_name'],
    page,
    toBankAccount,
    BANK_COLUMNS,
  );
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
  const sets: string[] = [];
  const args: SqlValue[] = [];
  for (const [key, value] of Object.entries(changes)) {
    const column = columns[key];
    if (column === undefined || value === undefined) continue;
    sets.push(`${column} = ?`);
    args.push(value);
  }
  if (sets.length === 0) return (await findBankAccount(q, owner, id)) === undefined ? 0 : 1;
  return q.run(`UPDATE bank_accounts SET ${sets.join(', ')} WHERE id = ? AND ${LIVE}`, [
    ...args,
    id,
    owner.accountId,
    owner.env,
  ]);
}

export async function deleteBankAccount(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  return q.run(`UPDATE bank_accounts SET deleted_at = ? WHERE id = ? AND ${LIVE}`, [
    now,
    id,
    owner.accountId,
    owner.env,
  ]);
}

export async function bankAccountNames(
  q: Queryable,
  owner: Owner,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.all<{ id: string; name: string }>(
    `SELECT id, name FROM bank_accounts WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${liveKeyedRows(q.dialect)}`,
    [...ids, owner.accountId, owner.env],
  );
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
  if (masked === null) await q.run('UPDATE bank_accounts SET account_number = ? WHERE id = ?', [sealed, id]);
  else
    await q.run('UPDATE bank_accounts SET account_number = ?, account_number_masked = ? WHERE id = ?', [
      sealed,
      masked,
      id,
    ]);
}

/** The panel's delete (issue 14): only while no check is drawn on it, decided in the deleting statement. */
export async function deleteUnusedBankAccount(q: Queryable, owner: Owner, id: string, now: number): Promise<number> {
  return q.run(
    `UPDATE bank_accounts SET deleted_at = ? WHERE id = ? AND ${LIVE}
       AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.account_id = ? AND c.env = ? AND c.bank_account_id = bank_accounts.id)`,
    [now, id, owner.accountId, owner.env, owner.accountId, owner.env],
  );
}

/** Stores (or with null, removes) the bank account's logo (migration 015); 0 when it is not there. */
export async function setBankAccountLogo(
  q: Queryable,
  owner: Owner,
  id: string,
  image: Buffer | null,
): Promise<number> {
  return q.run(`UPDATE bank_accounts SET logo = ? WHERE id = ? AND ${LIVE}`, [image, id, owner.accountId, owner.env]);
}

/** Whether the bank account has a logo of its own (kept out of BANK_COLUMNS: ordinary reads need not know). */
export async function bankAccountHasLogo(q: Queryable, owner: Owner, id: string): Promise<boolean> {
  const row = await q.get<{ has_logo: number }>(
    `SELECT CASE WHEN logo IS NULL THEN 0 ELSE 1 END AS has_logo FROM bank_accounts WHERE id = ? AND ${LIVE}`,
    [id, owner.accountId, owner.env],
  );
  return Number(row?.has_logo ?? 0) === 1;
}

/** The logo printed on a bank account's checks: its own, else its account's (null when neither has one). */
export async function logoForPrinting(q: Queryable, owner: Owner, id: string): Promise<Buffer | null> {
  const row = await q.get<{ logo: Buffer | null }>(
    `SELECT COALESCE(b.logo, a.logo) AS logo FROM bank_accounts b JOIN accounts a ON a.id = b.account_id
     WHERE b.id = ? AND b.account_id = ? AND b.env = ?`,
    [id, owner.accountId, owner.env],
  );
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
  return q.all<{ id: string; sealed: string }>(
    `SELECT id, account_number AS sealed FROM bank_accounts WHERE ${LIVE} AND routing_number = ? AND account_number_masked = ? ORDER BY created_at, id`,
    [owner.accountId, owner.env, routingNumber, masked],
  );
}

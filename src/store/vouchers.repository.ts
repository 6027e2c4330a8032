// Vouchers: a check's remittance lines, scoped by owner.
import type { Owner } from '../domain/owner.ts';
import type { Voucher, VoucherItem } from '../domain/voucher.ts';
import type { Queryable } from './db.ts';
import { forUpdate } from './dialect.ts';
import { owned } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/** The vouchers table as stored (migrations 001 and 021); `items` is the lines as JSON. */
interface VouchersRow {
  id: string;
  account_id: string;
  env: string;
  voucher_number: string;
  voucher_date: string | null;
  memo: string;
  payee_id: string | null;
  items: string;
  created_at: number;
}

const VOUCHERS = defineTable<VouchersRow>()('vouchers', [
  'id',
  'account_id',
  'env',
  'voucher_number',
  'voucher_date',
  'memo',
  'payee_id',
  'items',
  'created_at',
]);

const INSERT_VOUCHER = insertStatement(VOUCHERS);
const READ_COLUMNS = raw(columnList(VOUCHERS));

function toVoucher(row: VouchersRow): Voucher {
  return {
    id: row.id,
    voucherNumber: row.voucher_number,
    date: row.voucher_date,
    memo: row.memo,
    payeeId: row.payee_id ?? null,
    items: JSON.parse(row.items) as VoucherItem[],
    createdAt: Number(row.created_at),
  };
}

export async function insertVoucher(q: Queryable, owner: Owner, v: Voucher): Promise<void> {
  await q.run(
    INSERT_VOUCHER,
    rowValues(VOUCHERS, {
      id: v.id,
      account_id: owner.accountId,
      env: owner.env,
      voucher_number: v.voucherNumber,
      voucher_date: v.date,
      memo: v.memo,
      payee_id: v.payeeId,
      items: JSON.stringify(v.items),
      created_at: v.createdAt,
    }),
  );
}

export async function findVoucher(q: Queryable, owner: Owner, id: string): Promise<Voucher | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM vouchers WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<VouchersRow>(s.text, s.params);
  return row === undefined ? undefined : toVoucher(row);
}

/**
 * Deletes a voucher that no check names; 0 when it is not there or in use. Run in a transaction:
 * on PostgreSQL the row is locked first, so a check being written with it (which holds it FOR
 * SHARE, checks/write.service.ts) commits before the guarded DELETE looks, and the DELETE then sees it.
 * Without the lock the DELETE's look would miss the uncommitted check and its foreign key would
 * refuse the delete afterwards, or the check's insert would find the voucher gone.
 */
export async function deleteUnusedVoucher(q: Queryable, owner: Owner, id: string): Promise<number> {
  const lock = sql`SELECT id FROM vouchers WHERE id = ${id} AND ${owned(owner)}${raw(forUpdate(q.dialect))}`;
  await q.get(lock.text, lock.params);
  const s = sql`DELETE FROM vouchers WHERE id = ${id} AND ${owned(owner)} AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.voucher_id = vouchers.id)`;
  return q.run(s.text, s.params);
}

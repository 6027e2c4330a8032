// Vouchers: a check's remittance lines, scoped by owner.
import type { Owner } from '../domain/owner.ts';
import type { Voucher, VoucherItem } from '../domain/voucher.ts';
import type { Queryable } from './db.ts';
import { OWNED } from './owned-queries.ts';

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
  const row = await q.get<VoucherRow>(`SELECT * FROM vouchers WHERE id = ? AND ${OWNED}`, [
    id,
    owner.accountId,
    owner.env,
  ]);
  return row === undefined ? undefined : toVoucher(row);
}

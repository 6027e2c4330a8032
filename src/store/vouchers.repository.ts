// Vouchers: a check's remittance lines, scoped by owner.
import type { Owner } from '../domain/owner.ts';
import type { Voucher, VoucherItem } from '../domain/voucher.ts';
import type { Queryable } from './db.ts';
import { forUpdate } from './dialect.ts';
import { OWNED } from './owned-queries.ts';

interface VoucherRow {
  id: string;
  voucher_number: string;
  voucher_date: string | null;
  memo: string;
  payee_id: string | null;
  items: string;
  created_at: number;
}

function toVoucher(row: VoucherRow): Voucher {
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
    'INSERT INTO vouchers (id, account_id, env, voucher_number, voucher_date, memo, payee_id, items, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      v.id,
      owner.accountId,
      owner.env,
      v.voucherNumber,
      v.date,
      v.memo,
      v.payeeId,
      JSON.stringify(v.items),
      v.createdAt,
    ],
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

/**
 * Deletes a voucher that no check names; 0 when it is not there or in use. Run in a transaction:
 * on PostgreSQL the row is locked first, so a check being written with it (which holds it FOR
 * SHARE, checks/write.service.ts) commits before the guarded DELETE looks, and the DELETE then sees it.
 * Without the lock the DELETE's look would miss the uncommitted check and its foreign key would
 * refuse the delete afterwards, or the check's insert would find the voucher gone.
 */
export async function deleteUnusedVoucher(q: Queryable, owner: Owner, id: string): Promise<number> {
  await q.get(`SELECT id FROM vouchers WHERE id = ? AND ${OWNED}${forUpdate(q.dialect)}`, [
    id,
    owner.accountId,
    owner.env,
  ]);
  return q.run(
    `DELETE FROM vouchers WHERE id = ? AND ${OWNED} AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.voucher_id = vouchers.id)`,
    [id, owner.accountId, owner.env],
  );
}

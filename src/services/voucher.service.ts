import { today } from '../domain/dates.ts';
import type { Owner, Principal } from '../domain/owner.ts';
import type { Voucher } from '../domain/voucher.ts';
import { notFound } from '../errors.ts';
import * as checks from '../store/checks.repository.ts';
import * as voucherStore from '../store/vouchers.repository.ts';
import { buildVoucher } from './check.service.ts';
import type { VoucherInput } from '../schemas/checks.ts';
import type { ServiceContext } from './context.ts';

/** POST /checks/{checkId}/voucher: the check's advanced stub, replacing any earlier one. */
export async function attachVoucher(
  ctx: ServiceContext,
  owner: Principal,
  checkId: string,
  input: VoucherInput,
): Promise<Voucher> {
  const now = ctx.now();
  const voucher = buildVoucher('voucher', input, now, today(owner.timeZone, now));
  await ctx.db.transaction(async (tx) => {
    if ((await checks.findCheck(tx, owner, checkId)) === undefined) throw notFound('Check');
    await voucherStore.insertVoucher(tx, owner, voucher);
    await checks.setVoucher(tx, owner, checkId, voucher.id);
  });
  return voucher;
}

export async function getCheckVoucher(ctx: ServiceContext, owner: Owner, checkId: string): Promise<Voucher> {
  const check = await checks.findCheck(ctx.db, owner, checkId);
  if (check === undefined) throw notFound('Check');
  const voucher = check.voucherId === null ? undefined : await voucherStore.findVoucher(ctx.db, owner, check.voucherId);
  if (voucher === undefined) throw notFound('Voucher');
  return voucher;
}

import type { Owner } from '../domain/owner.ts';
import type { Voucher } from '../domain/records.ts';
import { notFound } from '../errors.ts';
import * as checks from '../store/checks.repository.ts';
import * as resources from '../store/resources.repository.ts';
import { buildVoucher, type VoucherInput } from './check.service.ts';
import type { ServiceContext } from './context.ts';

/** POST /checks/{checkId}/voucher: the check's advanced stub, replacing any earlier one. */
export async function attachVoucher(ctx: ServiceContext, owner: Owner, checkId: string, input: VoucherInput): Promise<Voucher> {
  const voucher = buildVoucher('voucher', input, ctx.now());
  await ctx.db.transaction(async (tx) => {
    if ((await checks.findCheck(tx, owner, checkId)) === undefined) throw notFound('Check');
    await resources.insertVoucher(tx, owner, voucher);
    await checks.setVoucher(tx, owner, checkId, voucher.id);
  });
  return voucher;
}

export async function getCheckVoucher(ctx: ServiceContext, owner: Owner, checkId: string): Promise<Voucher> {
  const check = await checks.findCheck(ctx.db, owner, checkId);
  if (check === undefined) throw notFound('Check');
  const voucher = check.voucherId === null ? undefined : await resources.findVoucher(ctx.db, owner, check.voucherId);
  if (voucher === undefined) throw notFound('Voucher');
  return voucher;
}

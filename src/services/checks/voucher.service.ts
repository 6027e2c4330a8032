import { today } from '../../domain/dates.ts';
import type { Owner, Principal } from '../../domain/owner.ts';
import type { Voucher } from '../../domain/voucher.ts';
import { AppError, notFound } from '../../errors.ts';
import { ForeignKeyViolation } from '../../store/db.ts';
import * as payeeStore from '../../store/payees.repository.ts';
import { emptyToNull, rules } from '../validation.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import * as voucherStore from '../../store/vouchers.repository.ts';
import { buildVoucher } from './write.service.ts';
import type { VoucherInput } from '../../schemas/checks.ts';
import type { StandaloneVoucherInput } from '../../schemas/vouchers.ts';
import type { ServiceContext } from '../context.ts';

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

/** POST /vouchers: a voucher on its own, for a check to name by `voucherId` later. */
export async function createVoucher(
  ctx: ServiceContext,
  owner: Principal,
  input: StandaloneVoucherInput,
): Promise<Voucher> {
  const { payeeId, ...lines } = input;
  const now = ctx.now();
  const voucher = { ...buildVoucher('', lines, now, today(owner.timeZone, now)), payeeId: emptyToNull(payeeId) };
  await ctx.db.transaction(async (tx) => {
    if (voucher.payeeId !== null && (await payeeStore.findPayee(tx, owner, voucher.payeeId)) === undefined)
      throw rules.invalid('payeeId');
    await voucherStore.insertVoucher(tx, owner, voucher);
  });
  return voucher;
}

export async function getVoucher(ctx: ServiceContext, owner: Owner, id: string): Promise<Voucher> {
  const voucher = await voucherStore.findVoucher(ctx.db, owner, id);
  if (voucher === undefined) throw notFound('Voucher');
  return voucher;
}

const VOUCHER_IN_USE = 'This voucher is printed with a check, so it cannot be deleted.';

/** DELETE /vouchers/{id}: refused (409) while a check names it, so no printed stub loses its lines. */
export async function deleteVoucher(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  try {
    await ctx.db.transaction(async (tx) => {
      if ((await voucherStore.deleteUnusedVoucher(tx, owner, id)) > 0) return;
      if ((await voucherStore.findVoucher(tx, owner, id)) === undefined) throw notFound('Voucher');
      throw new AppError('conflict', VOUCHER_IN_USE);
    });
  } catch (error) {
    // The row lock decides the race; the foreign key is the last guard, and says the same.
    if (error instanceof ForeignKeyViolation) throw new AppError('conflict', VOUCHER_IN_USE);
    throw error;
  }
}

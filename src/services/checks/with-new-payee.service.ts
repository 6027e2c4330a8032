// Writing or editing a check together with a payee typed in beside it (the panel's check form):
// the payee is made in the same transaction as the check, so a check that is refused leaves no
// payee behind. The services called inside open their own transactions; within this one they join
// it (transactionJoinedByCalls), so the whole either lands or does not.
import type { Principal } from '../../domain/owner.ts';
import type { CheckEdit, CheckInput, VoucherInput } from '../../schemas/checks.ts';
import { transactionJoinedByCalls } from '../../store/db.ts';
import type { ServiceContext } from '../context.ts';
import * as payeeService from '../payee.service.ts';
import { editCheck } from './lifecycle.service.ts';
import { attachVoucher } from './voucher.service.ts';
import { type CreatedCheck, createChecks } from './write.service.ts';

/** A payee to make first, whose id then stands in the check's `payeeId`; null when none is new. */
export type NewPayee = Parameters<typeof payeeService.createPayees>[2][number] | null;

async function payeeIdAfter(
  ctx: ServiceContext,
  principal: Principal,
  newPayee: NewPayee,
  payeeId: string | null,
): Promise<string | null> {
  if (newPayee === null) return payeeId;
  const [payee] = await payeeService.createPayees(ctx, principal, [newPayee]);
  return payee?.id ?? null;
}

/** POST /checks for one check, with its new payee made in the same transaction. */
export function writeCheckWithNewPayee(
  ctx: ServiceContext,
  principal: Principal,
  newPayee: NewPayee,
  check: CheckInput,
): Promise<CreatedCheck[]> {
  return transactionJoinedByCalls(ctx.db, async () => {
    const payeeId = await payeeIdAfter(ctx, principal, newPayee, check.payeeId ?? null);
    return createChecks(ctx, principal, [{ ...check, payeeId }]);
  });
}

/**
 * PUT /checks/{id} with its new payee made in the same transaction and, when given, the voucher
 * replaced (POST /checks/{id}/voucher) in it too.
 */
export async function editCheckWithNewPayee(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  newPayee: NewPayee,
  edit: CheckEdit,
  voucher: VoucherInput | null,
): Promise<void> {
  await transactionJoinedByCalls(ctx.db, async () => {
    const payeeId = await payeeIdAfter(ctx, principal, newPayee, edit.payeeId ?? null);
    await editCheck(ctx, principal, id, { ...edit, payeeId });
    if (voucher !== null) await attachVoucher(ctx, principal, id, voucher);
  });
}

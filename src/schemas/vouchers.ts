// A check's voucher: the body and the read shape.

import { Type } from 'typebox';
import { VoucherInput } from './checks.ts';
import { NullableString } from './common.ts';

// ---- vouchers ----
export const VoucherRead = Type.Object({
  voucherId: Type.String(),
  voucherNumber: Type.String(),
  date: NullableString(),
  memo: Type.String(),
  voucherItems: Type.Array(
    Type.Object({
      invoiceNumber: Type.String(),
      name: Type.String(),
      description: Type.String(),
      quantity: Type.Number(),
      unitCost: Type.String(),
      total: Type.String(),
    }),
  ),
});

export const VoucherBody = VoucherInput;

export const VoucherResponse = Type.Object({ success: Type.Literal(true), data: VoucherRead });

export const CreateVoucherResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: VoucherRead,
});

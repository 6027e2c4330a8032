// A check's voucher: the body and the read shape.

import { type Static, Type } from 'typebox';
import { VoucherInput } from './checks.ts';
import { NullableString } from './common.ts';

// ---- vouchers ----
export const VoucherRead = Type.Object({
  voucherId: Type.String(),
  voucherNumber: Type.String(),
  date: NullableString(),
  memo: Type.String(),
  payeeId: NullableString({ description: 'The payee a voucher made by POST /vouchers names; null otherwise.' }),
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

/** POST /vouchers (the hosted service's): a voucher of its own, named later by a check's voucherId. */
export const StandaloneVoucherBody = Type.Object(
  {
    ...VoucherInput.properties,
    payeeId: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' }),
    ),
  },
  { additionalProperties: false },
);

export type StandaloneVoucherInput = Static<typeof StandaloneVoucherBody>;

// Payees: request bodies and the read shape (spec "Payees").

import { Type } from 'typebox';
import { MAX_BATCH, Meta, OptionalText, Text } from './common.ts';

// ---- payees ----
const payeeFields = {
  nickName: OptionalText(100),
  company: OptionalText(100),
  email: Type.Optional(
    Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], {
      'x-message': 'must be a valid email address',
    }),
  ),
  phone: OptionalText(32),
  address1: OptionalText(100),
  address2: OptionalText(100),
  city: OptionalText(60),
  state: OptionalText(60),
  zip: OptionalText(20),
  country: OptionalText(60),
};

export const PayeeInput = Type.Object({ name: Text(100), ...payeeFields }, { additionalProperties: false });

export const CreatePayeesBody = Type.Object(
  { payees: Type.Array(PayeeInput, { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

/** Spec "Payee: update body": all strings, all optional (a partial update). */
export const UpdatePayeeBody = Type.Object(
  { name: OptionalText(100), ...payeeFields },
  { additionalProperties: false },
);

export const PayeeRead = Type.Object({
  payeeId: Type.String(),
  name: Type.String(),
  nickName: Type.String(),
  company: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  address1: Type.String(),
  address2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
  country: Type.String(),
});

export const PayeeIdResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ payeeId: Type.String() }),
});

export const PayeeResponse = Type.Object({ success: Type.Literal(true), data: PayeeRead });

export const CreatePayeesResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ payees: Type.Array(PayeeRead) }),
});

export const ListPayeesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, payees: Type.Array(PayeeRead) }),
});

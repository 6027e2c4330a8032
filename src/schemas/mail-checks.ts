// POST /mailchecks: the hosted service's body, field for field, and the read shape of a mailing.

import { Type } from 'typebox';
import { Flag, IntegerValue, MAX_BATCH, NullableInteger, NullableString } from './common.ts';

export const MailingRead = Type.Object({
  mailingId: Type.String(),
  checkId: Type.String(),
  shippingTypeId: Type.Integer(),
  paperTypeId: Type.Integer(),
  customToAddressId: NullableString(),
  status: Type.String({ description: 'queued, dispatched or cancelled' }),
  informTypeId: NullableInteger(),
  enableSmsInform: Type.Boolean(),
  enableEmailInform: Type.Boolean(),
  payeeEmail: NullableString({ description: 'Where the payee is told by email (enableEmailInform), or null.' }),
  payeePhone: NullableString({ description: 'Where the payee is told by SMS (enableSmsInform), E.164, or null.' }),
  isShippingToCustomAddress: Type.Boolean(),
  customFromAddressId: NullableString(),
  customShippingTypeId: NullableInteger(),
});

const OptionalId = Type.Optional(
  Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' }),
);

/** The hosted service's POST /mailchecks body, field for field (docs/api-notes.md). */
export const MailChecksBody = Type.Object(
  {
    mailChecks: Type.Array(
      Type.Object(
        {
          checkId: Type.String({ minLength: 1, maxLength: 64 }),
          shippingTypeId: IntegerValue({
            description: 'One of GET /mailchecks/mailingOptions shippingTypes (1, 3, 4, 5, 12, 20).',
          }),
          paperTypeId: Type.Optional(
            IntegerValue({ description: '7 regular (default), 8 hologram, 9 ultra hologram.' }),
          ),
          informTypeId: Type.Optional(
            IntegerValue({ description: '10: notify the payee by SMS (as enableSmsInform).' }),
          ),
          enableSmsInform: Flag,
          enableEmailInform: Flag,
          payeeEmail: Type.Optional(
            Type.String({
              format: 'email',
              maxLength: 254,
              description: 'Required with enableEmailInform when the payee has no email on record.',
            }),
          ),
          payeePhone: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 32,
              description: 'Required with enableSmsInform when the payee has no phone on record.',
            }),
          ),
          customToAddressId: OptionalId,
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_BATCH },
    ),
    isShippingToCustomAddress: Flag,
    customToAddressId: OptionalId,
    customFromAddressId: OptionalId,
    customShippingTypeId: Type.Optional(IntegerValue()),
  },
  { additionalProperties: false },
);

export const MailingOptionsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    shippingTypes: Type.Array(
      Type.Object({ shippingTypeId: Type.Integer(), name: Type.String(), deliveryDays: Type.String() }),
    ),
    paperTypes: Type.Array(Type.Object({ paperTypeId: Type.Integer(), name: Type.String() })),
    informTypes: Type.Array(Type.Object({ informTypeId: Type.Integer(), name: Type.String() })),
  }),
});

export const MailChecksResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ mailings: Type.Array(MailingRead) }),
});

export const MailingResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: MailingRead });

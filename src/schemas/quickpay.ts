// /quickpay/*: the hosted service's one-call payment envelope (docs/api-notes.md,
// "Quickpay"). This service issues checks: /quickpay/check and /quickpay/mailcheck write one; the
// other rails of the envelope answer a 422 that names those two.

import { Type } from 'typebox';
import { Amount } from './checks.ts';
import { DateText, IntegerValue, OptionalText, Text } from './common.ts';

const destinationFields = {
  name: Text(100),
  company: OptionalText(100),
  address1: OptionalText(100),
  address2: OptionalText(100),
  city: OptionalText(60),
  state: OptionalText(60),
  zip: OptionalText(20),
  country: OptionalText(60),
  phone: OptionalText(32),
  email: Type.Optional(
    Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], {
      'x-message': 'must be a valid email address',
    }),
  ),
};

const Source = Type.Object(
  {
    accountType: Type.Optional(
      Type.Union([Type.Literal('bankaccount'), Type.Literal('')], {
        'x-message': 'must be bankaccount (checks are drawn on a bank account)',
      }),
    ),
    accountId: Type.String({ minLength: 1, maxLength: 64, description: 'A bankAccountId of GET /bankAccounts.' }),
  },
  { additionalProperties: false },
);

const PaymentDetails = Type.Object(
  {
    amount: Amount,
    memo: OptionalText(150),
    note: OptionalText(150),
    issueDate: Type.Optional(DateText('YYYY-MM-DD; default today.')),
    referenceID: Type.Optional(
      Type.String({
        maxLength: 255,
        description:
          "The check's referenceId: unique per account, so a retry with the same referenceID writes nothing and answers the existing check's id.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** POST /quickpay/check */
export const QuickpayCheckBody = Type.Object(
  {
    source: Source,
    destination: Type.Object(destinationFields, {
      additionalProperties: false,
      description:
        'The payee: an existing live payee with exactly this name, company and address is used, else one is created.',
    }),
    payment_details: PaymentDetails,
  },
  { additionalProperties: false },
);

/** The hosted service's `shipping.method` names, as shippingTypeIds of GET /mailchecks/mailingOptions. */
export const SHIPPING_METHODS: Readonly<Record<string, number>> = {
  usps_first_class: 1,
  usps_first_class_tracking: 3,
  usps_priority: 4,
  usps_express: 5,
  fedex_overnight: 12,
  fedex_saturday: 20,
};

/** POST /quickpay/mailcheck: the same envelope, and how to ship it. */
export const QuickpayMailCheckBody = Type.Object(
  {
    source: Source,
    destination: Type.Object(
      {
        ...destinationFields,
        shippingTypeId: Type.Optional(
          IntegerValue({ description: 'One of GET /mailchecks/mailingOptions shippingTypes; default 1.' }),
        ),
      },
      { additionalProperties: false },
    ),
    payment_details: PaymentDetails,
    shipping: Type.Optional(
      Type.Object(
        {
          method: Type.Union(
            Object.keys(SHIPPING_METHODS).map((m) => Type.Literal(m)),
            { 'x-message': `must be one of ${Object.keys(SHIPPING_METHODS).join(', ')}` },
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const Named = (idKey: string) => Type.Object({ [idKey]: Type.String(), name: Type.String() });

const QuickpayCheck = Type.Object({
  checkId: Type.String(),
  serialNumber: Type.String(),
  amount: Type.String(),
  status: Type.Integer(),
  bankAccount: Named('bankAccountId'),
  payee: Named('payeeId'),
});

export const QuickpayResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({
    checkId: Type.String(),
    paymentId: Type.String({ description: 'The checkId again (a client reads the id from here).' }),
    serialNumber: Type.String(),
    amount: Type.String(),
    status: Type.Integer(),
    bankAccount: Named('bankAccountId'),
    payee: Named('payeeId'),
    payeeCreated: Type.Boolean({ description: 'Whether the destination made a new payee.' }),
    checks: Type.Array(QuickpayCheck),
    mailingId: Type.Optional(Type.String({ description: 'mailcheck only: the mailing queued.' })),
    shippingTypeId: Type.Optional(Type.Integer()),
  }),
});

import { type Static, Type } from 'typebox';
import { LISTED_APPROVAL_STATES } from '../domain/approvals/policy.ts';
import { CHECK_STATUSES } from '../domain/check-status.ts';
import { CHECK_STOCKS, PAGE_LAYOUTS } from '../render/print-layout.ts';
import { DateText, Flag, MAX_BATCH, Meta, NullableString, NumberValue, OptionalText, PageQuery } from './common.ts';

/** A JSON number or a numeric string, as real clients send both; exactness is checked in the service. */
export const Amount = NumberValue({ description: 'Dollars with at most 2 decimals, as a number or a numeric string.' });

const NullableId = Type.Optional(
  Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' }),
);

const customElementKeys = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [`element${i + 1}`, Type.Optional(Type.String({ maxLength: 100 }))]),
);

export const VoucherItemInput = Type.Object(
  {
    invoiceNumber: OptionalText(50),
    name: OptionalText(100),
    description: OptionalText(200),
    quantity: Type.Optional(NumberValue({ description: 'From 0 to 1,000,000, as a number or a numeric string.' })),
    unitCost: Type.Optional(Amount),
    total: Type.Optional(Amount),
  },
  { additionalProperties: false },
);

export const VoucherInput = Type.Object(
  {
    voucherNumber: OptionalText(50),
    date: Type.Optional(DateText('YYYY-MM-DD')),
    memo: OptionalText(150),
    voucherItems: Type.Optional(Type.Array(VoucherItemInput, { maxItems: 100 })),
  },
  { additionalProperties: false },
);

export const CheckInput = Type.Object(
  {
    bankAccountId: Type.String({ minLength: 1, maxLength: 64 }),
    payeeId: NullableId,
    categoryId: NullableId,
    serialNumber: Type.Optional(
      Type.String({ pattern: '^(|0*[1-9][0-9]{0,14})$', 'x-message': 'must contain digits only (at most 15)' }),
    ),
    issueDate: Type.Optional(DateText('YYYY-MM-DD; default today in the account time zone.')),
    amount: Type.Optional(Amount),
    memo: OptionalText(150),
    note: OptionalText(150),
    accountNumber: OptionalText(50),
    invoiceNumber: OptionalText(50),
    referenceId: Type.Optional(
      Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { 'x-message': 'must be a string or null' }),
    ),
    noSign: Flag,
    noAmount: Flag,
    noDate: Flag,
    noPayee: Flag,
    voucherId: NullableId,
    voucher: Type.Optional(VoucherInput),
    customElements: Type.Optional(Type.Object(customElementKeys, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const CreateChecksBody = Type.Object(
  { checks: Type.Array(CheckInput, { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

const Named = (idKey: string) => Type.Object({ [idKey]: Type.String(), name: Type.String() });

export const CreatedCheck = Type.Object({
  checkId: Type.String(),
  serialNumber: Type.String(),
  amount: Type.String(),
  status: Type.Integer(),
  bankAccount: Named('bankAccountId'),
  payee: Named('payeeId'),
});

export const CreateChecksResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ checks: Type.Array(CreatedCheck) }),
});

const Moment = Type.Object({ date: Type.String(), time: Type.String() });

/** Addition to the spec: the check's mailing, present once it was queued with POST /mailchecks. */
const CheckMailingRead = Type.Object(
  {
    mailingId: Type.String(),
    shippingTypeId: Type.Integer(),
    shippingType: Type.String(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('dispatched'), Type.Literal('cancelled')]),
    queued: Moment,
    settled: Type.Union([Moment, Type.Null()], { description: 'When it was dispatched or cancelled.' }),
  },
  {
    description:
      'Addition to the spec: the print-and-mail mailing of the check (docs/lifecycle.md). The status code stays 0 (new) while it is queued; a `queued for mailing` statement records the queueing.',
  },
);

/** Spec "Check: read shape" (list item and single retrieval). */
export const CheckRead = Type.Object({
  checkId: Type.String(),
  serialNumber: Type.String(),
  amount: Type.Number(),
  amountInWord: Type.String(),
  date: Type.String(),
  status: Type.Integer(),
  memo: NullableString(),
  accountNumber: NullableString(),
  invoiceNumber: NullableString(),
  referenceId: NullableString(),
  bankAccount: Named('bankAccountId'),
  payee: Named('payeeId'),
  checkStatus: Type.Object({ status: Type.Integer(), description: Type.String() }),
  checkStatements: Type.Array(Type.Object({ status: Type.String(), date: Type.String(), time: Type.String() })),
  clearedDate: NullableString({
    description:
      'Addition to the spec: the day the bank paid the check (YYYY-MM-DD), null while outstanding. Clearing is not a status.',
  }),
  mailing: Type.Optional(CheckMailingRead),
});

/** Addition to the spec: what a company's approval policy asks of a check (docs/approvals.md). */
export const ApprovalRead = Type.Object(
  {
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('approved'),
      Type.Literal('rejected'),
      Type.Literal('not_required'),
    ]),
    required: Type.Integer({ description: 'Approvals the check needs; 0 when no policy covers it.' }),
    approvals: Type.Array(Type.Object({ by: Type.String(), at: Type.String({ format: 'date-time' }) })),
    rejectedBy: NullableString(),
    rejectedAt: NullableString({ format: 'date-time' }),
    reason: NullableString(),
  },
  {
    description:
      'Addition to the spec: a check its company holds for approval stays status 0 (New) and cannot be printed, emailed or mailed until approved. `not_required` when no policy covers it.',
  },
);

/** GET /checks/{id} and GET /checks items: the spec's read shape and the approval object. */
export const CheckWithApproval = Type.Object({ ...CheckRead.properties, approval: ApprovalRead });

export const CheckResponse = Type.Object({ success: Type.Literal(true), data: CheckWithApproval });

export const ListChecksQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(
    Type.Union([Type.Union(CHECK_STATUSES.map((s) => Type.Literal(s))), Type.Literal('')], {
      'x-message': `must be one of ${CHECK_STATUSES.join(', ')}`,
    }),
  ),
  referenceId: Type.Optional(
    Type.String({ maxLength: 255, pattern: '^[^\\u0000]*$', 'x-message': 'must not contain NUL characters' }),
  ),
  approval: Type.Optional(
    Type.Union([...LISTED_APPROVAL_STATES.map((s) => Type.Literal(s)), Type.Literal('')], {
      description:
        'Addition to the spec: only checks in this approval state (`pending`: new checks waiting for approval). Not combined with term, status or referenceId.',
      'x-message': `must be one of ${LISTED_APPROVAL_STATES.join(', ')}`,
    }),
  ),
});

export const ListChecksResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, checks: Type.Array(CheckWithApproval) }),
});

/** PUT /checks/{id}: the editable fields of a new check, all optional. */
export const CheckEditBody = Type.Object(
  {
    payeeId: CheckInput.properties.payeeId,
    categoryId: CheckInput.properties.categoryId,
    issueDate: CheckInput.properties.issueDate,
    amount: Type.Optional(Amount),
    memo: CheckInput.properties.memo,
    note: CheckInput.properties.note,
    accountNumber: CheckInput.properties.accountNumber,
    invoiceNumber: CheckInput.properties.invoiceNumber,
    referenceId: CheckInput.properties.referenceId,
    noSign: Flag,
    noAmount: Flag,
    noDate: Flag,
    noPayee: Flag,
    customElements: CheckInput.properties.customElements,
  },
  { additionalProperties: false },
);

export const CheckMessageResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: CheckRead,
});

const PrintIds = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: MAX_BATCH, description });

export const PrintChecksBody = Type.Object(
  {
    checkIds: Type.Optional(PrintIds('The checks to print; required unless checkId is given.')),
    // The hosted service's names, as a PHP SDK sends them (docs/api-notes.md): `checkId` (an
    // array) for checkIds, `paperType` for stock. Given both ways, they must agree.
    checkId: Type.Optional(PrintIds('The hosted name of checkIds.')),
    paperType: Type.Optional(
      Type.Union(
        CHECK_STOCKS.map((s) => Type.Literal(s)),
        { 'x-message': `must be one of ${CHECK_STOCKS.join(', ')}`, description: 'The hosted name of stock.' },
      ),
    ),
    // Our extension (docs/printing.md); absent means what the endpoint always printed.
    stock: Type.Optional(
      Type.Union(
        CHECK_STOCKS.map((s) => Type.Literal(s)),
        {
          'x-message': `must be one of ${CHECK_STOCKS.join(', ')}`,
          description:
            'Paper: `blank` (default) prints everything, MICR line included; `preprinted` prints only date, payee and address, amount, amount in words, memo and signature, at the same places (the paper carries bank, number and MICR line). Checks of one bank account only.',
        },
      ),
    ),
    layout: Type.Optional(
      Type.Union(
        PAGE_LAYOUTS.map((s) => Type.Literal(s)),
        {
          'x-message': `must be one of ${PAGE_LAYOUTS.join(', ')}`,
          description:
            'Where the check sits on the US letter page: `top` (default; stubs below), `middle` (stubs above and below), `bottom` (stubs above), or `three-per-page` (three 3.5-in checks stacked, no stubs).',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

// The input types of the services (services/checks/write.service.ts, lifecycle.service.ts), derived from
// the schemas the requests are validated against, so a field added here reaches the services'
// types (and the compiler) at once.
export type VoucherItemInput = Static<typeof VoucherItemInput>;
export type VoucherInput = Static<typeof VoucherInput>;
export type CheckInput = Static<typeof CheckInput>;
export type CheckEdit = Static<typeof CheckEditBody>;

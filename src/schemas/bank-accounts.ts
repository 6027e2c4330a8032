// Bank accounts: request bodies and the read shape (spec "Bank accounts"; print offsets are ours).

import { type Static, Type } from 'typebox';
import { MAX_PRINT_OFFSET } from '../domain/print-offset.ts';
import { IntegerValue, MAX_BATCH, Meta, NullableString, OptionalText, Text } from './common.ts';

// ---- bank accounts ----
/**
 * A serial number to start from: a number, or its digits as text (`nextSerial` reads back as a
 * string, and clients send it back as they read it). Range checked in the service.
 */
const Serial = (description: string) => IntegerValue({ description }, { minimum: 0, maximum: 999_999_999_999 });

/** Printer offsets (our extension, docs/printing.md): whole hundredths of an inch, ±MAX_PRINT_OFFSET. */
const PrintOffset = (direction: 'right' | 'down') =>
  Type.Integer({
    minimum: -MAX_PRINT_OFFSET,
    maximum: MAX_PRINT_OFFSET,
    description: `Printer offset in hundredths of an inch; positive moves everything printed for this account ${direction}.`,
  });

const printOffsets = {
  printOffsetX: Type.Optional(PrintOffset('right')),
  printOffsetY: Type.Optional(PrintOffset('down')),
};

const RoutingNumber = (description: string) =>
  Type.String({ pattern: '^[0-9]{9}$', 'x-message': 'must be 9 digits', description });

/**
 * The hosted service's names (docs/api-notes.md): `bankRoutingNumber` and `bankAddress1`
 * are other names of `routingNumber` and `bankAddress` (give either, or both alike); the others
 * are the holder's and the bank's details, kept and returned, not printed.
 */
const hostedFields = {
  nickName: OptionalText(100),
  addressLine1: OptionalText(100),
  addressLine2: OptionalText(100),
  phone: OptionalText(32),
  city: OptionalText(60),
  state: OptionalText(60),
  zip: OptionalText(20),
  bankAddress1: OptionalText(200, { description: 'The hosted name of bankAddress.' }),
  bankCity: OptionalText(60),
  bankState: OptionalText(60),
  bankZip: OptionalText(20),
};

export const BankAccountInput = Type.Object(
  {
    name: Text(100),
    bankName: OptionalText(100),
    bankAddress: OptionalText(200),
    routingNumber: Type.Optional(RoutingNumber('Required unless bankRoutingNumber is given.')),
    bankRoutingNumber: Type.Optional(RoutingNumber('The hosted name of routingNumber.')),
    ...hostedFields,
    accountNumber: Type.String({ pattern: '^[0-9]{4,17}$', 'x-message': 'must be 4 to 17 digits' }),
    startingSerial: Type.Optional(Serial('The first automatic serial number; default 10001.')),
    customFromAddressId: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' }),
    ),
    ...printOffsets,
  },
  { additionalProperties: false },
);

export const CreateBankAccountsBody = Type.Object(
  { bankAccounts: Type.Array(BankAccountInput, { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

export const UpdateBankAccountBody = Type.Object(
  {
    name: Type.Optional(Text(100)),
    bankName: OptionalText(100),
    bankAddress: OptionalText(200),
    nextSerial: Type.Optional(Serial('The next automatic serial number.')),
    routingNumber: Type.Optional(RoutingNumber('Accepted when it is the current one (it cannot change).')),
    bankRoutingNumber: Type.Optional(RoutingNumber('Accepted when it is the current one (it cannot change).')),
    ...hostedFields,
    customFromAddressId: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' }),
    ),
    ...printOffsets,
  },
  { additionalProperties: false, minProperties: 1 },
);

export const BankAccountRead = Type.Object({
  bankAccountId: Type.String(),
  name: Type.String(),
  bankName: Type.String(),
  bankAddress: Type.String(),
  routingNumber: Type.String(),
  accountNumber: Type.String({ description: 'Last four digits only, e.g. ****6789.' }),
  nextSerial: Type.String(),
  customFromAddressId: NullableString({
    description: "The custom 'from' address printed as the drawer; null prints the account's company name.",
  }),
  hasSignature: Type.Boolean({ description: "Whether a signature image prints on this account's checks." }),
  printOffsetX: PrintOffset('right'),
  printOffsetY: PrintOffset('down'),
  bankRoutingNumber: Type.String({ description: 'routingNumber again, under the hosted name.' }),
  bankAddress1: Type.String({ description: 'bankAddress again, under the hosted name.' }),
  nickName: Type.String(),
  addressLine1: Type.String(),
  addressLine2: Type.String(),
  phone: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
  bankCity: Type.String(),
  bankState: Type.String(),
  bankZip: Type.String(),
});

export const BankAccountResponse = Type.Object({ success: Type.Literal(true), data: BankAccountRead });

export const CreateBankAccountsResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ bankAccounts: Type.Array(BankAccountRead) }),
});

export const ListBankAccountsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, bankAccounts: Type.Array(BankAccountRead) }),
});

// The input types of services/bank-account.service.ts, derived from the request schemas.
export type BankAccountInput = Static<typeof BankAccountInput>;
export type BankAccountChanges = Static<typeof UpdateBankAccountBody>;

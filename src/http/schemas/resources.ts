// Schemas of the companion resources (API decisions, "Companion endpoints") and of the spec's
// payee update, custom from address and email check request.
import { Type } from 'typebox';
import { Flag, IntegerValue, MAX_BATCH, Meta, OptionalText, PageQuery, Text, NullableString } from './common.ts';
import { VoucherInput } from './checks.ts';
import { MAX_PRINT_OFFSET } from '../../domain/print-offset.ts';

// ---- email checks (spec "Email check request item") ----
export const EmailCheckItem = Type.Object(
  {
    checkId: Type.String({ minLength: 1, maxLength: 64 }),
    payeeEmail: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    enableSmsInform: Flag,
    payeePhone: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    sendAttachment: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('0'), Type.Literal('1')], { 'x-message': 'must be 0 or 1' })),
  },
  { additionalProperties: false },
);

export const EmailChecksBody = Type.Object(
  { emailChecks: Type.Array(EmailCheckItem, { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

// ---- payees ----
const payeeFields = {
  nickName: OptionalText(100),
  company: OptionalText(100),
  email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], { 'x-message': 'must be a valid email address' })),
  phone: OptionalText(32),
  address1: OptionalText(100),
  address2: OptionalText(100),
  city: OptionalText(60),
  state: OptionalText(60),
  zip: OptionalText(20),
  country: OptionalText(60),
};

export const PayeeInput = Type.Object({ name: Text(100), ...payeeFields }, { additionalProperties: false });
export const CreatePayeesBody = Type.Object({ payees: Type.Array(PayeeInput, { minItems: 1, maxItems: MAX_BATCH }) }, { additionalProperties: false });
/** Spec "Payee: update body": all strings, all optional (a partial update). */
export const UpdatePayeeBody = Type.Object({ name: OptionalText(100), ...payeeFields }, { additionalProperties: false });

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

export const PayeeIdResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: Type.Object({ payeeId: Type.String() }) });
export const PayeeResponse = Type.Object({ success: Type.Literal(true), data: PayeeRead });
export const CreatePayeesResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: Type.Object({ payees: Type.Array(PayeeRead) }) });
export const ListPayeesResponse = Type.Object({ success: Type.Literal(true), data: Type.Object({ meta: Meta, payees: Type.Array(PayeeRead) }) });

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
const printOffsets = { printOffsetX: Type.Optional(PrintOffset('right')), printOffsetY: Type.Optional(PrintOffset('down')) };
export const BankAccountInput = Type.Object(
  {
    name: Text(100),
    bankName: OptionalText(100),
    bankAddress: OptionalText(200),
    routingNumber: Type.String({ pattern: '^[0-9]{9}$', 'x-message': 'must be 9 digits' }),
    accountNumber: Type.String({ pattern: '^[0-9]{4,17}$', 'x-message': 'must be 4 to 17 digits' }),
    startingSerial: Type.Optional(Serial('The first automatic serial number; default 10001.')),
    customFromAddressId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' })),
    ...printOffsets,
  },
  { additionalProperties: false },
);
export const CreateBankAccountsBody = Type.Object({ bankAccounts: Type.Array(BankAccountInput, { minItems: 1, maxItems: MAX_BATCH }) }, { additionalProperties: false });
export const UpdateBankAccountBody = Type.Object(
  {
    name: Type.Optional(Text(100)),
    bankName: OptionalText(100),
    bankAddress: OptionalText(200),
    nextSerial: Type.Optional(Serial('The next automatic serial number.')),
    customFromAddressId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' })),
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
  customFromAddressId: NullableString({ description: "The custom 'from' address printed as the drawer; null prints the account's company name." }),
  hasSignature: Type.Boolean({ description: 'Whether a signature image prints on this account\'s checks.' }),
  printOffsetX: PrintOffset('right'),
  printOffsetY: PrintOffset('down'),
});
export const BankAccountResponse = Type.Object({ success: Type.Literal(true), data: BankAccountRead });
export const CreateBankAccountsResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: Type.Object({ bankAccounts: Type.Array(BankAccountRead) }) });
export const ListBankAccountsResponse = Type.Object({ success: Type.Literal(true), data: Type.Object({ meta: Meta, bankAccounts: Type.Array(BankAccountRead) }) });

// ---- categories ----
export const CategoryInput = Type.Object(
  {
    name: Text(100),
    type: OptionalText(50, { description: "The category's kind as the client names it, e.g. expense or income; empty when not given." }),
  },
  { additionalProperties: false },
);
/**
 * The batch form (`{"categories": [...]}`), or one category unwrapped (`{"name", "type"}`), which
 * clients of the hosted service send and answer with `data.categoryId` (docs/api-notes.md).
 */
export const CreateCategoriesBody = Type.Union([
  Type.Object({ categories: Type.Array(CategoryInput, { minItems: 1, maxItems: MAX_BATCH }) }, { additionalProperties: false }),
  CategoryInput,
]);
export const CategoryRead = Type.Object({ categoryId: Type.String(), name: Type.String(), type: Type.String() });
export const CreateCategoriesResponse = Type.Union([
  Type.Object({ success: Type.Literal(true), message: Type.String(), data: Type.Object({ categories: Type.Array(CategoryRead) }) }),
  Type.Object({ success: Type.Literal(true), message: Type.String(), data: CategoryRead }),
]);
export const ListCategoriesResponse = Type.Object({ success: Type.Literal(true), data: Type.Object({ meta: Meta, categories: Type.Array(CategoryRead) }) });

// ---- addresses ----
export const AddressInput = Type.Object(
  {
    name: Text(100),
    companyName: OptionalText(100),
    addressLine1: OptionalText(100),
    addressLine2: OptionalText(100),
    city: OptionalText(60),
    state: OptionalText(60),
    zip: OptionalText(20),
    country: OptionalText(60),
    phone: OptionalText(32),
    email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], { 'x-message': 'must be a valid email address' })),
    note: OptionalText(200),
  },
  { additionalProperties: false },
);
export const CreateAddressesBody = Type.Object({ addresses: Type.Array(AddressInput, { minItems: 1, maxItems: MAX_BATCH }) }, { additionalProperties: false });

const addressFields = {
  name: Type.String(),
  companyName: Type.String(),
  addressLine1: Type.String(),
  addressLine2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
  country: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  note: Type.String(),
};

/** Spec "Custom 'from' address": the single read keeps `id`. */
export const CustomFromAddressRead = Type.Object({ id: Type.String(), ...addressFields });
export const CustomFromAddressResponse = Type.Object({ success: Type.Literal(true), data: CustomFromAddressRead });
export const FromAddressListItem = Type.Object({ customFromAddressId: Type.String(), ...addressFields });
export const ToAddressListItem = Type.Object({ customToAddressId: Type.String(), ...addressFields });
export const CreateFromAddressesResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: Type.Object({ addresses: Type.Array(FromAddressListItem) }) });
export const ListFromAddressesResponse = Type.Object({ success: Type.Literal(true), data: Type.Object({ meta: Meta, addresses: Type.Array(FromAddressListItem) }) });
export const CreateToAddressesResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: Type.Object({ addresses: Type.Array(ToAddressListItem) }) });
export const ListToAddressesResponse = Type.Object({ success: Type.Literal(true), data: Type.Object({ meta: Meta, addresses: Type.Array(ToAddressListItem) }) });

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
export const CreateVoucherResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: VoucherRead });

export const ListQuery = Type.Object(PageQuery);

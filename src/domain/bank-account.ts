// A bank account checks are drawn on.

export interface BankAccount {
  id: string;
  name: string;
  bankName: string;
  bankAddress: string;
  routingNumber: string;
  /** The number as the API and panel show it: `****` and the last four digits. */
  accountNumberMasked: string;
  /** The number as stored: sealed (domain/sealed.ts); opened only to print the MICR line. */
  sealedAccountNumber: string;
  nextSerial: number;
  customFromAddressId: string | null;
  hasSignature: boolean;
  /** Printer offsets in hundredths of an inch (domain/print-offset.ts). */
  printOffsetX: number;
  printOffsetY: number;
  /**
   * The hosted service's holder and bank details, which its clients send: shown and returned, never
   * printed on the check. `bankAddress` is the hosted `bankAddress1`, `routingNumber` its
   * `bankRoutingNumber`.
   */
  nickName: string;
  addressLine1: string;
  addressLine2: string;
  phone: string;
  city: string;
  state: string;
  zip: string;
  bankCity: string;
  bankState: string;
  bankZip: string;
  createdAt: number;
}

/** The hosted detail fields, in the order the clients send them. */
export const BANK_ACCOUNT_DETAILS = [
  'nickName',
  'addressLine1',
  'addressLine2',
  'phone',
  'city',
  'state',
  'zip',
  'bankCity',
  'bankState',
  'bankZip',
] as const;

export type BankAccountDetail = (typeof BANK_ACCOUNT_DETAILS)[number];

/**
 * How a person tells bank accounts apart in a menu or a list: "Payroll · First Bank ****7766", and
 * without a bank name "Payroll · ****7766" (never a dangling separator or a double space).
 */
export function bankAccountLabel(b: Pick<BankAccount, 'name' | 'bankName' | 'accountNumberMasked'>): string {
  const where = [b.bankName.trim(), b.accountNumberMasked].filter((part) => part !== '').join(' ');
  return [b.name.trim(), where].filter((part) => part !== '').join(' · ');
}

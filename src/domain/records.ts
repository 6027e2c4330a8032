// The service's records as the domain sees them (row types never leave the store).
import type { Environment } from './owner.ts';

export interface Account {
  id: string;
  company: string;
  email: string;
  emailVerified: boolean;
  phone: string;
  phoneVerified: boolean;
  timeZone: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  env: Environment;
  name: string;
  keyHash: string;
  displayPrefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

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
  createdAt: number;
}

export const PAYEE_FIELDS = ['name', 'nickName', 'company', 'email', 'phone', 'address1', 'address2', 'city', 'state', 'zip', 'country'] as const;
export type PayeeField = (typeof PAYEE_FIELDS)[number];
export type PayeeFields = Record<PayeeField, string>;

export interface Payee extends PayeeFields {
  id: string;
  createdAt: number;
}

export interface Category {
  id: string;
  name: string;
  /** The client's own kind of category (the hosted service's clients send e.g. expense, income); '' when not given. */
  type: string;
  createdAt: number;
}

export type AddressKind = 'from' | 'to';
export const ADDRESS_FIELDS = ['name', 'companyName', 'addressLine1', 'addressLine2', 'city', 'state', 'zip', 'country', 'phone', 'email', 'note'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressFields = Record<AddressField, string>;

export interface Address extends AddressFields {
  id: string;
  kind: AddressKind;
  createdAt: number;
}

export interface VoucherItem {
  invoiceNumber: string;
  name: string;
  description: string;
  quantity: number;
  unitCostCents: number;
  totalCents: number;
}

export interface Voucher {
  id: string;
  voucherNumber: string;
  date: string | null;
  memo: string;
  items: VoucherItem[];
  createdAt: number;
}

export interface CheckStatement {
  status: string;
  at: number;
}

export interface Check {
  id: string;
  bankAccountId: string;
  bankAccountName: string;
  payeeId: string | null;
  payeeName: string | null;
  categoryId: string | null;
  voucherId: string | null;
  serialNumber: string;
  issueDate: string;
  amountCents: number | null;
  memo: string | null;
  note: string | null;
  accountNumber: string | null;
  invoiceNumber: string | null;
  referenceId: string | null;
  noSign: boolean;
  noAmount: boolean;
  noDate: boolean;
  noPayee: boolean;
  customElements: Record<string, string>;
  status: number;
  createdAt: number;
  statements: CheckStatement[];
}

/** A check ready to be written: everything decided, ids assigned. */
export type NewCheck = Omit<Check, 'bankAccountName' | 'payeeName' | 'statements' | 'status'>;

export interface Delivery {
  id: string;
  checkId: string | null;
  channel: 'email' | 'sms' | 'webhook';
  recipient: string;
  payload: Record<string, unknown>;
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
  /**
   * The random link or account token the message carries, sealed (domain/sealed.ts) until the
   * message is sent or fails, then erased: only the token's hash outlives the sending.
   */
  sealedToken?: string | null;
}

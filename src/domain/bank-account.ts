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
  createdAt: number;
}

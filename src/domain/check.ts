// A check as the domain sees it (row types never leave the store).

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
  /** The day the bank paid it (YYYY-MM-DD), null while outstanding: not a status (docs/reconciliation.md). */
  clearedDate: string | null;
  createdAt: number;
  statements: CheckStatement[];
}

/** A check ready to be written: everything decided, ids assigned. */
export type NewCheck = Omit<Check, 'bankAccountName' | 'payeeName' | 'statements' | 'status' | 'clearedDate'>;

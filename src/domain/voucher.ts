// A voucher: the remittance lines printed with a check.

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
  /** The payee a voucher made on its own (`POST /vouchers`) names; null for a check's inline voucher. */
  payeeId: string | null;
  items: VoucherItem[];
  createdAt: number;
}

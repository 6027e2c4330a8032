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
  items: VoucherItem[];
  createdAt: number;
}

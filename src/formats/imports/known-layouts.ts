// The accounting exports an office actually has, recognised by their header: one table, header
// signature -> columns, sign of money out, grouping (docs/imports.md lists them with their
// fixtures in test/fixtures/imports/). A recognised layout needs no mapping and no confirmation:
// its sign and its grouping are part of it, so the panel, the API and the command line read it alike.
// How a report's rows become a table is report-table.ts; IIF files are iif-file.ts.
// PURE like read-import-file.ts: arrays in, plain data out.
import { headerKey, type ImportKind } from '../../domain/import-columns.ts';

/** Lines looked at for the header: a report's title block is a handful of lines, never this many. */
export const MAX_HEADER_SEARCH = 30;

export type MoneyOut = 'positive' | 'negative';

/** How rows become checks: one each, one per bill (repeated total), or a check with its split lines. */
export type Grouping = 'row' | 'bill' | 'splits';

export interface KnownLayout {
  readonly id: string;
  /** As the preview says it: "Looks like a {label}". */
  readonly label: string;
  readonly kind: ImportKind;
  /** Header texts that must all be there (compared as import-columns' headerKey compares them). */
  readonly signature: readonly string[];
  /** Header text -> our field, or one of the layout's own roles (`@…`), read by the grouping. */
  readonly columns: Readonly<Record<string, string>>;
  readonly moneyOut: MoneyOut;
  readonly grouping: Grouping;
  /** The group heading above rows (QuickBooks' "Transaction List by Vendor") is their payee. */
  readonly headingIsPayee?: boolean;
  /** Only rows whose column holds this value are payments (Wave: the bank side of a transaction). */
  readonly only?: { readonly column: string; readonly value: string; readonly otherwise: string };
}

export const KNOWN_LAYOUTS: readonly KnownLayout[] = [
  {
    id: 'qbo-transaction-detail-by-account',
    label: 'QuickBooks Online "Transaction Detail by Account" report',
    kind: 'checks',
    signature: ['Date', 'Transaction Type', 'Num', 'Name', 'Memo/Description', 'Split', 'Amount', 'Balance'],
    columns: { Date: 'issueDate', Num: 'serialNumber', Name: 'payee', 'Memo/Description': 'memo', Amount: 'amount' },
    moneyOut: 'negative',
    grouping: 'row',
  },
  {
    id: 'qbo-transaction-list-by-vendor',
    label: 'QuickBooks Online "Transaction List by Vendor" report',
    kind: 'checks',
    signature: ['Date', 'Transaction Type', 'Num', 'Posting', 'Memo/Description', 'Account', 'Amount'],
    columns: { Date: 'issueDate', Num: 'serialNumber', 'Memo/Description': 'memo', Amount: 'amount' },
    moneyOut: 'negative',
    grouping: 'row',
    headingIsPayee: true,
  },
  {
    id: 'qbo-bill-payment-list',
    label: 'QuickBooks Online "Bill Payment List" report',
    kind: 'checks',
    signature: ['Date', 'Num', 'Vendor', 'Amount'],
    columns: { Date: 'issueDate', Num: 'serialNumber', Vendor: 'payee', Amount: 'amount' },
    moneyOut: 'negative',
    grouping: 'row',
  },
  {
    id: 'qbo-vendor-contact-list',
    label: 'QuickBooks Online "Vendor Contact List" report',
    kind: 'payees',
    signature: ['Vendor', 'Phone Numbers', 'Email', 'Full name', 'Billing address'],
    columns: { Vendor: 'name', 'Phone Numbers': '@phones', Email: 'email', 'Billing address': '@address' },
    moneyOut: 'positive',
    grouping: 'row',
  },
  {
    id: 'qbd-check-detail',
    label: 'QuickBooks Desktop "Check Detail" report',
    kind: 'checks',
    signature: ['Type', 'Num', 'Date', 'Name', 'Account', 'Paid Amount', 'Original Amount'],
    columns: {
      Type: '@type',
      Num: 'serialNumber',
      Date: 'issueDate',
      Name: 'payee',
      Account: '@line',
      'Original Amount': 'amount',
    },
    moneyOut: 'negative',
    grouping: 'splits',
  },
  {
    id: 'qbd-iif',
    label: 'QuickBooks Desktop IIF file',
    kind: 'checks',
    signature: ['!TRNS', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT'],
    columns: {
      '!TRNS': '@type',
      DATE: 'issueDate',
      NAME: 'payee',
      DOCNUM: 'serialNumber',
      MEMO: 'memo',
      ACCNT: '@line',
      AMOUNT: 'amount',
    },
    moneyOut: 'negative',
    grouping: 'splits',
  },
  {
    id: 'xero-bills',
    label: 'Xero bills export',
    kind: 'checks',
    signature: [
      'ContactName',
      'InvoiceNumber',
      'InvoiceDate',
      'Total',
      'InvoiceAmountDue',
      'Description',
      'LineAmount',
    ],
    columns: {
      ContactName: 'payee',
      InvoiceNumber: 'invoiceNumber',
      InvoiceDate: 'issueDate',
      Reference: 'memo',
      InvoiceAmountDue: 'amount',
      Total: '@total',
      Description: '@line',
      LineAmount: '@lineAmount',
      TaxAmount: '@lineTax',
    },
    moneyOut: 'positive',
    grouping: 'bill',
  },
  {
    id: 'xero-contacts',
    label: 'Xero contacts export',
    kind: 'payees',
    signature: ['ContactName', 'EmailAddress', 'POAddressLine1', 'POCity', 'PORegion', 'POPostalCode'],
    columns: {
      ContactName: 'name',
      EmailAddress: 'email',
      POAddressLine1: 'address1',
      POAddressLine2: 'address2',
      POCity: 'city',
      PORegion: 'state',
      POPostalCode: 'zip',
      POCountry: 'country',
      PhoneNumber: 'phone',
      LegalName: 'company',
    },
    moneyOut: 'positive',
    grouping: 'row',
  },
  {
    id: 'wave-accounting-transactions',
    label: 'Wave accounting transactions export',
    kind: 'checks',
    signature: ['Transaction ID', 'Transaction Date', 'Amount (One column)', 'Account Type', 'Account Name'],
    columns: {
      'Transaction Date': 'issueDate',
      'Amount (One column)': 'amount',
      Vendor: 'payee',
      Customer: '@payee2',
      'Notes / Memo': 'memo',
    },
    moneyOut: 'negative',
    grouping: 'row',
    only: {
      column: 'Account Type',
      value: 'Cash and Bank',
      otherwise: 'the other side of a transaction (not the bank)',
    },
  },
];

/** The layout whose signature the header holds, or null. */
export function layoutOf(header: readonly string[]): KnownLayout | null {
  const keys = new Set(header.map(headerKey));
  return KNOWN_LAYOUTS.find((l) => l.signature.every((name) => keys.has(headerKey(name)))) ?? null;
}

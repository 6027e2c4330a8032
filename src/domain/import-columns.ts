// Which column of an imported sheet holds which field, and how a cell's text becomes the value the
// API takes. Header names of common accounting exports are recognised (docs/imports.md lists them
// with their sources); the user's own mapping, column -> field, always wins over the guess.
import { readWrittenDate } from './dates.ts';
import { PAYEE_FIELDS } from './payee.ts';
import { unsafeCharacter, unsafeTextMessage } from './safe-text.ts';

export type ImportKind = 'checks' | 'payees';

export const IMPORT_KINDS: readonly ImportKind[] = ['checks', 'payees'];

/** Fields of a check row: the create-check request's, plus `payee` (a payee's name or id). */
export const CHECK_IMPORT_FIELDS = [
  'bankAccountId',
  'payee',
  'payeeId',
  'category',
  'serialNumber',
  'issueDate',
  'amount',
  'memo',
  'note',
  'accountNumber',
  'invoiceNumber',
  'referenceId',
  'noSign',
  'noAmount',
  'noDate',
  'noPayee',
] as const;

/** Fields of a payee row: the create-payee request's, so one list serves both. */
export const PAYEE_IMPORT_FIELDS = PAYEE_FIELDS;

export type CheckImportField = (typeof CHECK_IMPORT_FIELDS)[number];
export type PayeeImportField = (typeof PAYEE_IMPORT_FIELDS)[number];
export type ImportField = CheckImportField | PayeeImportField;

/** How slashed dates of a sheet read: month/day/year (US exports) or day/month/year. */
export type DateOrder = 'mdy' | 'dmy';

/** How a file writes 03/04/2026: exactly "mdy" or "dmy" (a form's select, a command's option). */
export function isDateOrder(text: string): text is DateOrder {
  return text === 'mdy' || text === 'dmy';
}

/** A payee row of a sheet: the API's payee fields as the sheet's text, the name always there. */
export type PayeeRow = { name: string } & Partial<Record<Exclude<ImportField, 'name'>, string>>;

export function fieldsOf(kind: ImportKind): readonly ImportField[] {
  return kind === 'checks' ? CHECK_IMPORT_FIELDS : PAYEE_IMPORT_FIELDS;
}

/** A header as compared: lower case, no '*' (Xero marks required columns), no punctuation or spaces. */
export function headerKey(header: string): string {
  return header
    .toLowerCase()
    .replace(/[^a-z0-9#]/g, '')
    .replace(/#/g, 'number');
}

const CHECK_HEADERS: Readonly<Record<CheckImportField, readonly string[]>> = {
  bankAccountId: ['bankAccountId', 'Bank Account', 'Bank Account Id', 'Bank'],
  // QuickBooks reports call the payee "Name" (Check Detail) or "Payee"/"Vendor"; Xero and Wave "Payee"/"Contact".
  payee: [
    'Payee',
    'Name',
    'Payee Name',
    'Vendor',
    'Vendor Name',
    'Contact',
    'Contact Name',
    'Pay To',
    'Supplier',
    'Source Name',
  ],
  payeeId: ['payeeId', 'Payee Id'],
  // QuickBooks "Account"/"Split" and Xero "Account"/"Account Code" name the expense account; ours is the category.
  category: [
    'Category',
    'categoryId',
    'Category Id',
    'Account',
    'Account Name',
    'Account Code',
    'Split',
    'Expense Account',
  ],
  // QuickBooks "Num" (the check number), Xero "Cheque Number"/"Check Number".
  serialNumber: [
    'serialNumber',
    'Num',
    'No',
    'No.',
    'Number',
    'Check Number',
    'Check No',
    'Check #',
    'Cheque Number',
    'Cheque No',
    'Doc Num',
    'Ref Number',
  ],
  issueDate: ['issueDate', 'Date', 'Check Date', 'Txn Date', 'Transaction Date', 'Payment Date', 'Issue Date'],
  amount: ['Amount', 'Check Amount', 'Payment Amount', 'Total', 'Paid Amount', 'Debit'],
  memo: ['Memo', 'Description', 'Memo/Description', 'Line Description'],
  note: ['Note', 'Notes', 'Internal Note'],
  accountNumber: ['accountNumber', 'Account Number', 'Account No', 'Vendor Account Number'],
  invoiceNumber: ['invoiceNumber', 'Invoice Number', 'Invoice No', 'Invoice #', 'Bill Number', 'Bill No'],
  referenceId: ['referenceId', 'Reference', 'Reference Id', 'Ref', 'External Id', 'Transaction Id'],
  noSign: ['noSign', 'No Signature'],
  noAmount: ['noAmount', 'No Amount'],
  noDate: ['noDate', 'No Date'],
  noPayee: ['noPayee', 'No Payee'],
};

const PAYEE_HEADERS: Readonly<Record<PayeeImportField, readonly string[]>> = {
  // QuickBooks vendor lists: "Vendor"/"Display Name"; Xero contacts: "*ContactName"/"Contact Name".
  name: [
    'name',
    'Payee',
    'Payee Name',
    'Vendor',
    'Vendor Name',
    'Display Name',
    'Print On Check Name',
    'Contact Name',
    'ContactName',
    'Supplier',
    'Full Name',
  ],
  nickName: ['nickName', 'Nick Name', 'Nickname', 'Short Name'],
  company: ['Company', 'Company Name', 'Business Name', 'Organisation', 'Organization'],
  email: ['Email', 'E-mail', 'Email Address', 'Main Email'],
  phone: ['Phone', 'Phone Number', 'Main Phone', 'Telephone', 'Mobile', 'PhoneNumber'],
  address1: [
    'address1',
    'Address',
    'Address 1',
    'Address Line 1',
    'Street',
    'Street Address',
    'Billing Address Line 1',
    'POAddressLine1',
    'Address1',
  ],
  address2: ['address2', 'Address 2', 'Address Line 2', 'Billing Address Line 2', 'POAddressLine2'],
  city: ['City', 'Town', 'City/Town', 'Billing Address City', 'POCity'],
  state: ['State', 'Region', 'Province', 'State/Province', 'Billing Address State', 'PORegion'],
  zip: [
    'zip',
    'Zip Code',
    'ZIP',
    'Postal Code',
    'Postcode',
    'Post Code',
    'Billing Address Postal Code',
    'POPostalCode',
  ],
  country: ['Country', 'Billing Address Country', 'POCountry'],
};

function headersOf(kind: ImportKind): Readonly<Record<string, readonly string[]>> {
  return kind === 'checks' ? CHECK_HEADERS : PAYEE_HEADERS;
}

/** The recognised header names of each field (docs/imports.md prints them). */
export function recognisedHeaders(kind: ImportKind): readonly [ImportField, readonly string[]][] {
  return Object.entries(headersOf(kind)) as [ImportField, readonly string[]][];
}

/** A mapping: for each column (by index), the field it holds, or null when it is not imported. */
export type ColumnMapping = (ImportField | null)[];

/**
 * The field of each column guessed from its header; a field goes to the first column that names
 * it, so a second "Memo" column is left out rather than overwriting the first.
 */
export function guessMapping(kind: ImportKind, header: readonly string[]): ColumnMapping {
  const byKey = new Map<string, ImportField>();
  for (const [field, names] of recognisedHeaders(kind)) {
    for (const name of [field, ...names]) if (!byKey.has(headerKey(name))) byKey.set(headerKey(name), field);
  }
  const taken = new Set<ImportField>();
  return header.map((name) => {
    const field = byKey.get(headerKey(name)) ?? null;
    if (field === null || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

export class MappingError extends Error {
  override name = 'MappingError';
}

/**
 * The guess with the user's choices on top. `chosen` maps a column — its header text or its
 * 0-based index as a string — to a field name, or to '' to leave the column out.
 */
export function resolveMapping(
  kind: ImportKind,
  header: readonly string[],
  chosen: Readonly<Record<string, string>> = {},
): ColumnMapping {
  const mapping = guessMapping(kind, header);
  const fields = new Set<string>(fieldsOf(kind));
  for (const [column, field] of Object.entries(chosen)) {
    let index = header.indexOf(column);
    if (index < 0 && /^\d{1,5}$/.test(column) && Number(column) < header.length) index = Number(column);
    if (index < 0) throw new MappingError(`The mapping names a column "${column}" that the file does not have.`);
    if (field !== '' && !fields.has(field))
      throw new MappingError(
        `The mapping of column "${column}" names "${field}", which is not a ${kind} field (one of: ${[...fields].join(', ')}).`,
      );
    const value = field === '' ? null : (field as ImportField);
    // A field chosen for this column leaves any other column that was guessed for it.
    if (value !== null) {
      for (let i = 0; i < mapping.length; i++) if (mapping[i] === value && i !== index) mapping[i] = null;
    }
    mapping[index] = value;
  }
  const seen = new Set<ImportField>();
  for (const field of mapping) {
    if (field === null) continue;
    if (seen.has(field)) throw new MappingError(`The mapping puts two columns into the field ${field}.`);
    seen.add(field);
  }
  return mapping;
}

/** A row as field -> trimmed text, only the mapped columns. */
export function mappedRow(mapping: ColumnMapping, row: readonly string[]): Partial<Record<ImportField, string>> {
  const out: Partial<Record<ImportField, string>> = {};
  mapping.forEach((field, i) => {
    if (field !== null) out[field] = (row[i] ?? '').trim();
  });
  return out;
}

/** A problem with one cell, in the API's wording ("The amount field ..."). */
export class CellError extends Error {
  override name = 'CellError';
}

/** Refuses a cell holding a character no field may hold (domain/safe-text.ts): a quoted line break. */
export function safeCell(field: string, value: string): string {
  const kind = unsafeCharacter(value);
  if (kind !== null) throw new CellError(unsafeTextMessage(field, kind));
  return value;
}

/** A cell quoted in a message, cut to 40 characters: a 4,096-character cell must not make every message long. */
function quotedCell(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * A sheet's money text as the API's amount text: "$1,234.50", "1234.5", "12" and "USD 12.00" are
 * read; a thousands separator must group by three ("1,23" is refused, as is "1.234,50": in a sheet
 * of dollars it is ambiguous), and a negative amount (as some reports show money paid out) is
 * refused, not turned around. The exact rules of the amount itself are the API's (services).
 */
export function sheetAmount(text: string): string {
  let t = text.replace(/\s+/g, '');
  if (/^\(.*\)$/.test(t) || t.startsWith('-') || t.startsWith('$-') || t.endsWith('-'))
    throw new CellError('The amount field must be greater than 0 (a negative amount is refused: remove the sign).');
  t = t.replace(/^(USD|US\$|\$)/i, '').replace(/(USD)$/i, '');
  if (t.includes(',')) {
    if (!/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(t))
      throw new CellError(
        `The amount field "${quotedCell(text.trim())}" is ambiguous: write dollars with a dot for cents and commas only between groups of three digits (1,234.50).`,
      );
    t = t.replace(/,/g, '');
  }
  return t;
}

/**
 * A sheet's date as YYYY-MM-DD: ISO dates as they are, slashed dates as month/day/year (US exports)
 * or day/month/year when the file says so. A two-digit year is refused: it is ambiguous. A date
 * that is no day of the calendar is refused in words quoting the cell (domain/dates.ts):
 * `"02/30/2026" is not a date: February 2026 has 28 days`.
 */
export function sheetDate(text: string, order: 'mdy' | 'dmy'): string {
  const t = text.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})[T ]/.exec(t);
  const day = iso?.[1] ?? t;
  if (/^\d{1,2}[/.-]\d{1,2}[/.-]\d{2}$/.test(day))
    throw new CellError(
      `The issueDate field "${quotedCell(t)}" has a two-digit year, which is ambiguous: write the year in full.`,
    );
  const read = readWrittenDate(day, order);
  if ('problem' in read) throw new CellError(`The issueDate field ${read.problem}.`);
  return read.date;
}

/** Yes/no cells: true, yes, y, 1, x mean true; false, no, n, 0 and empty mean false. */
export function sheetFlag(field: string, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (['true', 'yes', 'y', '1', 'x'].includes(t)) return true;
  if (['false', 'no', 'n', '0', ''].includes(t)) return false;
  throw new CellError(`The ${field} field must be yes or no.`);
}

// The one writer for every positive pay layout (layout.ts): a description, the bank account and
// the records in, the file's text out. Amounts are integer cents up to here; the only
// conversions to text are below, and they are exact.
import { centsToDecimalString } from '../../domain/money.ts';
import type { PositivePayRecord } from '../../domain/positive-pay.ts';
import { csvCell, startsLikeFormula } from '../csv-writer.ts';
import type { AmountFormat, DateFormat, LayoutField, PositivePayLayout, TextCase } from './layout.ts';

export interface LayoutAccount {
  accountNumber: string;
  routingNumber?: string;
}

/**
 * A value of the account or a check that the layout's field cannot hold (a 10-digit account number
 * in an 8-digit field). Not a fault of ours: the layout was typed from a sheet that does not fit
 * this account, so it is answered as a refusal naming the field, never as a server error.
 */
export class LayoutValueError extends RangeError {
  override name = 'LayoutValueError';
}

interface Totals {
  count: number;
  totalCents: number;
}

const FIELD_NAMES: Record<string, string> = {
  accountNumber: 'the account number',
  routingNumber: 'the routing number',
  checkNumber: 'the check number',
  amount: 'the amount',
  totalAmount: 'the total amount',
  recordCount: 'the record count',
};

function checkedCents(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0)
    throw new RangeError('a positive pay amount must be whole, non-negative cents');
  return cents;
}

export function formatAmount(cents: number, format: AmountFormat): string {
  const whole = checkedCents(cents);
  return format === 'cents' ? String(whole) : centsToDecimalString(whole);
}

export function formatDate(isoDate: string, format: DateFormat): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (match === null) throw new RangeError('an issue date must be YYYY-MM-DD');
  const [, yyyy = '', mm = '', dd = ''] = match;
  const yy = yyyy.slice(2);
  switch (format) {
    case 'YYYY-MM-DD':
      return isoDate;
    case 'YYYYMMDD':
      return `${yyyy}${mm}${dd}`;
    case 'MMDDYYYY':
      return `${mm}${dd}${yyyy}`;
    case 'MMDDYY':
      return `${mm}${dd}${yy}`;
    case 'YYMMDD':
      return `${yy}${mm}${dd}`;
    case 'MM/DD/YYYY':
      return `${mm}/${dd}/${yyyy}`;
    case 'MM/DD/YY':
      return `${mm}/${dd}/${yy}`;
  }
}

/** Printable ASCII, accents dropped, upper-cased: what a bank's mainframe reads. */
export function asciiUpper(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .toUpperCase();
}

function isNumeric(field: LayoutField): boolean {
  const k = field.source.kind;
  return (
    k === 'accountNumber' ||
    k === 'routingNumber' ||
    k === 'checkNumber' ||
    k === 'amount' ||
    k === 'totalAmount' ||
    k === 'recordCount'
  );
}

function rawValue(
  field: LayoutField,
  account: LayoutAccount,
  layout: PositivePayLayout,
  r: PositivePayRecord | null,
  totals: Totals,
): string {
  const s = field.source;
  switch (s.kind) {
    case 'accountNumber':
      return account.accountNumber;
    case 'routingNumber':
      return account.routingNumber ?? '';
    case 'checkNumber':
      return r?.serialNumber ?? '';
    case 'amount':
      return r === null ? '' : formatAmount(r.amountCents, s.format);
    case 'issueDate':
      return r === null ? '' : formatDate(r.issueDate, s.format);
    case 'payee':
      return r?.payeeName ?? '';
    case 'code':
      return r === null ? '' : r.kind === 'I' ? layout.codes.issue : layout.codes.void;
    case 'literal':
      return s.text;
    case 'filler':
      return '';
    case 'recordCount':
      return String(totals.count);
    case 'totalAmount':
      return formatAmount(totals.totalCents, s.format);
  }
}

function applyCase(text: string, textCase: TextCase): string {
  return textCase === 'asciiUpper' ? asciiUpper(text) : text;
}

/** One fixed-width field: numbers must fit (never cut), text is cut to the width. */
function fixedField(value: string, field: LayoutField, textCase: TextCase): string {
  const width = field.width ?? 0;
  const numeric = isNumeric(field);
  const align = field.align ?? (numeric ? 'right' : 'left');
  const pad = field.pad ?? (numeric && align === 'right' ? '0' : ' ');
  if (numeric) {
    const what = FIELD_NAMES[field.source.kind] ?? 'a number';
    // Leading zeros of the value itself are not digits the bank needs: "000123" fits 3.
    const digits = pad === '0' ? value.replace(/^0+(?=\d)/, '') : value;
    if (!/^[0-9]+(\.[0-9]{2})?$/.test(digits) || digits.length > width)
      throw new LayoutValueError(`${what} does not fit ${width} digits`);
    return align === 'right' ? digits.padStart(width, pad) : digits.padEnd(width, pad);
  }
  const text = applyCase(value, textCase).slice(0, width);
  return align === 'right' ? text.padStart(width, pad) : text.padEnd(width, pad);
}

/** One delimited cell: text cut to its maximum, then quoted or neutralized by csvCell. */
function delimitedCell(value: string, field: LayoutField, textCase: TextCase, delimiter: string): string {
  let text = applyCase(value, textCase);
  if (field.width !== undefined) {
    if (isNumeric(field) && text.length > field.width)
      throw new LayoutValueError(`${FIELD_NAMES[field.source.kind] ?? 'a number'} does not fit ${field.width} digits`);
    text = text.slice(0, field.width);
  }
  const cell = csvCell(text);
  // csvCell quotes for the comma; any other delimiter inside a value needs quotes too.
  if (cell === text && !startsLikeFormula(text) && delimiter !== ',' && text.includes(delimiter))
    return `"${text.replaceAll('"', '""')}"`;
  return cell;
}

function line(
  fields: readonly LayoutField[],
  layout: PositivePayLayout,
  account: LayoutAccount,
  r: PositivePayRecord | null,
  totals: Totals,
): string {
  const values = fields.map((f) => rawValue(f, account, layout, r, totals));
  if (layout.record.kind === 'fixed') return fields.map((f, i) => fixedField(values[i] ?? '', f, layout.text)).join('');
  const { delimiter } = layout.record;
  return fields.map((f, i) => delimitedCell(values[i] ?? '', f, layout.text, delimiter)).join(delimiter);
}

/** Record length of a fixed-width line of these fields. */
export function fixedLength(fields: readonly LayoutField[]): number {
  return fields.reduce((sum, f) => sum + (f.width ?? 0), 0);
}

export function writePositivePay(
  layout: PositivePayLayout,
  account: LayoutAccount,
  records: readonly PositivePayRecord[],
): string {
  const totals: Totals = { count: records.length, totalCents: 0 };
  for (const r of records) totals.totalCents += checkedCents(r.amountCents);
  const lines: string[] = [];
  if (layout.headerColumns !== undefined)
    lines.push(
      layout.headerColumns.map(csvCell).join(layout.record.kind === 'delimited' ? layout.record.delimiter : ''),
    );
  if (layout.header !== undefined) lines.push(line(layout.header, layout, account, null, totals));
  for (const r of records) lines.push(line(layout.detail, layout, account, r, totals));
  if (layout.trailer !== undefined) lines.push(line(layout.trailer, layout, account, null, totals));
  return lines.map((l) => `${l}${layout.lineEnding}`).join('');
}

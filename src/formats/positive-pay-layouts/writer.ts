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

/** What the file knows beside its records. */
export interface WriteOptions {
  /** The day the file is written (YYYY-MM-DD, the company's time zone); layouts with a
   * `fileDate` or `issueOrFileDate` field need it. */
  fileDate?: string;
}

interface Totals {
  count: number;
  totalCents: number;
  /** The sum of the check numbers: exact past 2^53, since 20,000 numbers of 15 digits may add up that far. */
  checkNumberTotal: bigint;
}

const FIELD_NAMES: Record<string, string> = {
  accountNumber: 'the account number',
  routingNumber: 'the routing number',
  checkNumber: 'the check number',
  amount: 'the amount',
  totalAmount: 'the total amount',
  recordCount: 'the record count',
  checkNumberTotal: 'the check number total',
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
  if (match === null) throw new RangeError('a date must be YYYY-MM-DD');
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
    k === 'recordCount' ||
    k === 'checkNumberTotal'
  );
}

/**
 * The payee over two lines: line 1 takes the whole name when it fits `width`; otherwise it ends at
 * the last space that leaves it at most `width` characters (a space right after them counts), and
 * line 2 starts at the next word. A first word longer than `width` is cut at `width`, the rest
 * going to line 2. Line 2 is cut to its own field's width when written, like any text.
 */
export function splitPayee(name: string, width: number): [string, string] {
  const text = name.trim();
  if (text.length <= width) return [text, ''];
  const space = text.lastIndexOf(' ', width);
  if (space > 0) return [text.slice(0, space).trimEnd(), text.slice(space + 1).trimStart()];
  return [text.slice(0, width), text.slice(width).trimStart()];
}

function fileDateOf(options: WriteOptions): string {
  // A programming error, not the layout's: every caller that writes a real file passes the day.
  if (options.fileDate === undefined) throw new TypeError('this layout writes the file date: pass options.fileDate');
  return options.fileDate;
}

function sumOfCheckNumbers(records: readonly PositivePayRecord[]): bigint {
  let sum = 0n;
  for (const r of records) {
    if (!/^[0-9]*$/.test(r.serialNumber))
      throw new LayoutValueError('the check number total needs check numbers of digits only');
    if (r.serialNumber !== '') sum += BigInt(r.serialNumber);
  }
  return sum;
}

interface LineContext {
  layout: PositivePayLayout;
  account: LayoutAccount;
  options: WriteOptions;
  totals: Totals;
  /** The width of the detail's first `payeeLine1`, where the payee is split; none, no split. */
  payeeWidth: number | undefined;
}

const NO_SPLIT: readonly [string, string] = ['', ''];

function rawValue(
  field: LayoutField,
  c: LineContext,
  r: PositivePayRecord | null,
  payee: readonly [string, string],
): string {
  const { account, layout, totals } = c;
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
    case 'fileDate':
      return formatDate(fileDateOf(c.options), s.format);
    case 'issueOrFileDate':
      return r === null ? '' : formatDate(r.kind === 'V' ? fileDateOf(c.options) : r.issueDate, s.format);
    case 'payee':
      return r?.payeeName ?? '';
    case 'payeeLine1':
      return payee[0];
    case 'payeeLine2':
      return payee[1];
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
    case 'checkNumberTotal':
      return totals.checkNumberTotal.toString();
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

function line(fields: readonly LayoutField[], c: LineContext, r: PositivePayRecord | null): string {
  const { layout } = c;
  // Split once a record, after the case is applied so the widths count the characters written.
  const payee =
    r === null || c.payeeWidth === undefined ? NO_SPLIT : splitPayee(applyCase(r.payeeName, layout.text), c.payeeWidth);
  const values = fields.map((f) => rawValue(f, c, r, payee));
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
  options: WriteOptions = {},
): string {
  const summed = [...(layout.header ?? []), ...(layout.trailer ?? [])].some(
    (f) => f.source.kind === 'checkNumberTotal',
  );
  const totals: Totals = {
    count: records.length,
    totalCents: 0,
    checkNumberTotal: summed ? sumOfCheckNumbers(records) : 0n,
  };
  for (const r of records) totals.totalCents += checkedCents(r.amountCents);
  const c: LineContext = {
    layout,
    account,
    options,
    totals,
    payeeWidth: layout.detail.find((f) => f.source.kind === 'payeeLine1')?.width,
  };
  const lines: string[] = [];
  if (layout.headerColumns !== undefined)
    lines.push(
      layout.headerColumns.map(csvCell).join(layout.record.kind === 'delimited' ? layout.record.delimiter : ''),
    );
  if (layout.header !== undefined) lines.push(line(layout.header, c, null));
  for (const r of records) lines.push(line(layout.detail, c, r));
  if (layout.trailer !== undefined) lines.push(line(layout.trailer, c, null));
  return lines.map((l) => `${l}${layout.lineEnding}`).join('');
}

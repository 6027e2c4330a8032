// Positive pay files: the list of checks a business tells its bank it issued (and voided), so the
// bank pays only those. Two layouts, both documented field by field in docs/positive-pay.md:
// - `csv`: our own documented CSV (RFC 4180, header row);
// - `fixed`: JPMorgan Chase's "ARP Standard Input" fixed-width issue record, as the bank publishes
//   it (positions 1–94; see the doc for the source).
// Amounts are integer cents here; the only conversions to text are below, and they are exact.
import { csvLine } from './csv-writer.ts';
import { centsToDecimalString } from '../domain/money.ts';
import type { PositivePayFormat, PositivePayRecord, PositivePayFile } from '../domain/positive-pay.ts';

// ---- CSV ----

export const CSV_HEADER = ['account_number', 'check_number', 'issue_date', 'amount', 'payee_name', 'void_indicator'];

/**
 * RFC 4180 with every cell through `csvCell` (formats/csv-writer.ts): a payee name that starts like
 * a formula is written as text. The amount is ours, from non-negative integer cents, so it never
 * starts with a minus sign and stays a number for the bank and for a spreadsheet.
 */
export function positivePayCsv(accountNumber: string, records: readonly PositivePayRecord[]): string {
  const lines = [csvLine(CSV_HEADER)];
  for (const r of records) {
    if (!Number.isSafeInteger(r.amountCents) || r.amountCents < 0)
      throw new RangeError('a positive pay amount must be whole, non-negative cents');
    lines.push(
      csvLine([accountNumber, r.serialNumber, r.issueDate, centsToDecimalString(r.amountCents), r.payeeName, r.kind]),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

// ---- Fixed width: Chase ARP Standard Input ----

/** Record length of the layout as implemented: positions 1–94 (docs/positive-pay.md). */
export const ARP_RECORD_LENGTH = 94;

function zeroFilled(digits: string, width: number, what: string): string {
  const value = digits.replace(/^0+(?=\d)/, '');
  if (!/^[0-9]+$/.test(value) || value.length > width) throw new RangeError(`${what} does not fit ${width} digits`);
  return value.padStart(width, '0');
}

/**
 * The payee in the 15-character Additional Data field: printable ASCII only (the layout is plain
 * text read by a mainframe), letters upper-cased as banks print them, cut to the width.
 */
export function arpAdditionalData(payeeName: string): string {
  const ascii = payeeName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .toUpperCase();
  return ascii.slice(0, 15).padEnd(15, ' ');
}

export function arpRecord(accountNumber: string, r: PositivePayRecord): string {
  const line =
    r.kind + // 1: record type, I = issue, V = void
    ' ' + // 2: filler
    zeroFilled(accountNumber, 20, 'the account number') + // 3–22
    ' ' + // 23
    zeroFilled(r.serialNumber, 18, 'the check number') + // 24–41
    ' ' + // 42
    zeroFilled(String(r.amountCents), 18, 'the amount') + // 43–60, 9(16)V99: cents, no point
    ' ' + // 61
    r.issueDate.replaceAll('-', '') + // 62–69, YYYYMMDD
    ' ' + // 70
    ' '.repeat(8) + // 71–78: paid date, spaces on input files
    ' ' + // 79
    arpAdditionalData(r.payeeName); // 80–94
  if (line.length !== ARP_RECORD_LENGTH) throw new RangeError(`an ARP record came out ${line.length} long`);
  return line;
}

export function positivePayFixed(accountNumber: string, records: readonly PositivePayRecord[]): string {
  return records.map((r) => `${arpRecord(accountNumber, r)}\r\n`).join('');
}

export function positivePayFile(
  format: PositivePayFormat,
  accountNumber: string,
  records: readonly PositivePayRecord[],
  baseName: string,
): PositivePayFile {
  return format === 'csv'
    ? {
        name: `${baseName}.csv`,
        contentType: 'text/csv; charset=utf-8',
        content: positivePayCsv(accountNumber, records),
      }
    : {
        name: `${baseName}.txt`,
        contentType: 'text/plain; charset=us-ascii',
        content: positivePayFixed(accountNumber, records),
      };
}

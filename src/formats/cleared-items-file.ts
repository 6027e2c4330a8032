// The bank's cleared-items (paid-items) file, read into check number, amount and paid date per
// row. Banks name these columns differently; the names recognised and where they come from are in
// docs/reconciliation.md. Everything here is pure — text in, plain data out, a refused file as data —
// so it can run in a worker thread; the service decides what a row matches.
import { isCalendarDate } from '../domain/dates.ts';
import { parseAmountToCents } from '../domain/money.ts';
import { readCsv } from './csv-reader.ts';
import {
  type ClearedItem,
  type ClearedItemsFile,
  MAX_CLEARED_ITEMS_ROWS,
  MAX_CLEARED_ITEMS_COLUMNS,
  MAX_CLEARED_ITEMS_CELL_CHARS,
  MAX_CLEARED_ITEMS_LINE_CHARS,
} from '../domain/cleared-items.ts';
import { unsafeCharacter } from '../domain/safe-text.ts';

/** The header is looked for in the first lines: some exports put the account's details above it. */
const HEADER_SEARCH_LINES = 10;
/** A check number as shown back in a mismatch (the bank's text, cut to this length). */
const SHOWN_NUMBER_LENGTH = 40;

// Header names, compared lower-cased with everything but letters and digits removed
// ("Check #" → "check", "Date Paid" → "datepaid"). In order of preference within each list.
const NUMBER_NAMES = [
  'checknumber',
  'checkno',
  'checknum',
  'checkserialnumber',
  'checkserial',
  'serialnumber',
  'serialno',
  'serialnum',
  'serial',
  'chkref',
  'checkref',
  'checkorslip',
  'checkorslipnumber',
  'chknumber',
  'chkno',
  'chknum',
  'chk',
  'check',
  'num',
  'number',
];
const AMOUNT_NAMES = [
  'amount',
  'checkamount',
  'paidamount',
  'amountpaid',
  'itemamount',
  'clearedamount',
  'amt',
  'checkamt',
  'paidamt',
  'debit',
  'debitamount',
  'debits',
  'withdrawal',
  'withdrawals',
  'withdrawalamount',
];
/** Named for the day the bank paid the check first; a generic "date" only when none of these is there. */
const DATE_NAMES = [
  'paiddate',
  'datepaid',
  'cleareddate',
  'datecleared',
  'clearingdate',
  'posteddate',
  'dateposted',
  'postingdate',
  'postdate',
  'processdate',
  'processeddate',
  'settlementdate',
  'effectivedate',
  'date',
  'transactiondate',
];

const normalise = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function pick(header: readonly string[], names: readonly string[]): number {
  const normalised = header.map(normalise);
  for (const name of names) {
    const at = normalised.indexOf(name);
    if (at >= 0) return at;
  }
  return -1;
}

/** "$1,234.56", "-1234.56", "(1,234.56)", "1234.56-": banks show debits signed or not; the size counts. */
export function parseBankAmount(text: string): number | null {
  let t = text.trim().replace(/[$,\s]/g, '');
  if (/^\(.*\)$/.test(t)) t = t.slice(1, -1);
  t = t.replace(/^[-+]/, '').replace(/-$/, '');
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) return null;
  const parsed = parseAmountToCents(t.startsWith('.') ? `0${t}` : t);
  return 'cents' in parsed ? parsed.cents : null;
}

/** YYYY-MM-DD, YYYY/MM/DD, YYYYMMDD, M/D/YYYY, M-D-YYYY or M/D/YY (20YY): the forms bank exports use. */
export function parseBankDate(text: string): string | null {
  const t = text.trim();
  const pad = (n: string): string => n.padStart(2, '0');
  let date: string | null = null;
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(t);
  if (m !== null) date = `${m[1]}-${pad(m[2] ?? '')}-${pad(m[3] ?? '')}`;
  m = date === null ? /^(\d{4})(\d{2})(\d{2})$/.exec(t) : null;
  if (m !== null) date = `${m[1]}-${m[2]}-${m[3]}`;
  m = date === null ? /^(\d{1,2})[-/](\d{1,2})[-/](\d{4}|\d{2})$/.exec(t) : null;
  if (m !== null) {
    const year = (m[3] ?? '').length === 2 ? `20${m[3]}` : (m[3] ?? '');
    date = `${year}-${pad(m[1] ?? '')}-${pad(m[2] ?? '')}`;
  }
  return date !== null && isCalendarDate(date) ? date : null;
}

/** A check number as we store serials: digits (at most 15) without leading zeros; null otherwise. */
export function serialOf(checkNumber: string): string | null {
  const digits = checkNumber.trim();
  if (!/^[0-9]{1,30}$/.test(digits)) return null;
  const serial = digits.replace(/^0+/, '');
  return serial === '' || serial.length > 15 ? null : serial;
}

/** Text from the file as we may show it: without control or bidi characters (safe-text.ts), bounded. */
function shown(text: string): string {
  return [...text.trim()]
    .filter((c) => unsafeCharacter(c) === null)
    .join('')
    .slice(0, SHOWN_NUMBER_LENGTH);
}

/** The file read, or why it cannot be (a sentence for a 422: the service answers it as one). */
export type ClearedItemsResult = { ok: true; file: ClearedItemsFile } | { ok: false; message: string };

const refused = (message: string): ClearedItemsResult => ({ ok: false, message });

/**
 * Reads the file. `fallbackDate` is the cleared date of rows when the file has no date column.
 * `today` bounds the dates: a bank does not pay a check tomorrow. A file that cannot be read as
 * cleared items (not CSV within the bounds above, no header with a check number and an amount, an
 * unreadable amount or date on a check's row, too many rows) is refused naming the line: nothing is
 * cleared from half a file. Banks' files are read leniently (csv.ts): a quote inside a field is
 * kept, spaces around a field are dropped.
 */
export function readClearedItems(text: string, fallbackDate: string, today: string): ClearedItemsResult {
  const read = readCsv(
    text,
    {
      maxColumns: MAX_CLEARED_ITEMS_COLUMNS,
      maxCellChars: MAX_CLEARED_ITEMS_CELL_CHARS,
      maxRecordChars: MAX_CLEARED_ITEMS_LINE_CHARS,
      maxRecords: MAX_CLEARED_ITEMS_ROWS + HEADER_SEARCH_LINES,
    },
    { lenient: true },
  );
  const tooMany = `The file has more than ${MAX_CLEARED_ITEMS_ROWS.toLocaleString('en-US')} rows: split it.`;
  if (!read.ok) return refused(read.problem.kind === 'too_many_records' ? tooMany : `${read.problem.message}.`);
  const { records, lines } = read;
  const headerAt = records
    .slice(0, HEADER_SEARCH_LINES)
    .findIndex((fields) => pick(fields, NUMBER_NAMES) >= 0 && pick(fields, AMOUNT_NAMES) >= 0);
  const header = records[headerAt];
  if (header === undefined)
    return refused(
      'The file has no header line naming a check number column (such as "Check Number" or "Serial Number") and an amount column (such as "Amount" or "Paid Amount").',
    );
  const numberAt = pick(header, NUMBER_NAMES);
  const amountAt = pick(header, AMOUNT_NAMES);
  const dateAt = pick(header, DATE_NAMES);
  if (records.length - headerAt - 1 > MAX_CLEARED_ITEMS_ROWS) return refused(tooMany);
  const items: ClearedItem[] = [];
  let skippedLines = 0;
  for (let at = headerAt + 1; at < records.length; at += 1) {
    const fields = records[at] ?? [];
    const line = lines[at] ?? 0;
    const checkNumber = shown(fields[numberAt] ?? '');
    if (checkNumber === '') {
      skippedLines += 1;
      continue;
    }
    const amountText = fields[amountAt] ?? '';
    const amountCents = parseBankAmount(amountText);
    if (amountCents === null)
      return refused(`Line ${line}: the amount "${shown(amountText)}" of check ${checkNumber} is not an amount.`);
    let clearedDate = fallbackDate;
    if (dateAt >= 0) {
      const dateText = fields[dateAt] ?? '';
      const parsed = parseBankDate(dateText);
      if (parsed === null)
        return refused(
          `Line ${line}: the date "${shown(dateText)}" of check ${checkNumber} is not a date (YYYY-MM-DD or MM/DD/YYYY).`,
        );
      clearedDate = parsed;
    }
    if (clearedDate > today)
      return refused(`Line ${line}: check ${checkNumber} cannot have cleared on ${clearedDate}, after today.`);
    items.push({ line, checkNumber, serial: serialOf(checkNumber), amountCents, clearedDate });
  }
  if (items.length === 0) return refused('The file lists no checks: every row lacks a check number.');
  return {
    ok: true,
    file: {
      items,
      skippedLines,
      columns: {
        checkNumber: header[numberAt]?.trim() ?? '',
        amount: header[amountAt]?.trim() ?? '',
        date: dateAt >= 0 ? (header[dateAt]?.trim() ?? '') : null,
      },
    },
  };
}

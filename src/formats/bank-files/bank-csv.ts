// A bank's CSV download, recognised by its shape: a header line naming the columns (found below a
// preamble or a summary block, as Bank of America's stmt.csv and credit unions' exports put one
// above it), with the amount in one signed column or in debit and credit columns, and the check
// number in its own column or inside the description ("Check 363"); or no header at all, the five
// quoted fields of a Wells Fargo download. Where each layout comes from: docs/reconciliation.md.
import {
  MAX_CLEARED_ITEMS_CELL_CHARS,
  MAX_CLEARED_ITEMS_COLUMNS,
  MAX_CLEARED_ITEMS_LINE_CHARS,
  MAX_CLEARED_ITEMS_ROWS,
} from '../../domain/cleared-items.ts';
import { readCsv } from '../csv-reader.ts';
import {
  type BankRow,
  type ClearedItemsResult,
  checkNumberInText,
  parseBankDate,
  readBankDate,
  parseSignedBankAmount,
  refused,
  shown,
  shownCells,
  sortRows,
} from './bank-values.ts';

/** The header is looked for in the first lines: exports put the account's details or a summary above it. */
export const HEADER_SEARCH_LINES = 10;

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
/** One column for the amount: signed (debits negative) in a statement, unsigned in a paid-items file. */
const AMOUNT_NAMES = [
  'amount',
  'checkamount',
  'paidamount',
  'amountpaid',
  'itemamount',
  'clearedamount',
  'transactionamount',
  'amt',
  'checkamt',
  'paidamt',
];
/** Money out in a column of its own. */
const DEBIT_NAMES = [
  'debit',
  'debitamount',
  'amountdebit',
  'debits',
  'withdrawal',
  'withdrawals',
  'withdrawalamount',
  'paidout',
];
/** Money in beside it. */
const CREDIT_NAMES = [
  'credit',
  'creditamount',
  'amountcredit',
  'credits',
  'deposit',
  'deposits',
  'depositamount',
  'paidin',
];
/** Where a check's number is written when no column holds it. */
const DESCRIPTION_NAMES = ['description', 'transactiondescription', 'payee', 'name', 'memo', 'narrative'];
/** A running balance marks a statement: its single amount column is signed. */
const BALANCE_NAMES = [
  'balance',
  'runningbal',
  'runningbalance',
  'ledgerbalance',
  'availablebalance',
  'endingdailybalance',
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

interface Columns {
  number: number;
  description: number;
  amount: number;
  debit: number;
  credit: number;
  date: number;
  balance: number;
}

function columnsOf(header: readonly string[]): Columns {
  return {
    number: pick(header, NUMBER_NAMES),
    description: pick(header, DESCRIPTION_NAMES),
    amount: pick(header, AMOUNT_NAMES),
    debit: pick(header, DEBIT_NAMES),
    credit: pick(header, CREDIT_NAMES),
    date: pick(header, DATE_NAMES),
    balance: pick(header, BALANCE_NAMES),
  };
}

const hasAmount = (c: Columns): boolean => c.amount >= 0 || c.debit >= 0;
const hasNumber = (c: Columns): boolean => c.number >= 0 || c.description >= 0;

const WELLS_FARGO_SHAPE = 'date, amount, "*", check number, description';

/** Wells Fargo's headerless line: five fields, the third "*" (or empty); trailing empty fields aside. */
function wellsFargoFields(fields: readonly string[]): string[] | null {
  const f = [...fields];
  while (f.length > 5 && f.at(-1)?.trim() === '') f.pop();
  if (f.length !== 5) return null;
  const [date = '', amount = '', star = ''] = f;
  if (parseBankDate(date) === null || parseSignedBankAmount(amount) === null) return null;
  return star.trim() === '*' || star.trim() === '' ? f : null;
}

/** A row read before its sign is known: a single-column file is signed only if some amount is. */
interface RawRow {
  line: number;
  checkNumber: string;
  cents: number;
  negative: boolean;
  /** Debit/credit columns say the direction themselves. */
  out: boolean | null;
  date: string;
}

type RowOrRefusal = RawRow | null | { refusal: string };

/**
 * Reads a CSV bank file. `fallbackDate` is the date of rows when the file has no date column;
 * `today` bounds the dates of checks paid. A line that cannot be read as a row of its file is
 * refused naming the line: nothing is cleared from half a file.
 */
export function readBankCsv(text: string, fallbackDate: string, today: string): ClearedItemsResult {
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
  const window = records.slice(0, HEADER_SEARCH_LINES);
  const headerAt = window.findIndex((fields) => {
    const c = columnsOf(fields);
    return hasAmount(c) && hasNumber(c);
  });
  if (headerAt >= 0) {
    if (records.length - headerAt - 1 > MAX_CLEARED_ITEMS_ROWS) return refused(tooMany);
    return readWithHeader(records, lines, headerAt, fallbackDate, today);
  }
  const firstRowAt = window.findIndex((fields) => wellsFargoFields(fields) !== null);
  if (firstRowAt >= 0) return readWellsFargo(records, lines, firstRowAt, today);
  const amountOnly = window.findIndex((fields) => hasAmount(columnsOf(fields)));
  if (amountOnly >= 0)
    return refused(
      `Line ${lines[amountOnly]} names an amount column but no check number column (such as "Check Number" or "Check #") and no description that could name the check ("Check 363"); it holds: ${shownCells(records[amountOnly] ?? [])}.`,
    );
  return refused(
    `The file has no header line naming an amount column (such as "Amount", "Debit" or "Amount Debit") and a check number column (such as "Check Number") or a description ("Check 363") in its first ${HEADER_SEARCH_LINES} lines, and it is not a Wells Fargo download without a header (${WELLS_FARGO_SHAPE}). Its first line holds: ${shownCells(records[0] ?? [])}.`,
  );
}

function readWithHeader(
  records: readonly string[][],
  lines: readonly number[],
  headerAt: number,
  fallbackDate: string,
  today: string,
): ClearedItemsResult {
  const header = records[headerAt] ?? [];
  const c = columnsOf(header);
  const name = (at: number): string => header[at]?.trim() ?? '';
  const twoColumns = c.amount < 0;
  const raw: RawRow[] = [];
  let skipped = 0;
  for (let at = headerAt + 1; at < records.length; at += 1) {
    const row = rowOf(records[at] ?? [], lines[at] ?? 0, c, name, fallbackDate);
    if (row === null) skipped += 1;
    else if ('refusal' in row) return refused(row.refusal);
    else raw.push(row);
  }
  // One signed column: a statement (a running balance, or any amount written negative) shows money
  // out negative and money in positive; a paid-items file lists checks paid, all of them money out.
  const signed = !twoColumns && (c.balance >= 0 || raw.some((r) => r.negative));
  const rows: BankRow[] = raw.map((r) => ({
    line: r.line,
    checkNumber: r.checkNumber,
    amountCents: r.cents,
    out: r.out ?? (signed ? r.negative : true),
    date: r.date,
  }));
  const numberName = c.number >= 0 ? name(c.number) : name(c.description);
  const where =
    c.number >= 0
      ? `in the "${numberName}" column`
      : `in the "${numberName}" column written as "Check 363" (the file has no check number column)`;
  return sortRows(
    twoColumns ? 'csv-debit-credit' : 'csv',
    rows,
    skipped,
    { checkNumber: numberName, amount: name(twoColumns ? c.debit : c.amount), date: c.date >= 0 ? name(c.date) : null },
    today,
    `The file lists no checks paid: no row has a check number ${where}. Its header (line ${lines[headerAt]}) holds: ${shownCells(header)}`,
  );
}

/** One data row of a file with a header: null when it names no check (a fee, a balance line). */
function rowOf(
  fields: readonly string[],
  line: number,
  c: Columns,
  name: (at: number) => string,
  fallbackDate: string,
): RowOrRefusal {
  const cell = (at: number): string => (at >= 0 ? (fields[at] ?? '').trim() : '');
  const checkNumber = shown(cell(c.number)) || (checkNumberInText(cell(c.description)) ?? '');
  if (checkNumber === '') return null;
  const amountOf = (at: number) => {
    const text = cell(at);
    // An empty cell, or a zero where debit and credit columns fill both ("0.00" beside the amount).
    if (text === '' || (c.amount < 0 && /^[-+(]?\$?0*(\.0*)?\)?$/.test(text.replace(/[\s,]/g, '')))) return undefined;
    return (
      parseSignedBankAmount(text) ?? {
        refusal: `Line ${line}: the amount "${shown(text)}" of check ${checkNumber} is not an amount.`,
      }
    );
  };
  let amount: { cents: number; negative: boolean };
  let out: boolean | null = null;
  if (c.amount >= 0) {
    const a = amountOf(c.amount);
    if (a === undefined) return { refusal: `Line ${line}: check ${checkNumber} has no amount in "${name(c.amount)}".` };
    if ('refusal' in a) return a;
    amount = a;
  } else {
    const debit = amountOf(c.debit);
    const credit = debit === undefined ? amountOf(c.credit) : undefined;
    const either = debit ?? credit;
    if (either === undefined)
      return {
        refusal: `Line ${line}: check ${checkNumber} has no amount in "${name(c.debit)}"${c.credit >= 0 ? ` or "${name(c.credit)}"` : ''}.`,
      };
    if ('refusal' in either) return either;
    amount = either;
    out = debit !== undefined;
  }
  let date = fallbackDate;
  if (c.date >= 0) {
    const read = readBankDate(cell(c.date));
    if (read === null || 'reason' in read)
      return {
        refusal: `Line ${line}: the date "${shown(cell(c.date))}" of check ${checkNumber} is not a date (${read === null ? 'YYYY-MM-DD or MM/DD/YYYY' : read.reason}).`,
      };
    date = read.date;
  }
  return { line, checkNumber, cents: amount.cents, negative: amount.negative, out, date };
}

/** Wells Fargo's download: no header, five fields a line, money out negative. */
function readWellsFargo(
  records: readonly string[][],
  lines: readonly number[],
  firstRowAt: number,
  today: string,
): ClearedItemsResult {
  if (records.length - firstRowAt > MAX_CLEARED_ITEMS_ROWS)
    return refused(`The file has more than ${MAX_CLEARED_ITEMS_ROWS.toLocaleString('en-US')} rows: split it.`);
  const rows: BankRow[] = [];
  for (let at = firstRowAt; at < records.length; at += 1) {
    const line = lines[at] ?? 0;
    const f = wellsFargoFields(records[at] ?? []);
    if (f === null)
      return refused(
        `Line ${line} is not a line of a Wells Fargo download (${WELLS_FARGO_SHAPE}), as line ${lines[firstRowAt]} is; it holds: ${shownCells(records[at] ?? [])}.`,
      );
    const [date = '', amountText = '', , number = '', description = ''] = f;
    const amount = parseSignedBankAmount(amountText);
    const day = parseBankDate(date);
    if (amount === null || day === null) continue;
    const checkNumber = shown(number) || (checkNumberInText(description) ?? '');
    rows.push({ line, checkNumber, amountCents: amount.cents, out: amount.negative, date: day });
  }
  return sortRows(
    'csv-headerless',
    rows,
    0,
    { checkNumber: 'column 4 (or the description)', amount: 'column 2', date: 'column 1' },
    today,
    `The file lists no checks paid: no line has a check number in its fourth field or a description such as "CHECK # 1029"`,
  );
}

// The values every bank file shares, whatever its shape (CSV, OFX, BAI2): amounts, dates, check
// numbers, the text shown back, and the rows read turned into the file the service matches.
// Pure: text in, plain data out.
import type { BankFileLayout, ClearedItem, ClearedItemsFile, CreditItem } from '../../domain/cleared-items.ts';
import { dayReason, isCalendarDate } from '../../domain/dates.ts';
import { parseAmountToCents } from '../../domain/money.ts';
import { unsafeCharacter } from '../../domain/safe-text.ts';

/** A bank's text as shown back (a check number, a cell) is cut to this length. */
const SHOWN_LENGTH = 40;

/** A signed amount in cents, as a bank wrote it. */
export interface SignedCents {
  cents: number;
  negative: boolean;
}

/**
 * "$1,234.56", "-1234.56", "(1,234.56)", "1234.56-", "+12.00": banks write debits signed in one of
 * these ways. Null when the text is not an amount (at most two decimals, not zero).
 */
export function parseSignedBankAmount(text: string): SignedCents | null {
  let t = text.trim().replace(/[$,\s]/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(t)) {
    t = t.slice(1, -1);
    negative = true;
  }
  if (/^[-+]/.test(t)) {
    negative = negative || t.startsWith('-');
    t = t.slice(1);
  } else if (t.endsWith('-')) {
    negative = true;
    t = t.slice(0, -1);
  }
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) return null;
  const parsed = parseAmountToCents(t.startsWith('.') ? `0${t}` : t);
  return 'cents' in parsed ? { cents: parsed.cents, negative } : null;
}

/** The size of an amount in cents, whatever its sign; null when it is not an amount. */
export function parseBankAmount(text: string): number | null {
  return parseSignedBankAmount(text)?.cents ?? null;
}

/**
 * A date in one of the forms bank exports use — YYYY-MM-DD, YYYY/MM/DD, YYYYMMDD, M/D/YYYY,
 * M-D-YYYY or M/D/YY (20YY) — as YYYY-MM-DD; or, when it has such a form but names no day, why
 * ("February 2026 has 28 days"); null when it has none of the forms.
 */
export function readBankDate(text: string): { date: string } | { reason: string } | null {
  const t = text.trim();
  let parts: [number, number, number] | null = null;
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(t) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  if (m !== null) parts = [Number(m[1]), Number(m[2]), Number(m[3])];
  m = parts === null ? /^(\d{1,2})[-/](\d{1,2})[-/](\d{4}|\d{2})$/.exec(t) : null;
  if (m !== null) {
    const year = (m[3] ?? '').length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    parts = [year, Number(m[1]), Number(m[2])];
  }
  if (parts === null) return null;
  const [year, month, day] = parts;
  const reason = dayReason(year, month, day);
  if (reason !== null) return { reason };
  const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isCalendarDate(date) ? { date } : { reason: `the year ${year} is not one of the calendar's` };
}

/** The date of readBankDate, or null when the text is not one. */
export function parseBankDate(text: string): string | null {
  const read = readBankDate(text);
  return read !== null && 'date' in read ? read.date : null;
}

/** A check number as we store serials: digits (at most 15) without leading zeros; null otherwise. */
export function serialOf(checkNumber: string): string | null {
  const digits = checkNumber.trim();
  if (!/^[0-9]{1,30}$/.test(digits)) return null;
  const serial = digits.replace(/^0+/, '');
  return serial === '' || serial.length > 15 ? null : serial;
}

/**
 * The check number a description names when the file has no column for it: Bank of America
 * writes "Check 363", Wells Fargo "CHECK # 1029", others "CHK 1029" or "Check No. 12". Only at
 * the start, so "CHECKCARD 0105 …" (a card purchase) and "MOBILE CHECK DEPOSIT" name none.
 */
export function checkNumberInText(text: string): string | null {
  const m = /^\s*(?:check|chk|ck)\s*(?:#|no\.?|num(?:ber)?\.?)?\s*(\d{1,15})(?!\S)/i.exec(text);
  return m?.[1] ?? null;
}

/** Text from the file as we may show it: without control or bidi characters (safe-text.ts), bounded. */
export function shown(text: string): string {
  return [...text.trim()]
    .filter((c) => unsafeCharacter(c) === null)
    .join('')
    .slice(0, SHOWN_LENGTH);
}

/** A header or a line of the file quoted in a refusal: its cells, shown, at most ten. */
export function shownCells(cells: readonly string[]): string {
  const named = cells.map(shown).filter((c) => c !== '');
  const listed = named.slice(0, 10).map((c) => `"${c}"`);
  if (named.length > 10) listed.push(`and ${named.length - 10} more`);
  return listed.length === 0 ? 'nothing' : listed.join(', ');
}

/** One row of a bank file that moved money, before it is sorted into checks and credits. */
export interface BankRow {
  line: number;
  /** The number the row carries ('' when none). */
  checkNumber: string;
  amountCents: number;
  /** Money out of the account (a check paid, a debit); false for money in. */
  out: boolean;
  date: string;
}

/** The file read, or why it cannot be (a sentence for a 422: the service answers it as one). */
export type ClearedItemsResult = { ok: true; file: ClearedItemsFile } | { ok: false; message: string };

export const refused = (message: string): ClearedItemsResult => ({ ok: false, message });

/**
 * The rows read, sorted: money out with a number may clear a check; money in with a number is a
 * credit listed apart; rows without a number are counted as skipped. `today` bounds the dates of
 * the checks (a bank does not pay a check tomorrow).
 */
export function sortRows(
  layout: BankFileLayout,
  rows: readonly BankRow[],
  otherSkipped: number,
  columns: ClearedItemsFile['columns'],
  today: string,
  /** Why no row is a check paid, a sentence without its full stop. */
  noChecks: string,
): ClearedItemsResult {
  const items: ClearedItem[] = [];
  const credits: CreditItem[] = [];
  let skippedLines = otherSkipped;
  for (const row of rows) {
    const checkNumber = shown(row.checkNumber);
    if (checkNumber === '') skippedLines += 1;
    else if (!row.out) credits.push({ line: row.line, checkNumber, amountCents: row.amountCents, date: row.date });
    else if (row.date > today)
      return refused(`Line ${row.line}: check ${checkNumber} cannot have cleared on ${row.date}, after today.`);
    else
      items.push({
        line: row.line,
        checkNumber,
        serial: serialOf(checkNumber),
        amountCents: row.amountCents,
        clearedDate: row.date,
      });
  }
  if (items.length === 0) {
    const money = credits.length === 1 ? '1 row with a number is' : `${credits.length} rows with a number are`;
    return refused(credits.length === 0 ? `${noChecks}.` : `${noChecks}; ${money} money in, which clears no check.`);
  }
  return { ok: true, file: { layout, items, credits, skippedLines, columns } };
}

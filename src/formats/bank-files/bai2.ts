// A BAI2 file (the Bank Administration Institute's Cash Management Balance Reporting
// Specifications, version 2): 01 file header, 02 group header (its as-of date is the day the items
// posted), 03 account identifier with its summaries, 16 transaction details, 88 continuations,
// 49 account trailer, 98 group trailer, 99 file trailer; fields separated by commas, each record
// ended by "/" (a 16's text runs to the end of its record). Type code 475 is "check paid": its
// customer reference number is the check number and its amount is in cents. Credits (type codes
// 100–399) carrying a number are listed apart. Every trailer's control total and record count is
// checked: a file that does not add up is refused, not half read. Written here, not taken from the
// registry (the BAI2 parsers there are little used and untested); bounds: MAX_BAI2_* in
// domain/cleared-items.ts.
import {
  MAX_BAI2_CONTINUATIONS,
  MAX_BAI2_RECORD_CHARS,
  MAX_BAI2_RECORDS,
  MAX_CLEARED_ITEMS_LINE_CHARS,
  MAX_CLEARED_ITEMS_ROWS,
} from '../../domain/cleared-items.ts';
import { isCalendarDate } from '../../domain/dates.ts';
import { type BankRow, type ClearedItemsResult, checkNumberInText, refused, shown, sortRows } from './bank-values.ts';

const CHECK_PAID = '475';

/** Whether the text is a BAI2 file: it starts with a file header record. */
export function looksLikeBai2(text: string): boolean {
  return /^\s*01,/.test(text);
}

function isText(record: string): boolean {
  for (let i = 0; i < record.length; i += 1) {
    const c = record.charCodeAt(i);
    if (c < 32 || c === 127 || c === 0xfffd) return false;
  }
  return true;
}

/** One logical record: a physical record with its 88 continuations joined on. */
interface Bai2Record {
  code: string;
  fields: string[];
  /** For a 16: everything after its fixed fields, the free text. */
  raw: string;
  line: number;
  /** Physical records it spans (itself and its continuations): what the trailers count. */
  physical: number;
}

/** The physical records joined into logical ones, or the sentence that refuses the file. */
function records(text: string): Bai2Record[] | string {
  const lines = text.split(/\r\n|\n|\r/);
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  if (lines.length > MAX_BAI2_RECORDS)
    return `The file has more than ${MAX_BAI2_RECORDS.toLocaleString('en-US')} records: split it.`;
  const out: Bai2Record[] = [];
  let continuations = 0;
  for (const [i, physical] of lines.entries()) {
    const line = i + 1;
    if (physical.length > MAX_BAI2_RECORD_CHARS)
      return `Line ${line}: a record is longer than ${MAX_BAI2_RECORD_CHARS.toLocaleString('en-US')} characters.`;
    // Control characters, and the replacement character undecodable bytes became: not a text file.
    if (!isText(physical)) return `Line ${line}: the record holds a byte that is not text; this is not a BAI2 file.`;
    const record = physical.trimEnd();
    if (record === '') return `Line ${line}: an empty line inside the file.`;
    const code = record.slice(0, 3);
    if (!/^\d\d,$/.test(code))
      return `Line ${line}: a record starts with "${shown(record.slice(0, 10))}", not a record code (01, 02, 03, 16, 88, 49, 98 or 99).`;
    if (code === '88,') {
      const last = out.at(-1);
      if (last === undefined) return `Line ${line}: a continuation (88) with no record before it.`;
      continuations += 1;
      if (continuations > MAX_BAI2_CONTINUATIONS)
        return `Line ${line}: more than ${MAX_BAI2_CONTINUATIONS} continuation records (88) in a row.`;
      const joined = `${last.raw.replace(/\/$/, '')},${record.slice(3)}`;
      if (joined.length > MAX_CLEARED_ITEMS_LINE_CHARS)
        return `Line ${line}: a record with its continuations is longer than ${MAX_CLEARED_ITEMS_LINE_CHARS.toLocaleString('en-US')} characters.`;
      last.raw = joined;
      last.physical += 1;
      continue;
    }
    continuations = 0;
    out.push({ code: code.slice(0, 2), fields: [], raw: record.slice(3), line, physical: 1 });
  }
  for (const r of out) {
    // A record ends at its "/"; only a 16's text may hold one (it is the rest of the record).
    r.fields = r.code === '16' ? r.raw.replace(/\/$/, '').split(',') : (r.raw.split('/')[0] ?? '').split(',');
  }
  return out;
}

/** A BAI2 amount: digits, in cents (an implied two decimals); signed only in 03 summaries. */
function amountOf(text: string, signed: boolean): bigint | null {
  const t = text.trim();
  if (t === '') return 0n;
  const pattern = signed ? /^[-+]?\d{1,15}$/ : /^\d{1,15}$/;
  return pattern.test(t) ? BigInt(t) : null;
}

/** The fields a funds type adds after it (S: three amounts; V: date and time; D: a count, then pairs). */
function fundsFields(fields: readonly string[], at: number): number | null {
  const type = (fields[at] ?? '').trim().toUpperCase();
  if (type === 'S') return 3;
  if (type === 'V') return 2;
  if (type === 'D') {
    const n = Number.parseInt(fields[at + 1] ?? '', 10);
    return Number.isSafeInteger(n) && n >= 0 && n <= 100 ? 1 + 2 * n : null;
  }
  return ['', '0', '1', '2', 'Z'].includes(type) ? 0 : null;
}

/** The summary amounts of an 03 record (type code, amount, item count, funds type, repeated). */
function summaryTotal(r: Bai2Record): bigint | string {
  let total = 0n;
  let at = 2;
  while (at < r.fields.length) {
    if (at === r.fields.length - 1 && (r.fields[at] ?? '').trim() === '') break;
    const amount = amountOf(r.fields[at + 1] ?? '', true);
    if (amount === null)
      return `Line ${r.line}: the summary amount "${shown(r.fields[at + 1] ?? '')}" is not an amount in cents.`;
    total += amount;
    const extra = fundsFields(r.fields, at + 3);
    if (extra === null)
      return `Line ${r.line}: the funds type "${shown(r.fields[at + 3] ?? '')}" is not one of 0, 1, 2, S, V, D or Z.`;
    at += 4 + extra;
  }
  return total;
}

/** The as-of date of a group header, YYMMDD, as YYYY-MM-DD. */
function asOfDate(text: string): string | null {
  const m = /^(\d\d)(\d\d)(\d\d)$/.exec(text.trim());
  const date = m === null ? null : `20${m[1]}-${m[2]}-${m[3]}`;
  return date !== null && isCalendarDate(date) ? date : null;
}

interface Counts {
  total: bigint;
  records: number;
}

const NAMES: Record<string, string> = {
  '01': 'file header (01)',
  '02': 'group header (02)',
  '03': 'account identifier (03)',
  '16': 'transaction detail (16)',
  '49': 'account trailer (49)',
  '98': 'group trailer (98)',
  '99': 'file trailer (99)',
};

/** A trailer's control total and record count against what was read. */
function checkTrailer(r: Bai2Record, what: string, counted: Counts, countAt: number): string | null {
  const total = amountOf(r.fields[0] ?? '', true);
  const count = Number.parseInt(r.fields[countAt] ?? '', 10);
  if (total === null || total !== counted.total)
    return `Line ${r.line}: the ${what} control total is "${shown(r.fields[0] ?? '')}" but its amounts add up to ${counted.total}.`;
  if (count !== counted.records)
    return `Line ${r.line}: the ${what} counts "${shown(r.fields[countAt] ?? '')}" records but it has ${counted.records}.`;
  return null;
}

export function readBai2(text: string, today: string): ClearedItemsResult {
  const read = records(text);
  if (typeof read === 'string') return refused(read);
  const rows: BankRow[] = [];
  let skipped = 0;
  const file: Counts = { total: 0n, records: 0 };
  let group: (Counts & { date: string; accounts: number }) | null = null;
  let account: Counts | null = null;
  let groups = 0;
  let ended = false;
  const accounts = new Set<string>();
  for (const [i, r] of read.entries()) {
    const name = NAMES[r.code];
    if (name === undefined) return refused(`Line ${r.line}: "${r.code}" is not a BAI2 record code.`);
    if (ended) return refused(`Line ${r.line}: a ${name} after the file trailer (99).`);
    if (i === 0 && r.code !== '01')
      return refused(`Line ${r.line}: the file starts with a ${name}, not a file header (01).`);
    const misplaced = (expected: string): ClearedItemsResult =>
      refused(`Line ${r.line}: a ${name} where ${expected} was expected.`);
    file.records += r.physical;
    if (group !== null) group.records += r.physical;
    if (account !== null) account.records += r.physical;
    switch (r.code) {
      case '01':
        if (i !== 0) return misplaced('a record inside the file');
        break;
      case '02': {
        if (group !== null) return misplaced('a group trailer (98) closing the group before it');
        const date = asOfDate(r.fields[3] ?? '');
        if (date === null)
          return refused(
            `Line ${r.line}: the group's as-of date "${shown(r.fields[3] ?? '')}" is not a date (YYMMDD).`,
          );
        group = { total: 0n, records: r.physical, date, accounts: 0 };
        groups += 1;
        break;
      }
      case '03': {
        if (group === null || account !== null)
          return misplaced(group === null ? 'a group header (02)' : 'an account trailer (49)');
        const total = summaryTotal(r);
        if (typeof total === 'string') return refused(total);
        account = { total, records: r.physical };
        group.accounts += 1;
        accounts.add((r.fields[0] ?? '').trim());
        break;
      }
      case '16': {
        if (account === null || group === null) return misplaced('an account identifier (03)');
        const detail = detailOf(r, group.date);
        if (typeof detail === 'string') return refused(detail);
        account.total += detail.amount;
        if (detail.row === null) skipped += 1;
        else rows.push(detail.row);
        if (rows.length > MAX_CLEARED_ITEMS_ROWS)
          return refused(`The file has more than ${MAX_CLEARED_ITEMS_ROWS.toLocaleString('en-US')} items: split it.`);
        break;
      }
      case '49': {
        if (account === null || group === null) return misplaced('an account identifier (03) before it');
        const problem = checkTrailer(r, 'account', account, 1);
        if (problem !== null) return refused(problem);
        group.total += account.total;
        account = null;
        break;
      }
      case '98': {
        if (group === null || account !== null)
          return misplaced(group === null ? 'a group header (02) before it' : 'an account trailer (49)');
        const problem = checkTrailer(r, 'group', group, 2);
        if (problem !== null) return refused(problem);
        if (Number.parseInt(r.fields[1] ?? '', 10) !== group.accounts)
          return refused(
            `Line ${r.line}: the group trailer counts "${shown(r.fields[1] ?? '')}" accounts but the group has ${group.accounts}.`,
          );
        file.total += group.total;
        group = null;
        break;
      }
      case '99': {
        if (group !== null) return misplaced('a group trailer (98)');
        const problem = checkTrailer(r, 'file', file, 2);
        if (problem !== null) return refused(problem);
        if (Number.parseInt(r.fields[1] ?? '', 10) !== groups)
          return refused(
            `Line ${r.line}: the file trailer counts "${shown(r.fields[1] ?? '')}" groups but the file has ${groups}.`,
          );
        ended = true;
        break;
      }
    }
  }
  if (!ended)
    return refused(
      `The file ends without its ${account !== null ? 'account trailer (49)' : group !== null ? 'group trailer (98)' : 'file trailer (99)'}: the file is cut short.`,
    );
  // Which account is ours is not in the file's words (our account number is sealed at rest), and
  // the numbers are not repeated back: one account's file at a time.
  if (accounts.size > 1)
    return refused(`The file reports ${accounts.size} accounts: reconcile one bank account's file at a time.`);
  return sortRows(
    'bai2',
    rows,
    skipped,
    { checkNumber: 'customer reference number', amount: 'amount', date: 'as-of date' },
    today,
    `The BAI2 file lists no checks paid: no transaction detail (16) has type code ${CHECK_PAID} ("check paid") with a check number`,
  );
}

/** A 16 record: its amount (for the control total) and the row it makes, if it names a number. */
function detailOf(r: Bai2Record, date: string): { amount: bigint; row: BankRow | null } | string {
  const type = (r.fields[0] ?? '').trim();
  if (!/^\d{3}$/.test(type)) return `Line ${r.line}: the type code "${shown(type)}" is not three digits.`;
  const amount = amountOf(r.fields[1] ?? '', false);
  if (amount === null) return `Line ${r.line}: the amount "${shown(r.fields[1] ?? '')}" is not an amount in cents.`;
  const extra = fundsFields(r.fields, 2);
  if (extra === null)
    return `Line ${r.line}: the funds type "${shown(r.fields[2] ?? '')}" is not one of 0, 1, 2, S, V, D or Z.`;
  const reference = (r.fields[4 + extra] ?? '').trim();
  const text = r.fields
    .slice(5 + extra)
    .join(',')
    .replace(/\/$/, '');
  const code = Number(type);
  const credit = code >= 100 && code < 400;
  const number =
    type === CHECK_PAID
      ? reference || (checkNumberInText(text) ?? '')
      : credit && /^\d+$/.test(reference)
        ? reference
        : '';
  if (number === '' || amount === 0n) return { amount, row: null };
  return { amount, row: { line: r.line, checkNumber: number, amountCents: Number(amount), out: !credit, date } };
}

// Reads positive pay files back, written from docs/positive-pay.md alone (the columns and the
// positions are typed in here from the doc's tables, not imported from the writer), so a test
// that parses a file checks the writer against the documented layout.
import { expect } from 'vitest';

export interface ReadRecord {
  kind: 'I' | 'V';
  accountNumber: string;
  checkNumber: string;
  /** YYYY-MM-DD */
  issueDate: string;
  amountCents: number;
  payee: string;
}

/** RFC 4180 fields: quoted fields may hold commas, doubled quotes and line breaks. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}

/** "1234.56" → 123456, refusing anything but digits, a point and exactly two decimals. */
function dollarsToCents(text: string): number {
  const match = /^([0-9]+)\.([0-9]{2})$/.exec(text);
  if (match === null) throw new Error(`amount "${text}" is not dollars with two decimals`);
  return Number(match[1]) * 100 + Number(match[2]);
}

export function readPositivePayCsv(text: string): ReadRecord[] {
  const [header, ...rows] = csvRows(text);
  // docs/positive-pay.md, "CSV": the header row, then one row per record.
  expect(header).toEqual(['account_number', 'check_number', 'issue_date', 'amount', 'payee_name', 'void_indicator']);
  return rows.map((r) => {
    expect(r).toHaveLength(6);
    const [accountNumber = '', checkNumber = '', issueDate = '', amount = '', payee = '', kind = ''] = r;
    expect(issueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    if (kind !== 'I' && kind !== 'V') throw new Error(`void indicator "${kind}"`);
    return { kind, accountNumber, checkNumber, issueDate, amountCents: dollarsToCents(amount), payee };
  });
}

/** One 1-based, inclusive position range of a fixed-width record, as the doc's table writes it. */
const at = (line: string, first: number, last: number): string => line.slice(first - 1, last);

export function readPositivePayFixed(text: string): ReadRecord[] {
  expect(text.endsWith('\r\n') || text === '').toBe(true);
  const lines = text === '' ? [] : text.slice(0, -2).split('\r\n');
  return lines.map((line) => {
    // docs/positive-pay.md, "Fixed width": 94 characters, every field at its place.
    expect(line).toHaveLength(94);
    expect(line).toMatch(/^[\x20-\x7e]+$/);
    const kind = at(line, 1, 1);
    if (kind !== 'I' && kind !== 'V') throw new Error(`record type "${kind}"`);
    for (const filler of [2, 23, 42, 61, 70, 79]) expect(at(line, filler, filler)).toBe(' ');
    const account = at(line, 3, 22);
    const serial = at(line, 24, 41);
    const amount = at(line, 43, 60);
    const date = at(line, 62, 69);
    expect(account).toMatch(/^[0-9]{20}$/);
    expect(serial).toMatch(/^[0-9]{18}$/);
    expect(amount).toMatch(/^[0-9]{18}$/);
    expect(date).toMatch(/^[0-9]{8}$/);
    expect(at(line, 71, 78)).toBe('        ');
    return {
      kind,
      accountNumber: account.replace(/^0+/, ''),
      checkNumber: serial.replace(/^0+/, ''),
      issueDate: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`,
      amountCents: Number(amount),
      payee: at(line, 80, 94).trimEnd(),
    };
  });
}

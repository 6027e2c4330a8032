import { describe, expect, it } from 'vitest';
import { progressWriter } from '../../src/cli/import.ts';
import { type CsvLimits, type CsvReadOptions, readCsv } from '../../src/formats/csv-reader.ts';
import { CellError, guessMapping, resolveMapping, sheetAmount, sheetDate } from '../../src/domain/import-columns.ts';

const LIMITS: CsvLimits = { maxColumns: 5, maxCellChars: 20, maxRecordChars: 60, maxRecords: 11 };

const problemOf = (text: string, options: CsvReadOptions = {}): string => {
  const read = readCsv(text, LIMITS, options);
  return read.ok ? 'no problem' : read.problem.message;
};

describe('the CSV reader (csv-parse, RFC 4180, with bounds)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF, LF and CR endings', () => {
    const text = 'a,b,c\r\n"1,5","say ""hi""","two\r\nlines"\n x ,,\rlast,"",end';
    const read = readCsv(text, LIMITS);
    expect(read).toEqual({
      ok: true,
      records: [
        ['a', 'b', 'c'],
        ['1,5', 'say "hi"', 'two\r\nlines'],
        [' x ', '', ''],
        ['last', '', 'end'],
      ],
      // The record after a quoted line break starts on line 4.
      lines: [1, 2, 4, 5],
    });
  });

  it('skips a byte-order mark and blank lines (a trailing one included); rows keep their own width', () => {
    expect(readCsv('\uFEFFName,City\r\nAcme\r\n\r\nGlobex,Springfield\r\n\r\n', LIMITS)).toEqual({
      ok: true,
      records: [['Name', 'City'], ['Acme'], ['Globex', 'Springfield']],
      lines: [1, 2, 4],
    });
  });

  it('refuses a stray quote, an unclosed quote and a quote not ending its field, naming the line', () => {
    expect(problemOf('a\nab"c\n')).toBe(
      'Line 2: a " inside a field that does not start with one (quote the field and double the ")',
    );
    expect(problemOf('a\n"abc\nmore\n')).toBe('Line 2: a quoted field is not closed (a " is missing)');
    expect(problemOf('a\n"x"y\n')).toBe('Line 2: a quoted field must end at a comma or the end of the line');
    // Leniently (banks' files): the quote is a character, spaces around a quoted field go.
    expect(readCsv('a\nab"c,  "x" \n', LIMITS, { lenient: true })).toEqual({
      ok: true,
      records: [['a'], ['ab"c', 'x']],
      lines: [1, 2],
    });
  });

  it('refuses past each bound, naming the line and the column where one is to blame', () => {
    expect(problemOf('a\n1,2,3,4,5\n1,2,3,4,5,6\n')).toBe(
      'Line 3, column 6: the line has 6 columns; at most 5 are taken',
    );
    expect(problemOf(`a,b\nx,${'y'.repeat(21)}\n`)).toBe('Line 2, column 2: a cell is longer than 20 characters');
    expect(problemOf(`a\n"${'y'.repeat(20)}\n${'y'.repeat(45)}"\n`)).toBe(
      'Line 2: a line is longer than 60 characters',
    );
    const rows = (n: number) => ['h', ...Array.from({ length: n }, (_, i) => String(i))].join('\n');
    expect(readCsv(rows(10), LIMITS).ok).toBe(true);
    expect(problemOf(rows(11))).toBe('Line 12: the file has more than 11 records');
  });
});

describe('sheet cells', () => {
  it('reads amounts as people write dollars, and refuses the ambiguous ones', () => {
    expect(sheetAmount('1,234.50')).toBe('1234.50');
    expect(sheetAmount('$12.00')).toBe('12.00');
    expect(sheetAmount(' USD 1,000,000 ')).toBe('1000000');
    expect(sheetAmount('12')).toBe('12');
    for (const bad of ['1.234,50', '1,23', '12,3456', '-5', '(5.00)', '$-5'])
      expect(() => sheetAmount(bad), bad).toThrow(CellError);
  });

  it('reads ISO and US dates, day-first when asked, and refuses two-digit years', () => {
    expect(sheetDate('2026-11-02', 'mdy')).toBe('2026-11-02');
    expect(sheetDate('2026-11-02T00:00:00', 'mdy')).toBe('2026-11-02');
    expect(sheetDate('3/4/2026', 'mdy')).toBe('2026-03-04');
    expect(sheetDate('3/4/2026', 'dmy')).toBe('2026-04-03');
    expect(() => sheetDate('3/4/26', 'mdy')).toThrow(CellError);
    expect(() => sheetDate('02/30/2026', 'mdy')).toThrow(
      'The issueDate field "02/30/2026" is not a date: February 2026 has 28 days.',
    );
    expect(() => sheetDate('30/02/2026', 'dmy')).toThrow('"30/02/2026" is not a date: February 2026 has 28 days.');
    expect(() => sheetDate('Nov 2', 'mdy')).toThrow(
      'The issueDate field "Nov 2" is not a date: write it as MM/DD/YYYY.',
    );
  });

  it('guesses columns from export headers; the user mapping wins and moves a field', () => {
    expect(guessMapping('checks', ['Date', 'Num', 'Name', 'Memo', 'Account', 'Split', 'Amount'])).toEqual([
      'issueDate',
      'serialNumber',
      'payee',
      'memo',
      'category',
      null,
      'amount',
    ]);
    expect(guessMapping('payees', ['*ContactName', 'EmailAddress', 'POAddressLine1', 'POCity'])).toEqual([
      'name',
      'email',
      'address1',
      'city',
    ]);
    expect(resolveMapping('checks', ['Date', 'Account', 'Split'], { Split: 'category', '0': '' })).toEqual([
      null,
      null,
      'category',
    ]);
  });
});

describe('CLI progress', () => {
  const sink = (isTTY: boolean) => {
    const written: string[] = [];
    const stream = { isTTY, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    return { stream, written };
  };
  it('draws a bar on a terminal, plain lines otherwise', () => {
    const tty = sink(true);
    const bar = progressWriter(1000, tty.stream);
    bar(500);
    bar(1000);
    expect(tty.written).toEqual([
      `\r[${'#'.repeat(15)}${'.'.repeat(15)}] 50% 500/1000 rows`,
      `\r[${'#'.repeat(30)}] 100% 1000/1000 rows`,
      '\n',
    ]);
    const plain = sink(false);
    progressWriter(1000, plain.stream)(500);
    expect(plain.written).toEqual(['imported 500/1000 rows\n']);
  });
});

import { describe, expect, it } from 'vitest';
import { progressWriter } from '../../src/cli/import.ts';
import { CsvError, parseCsv, readRecords } from '../../src/domain/csv.ts';
import { CellError, guessMapping, resolveMapping, sheetAmount, sheetDate } from '../../src/domain/import-columns.ts';

const LIMIT = { maxRecords: 10 };

describe('the CSV reader (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF, LF and CR endings', () => {
    const text = 'a,b,c\r\n"1,5","say ""hi""","two\r\nlines"\n x ,,\rlast,"",end';
    expect(readRecords(text, 10).records).toEqual([
      ['a', 'b', 'c'],
      ['1,5', 'say "hi"', 'two\r\nlines'],
      [' x ', '', ''],
      ['last', '', 'end'],
    ]);
    // The record after a quoted line break starts on line 4.
    expect(readRecords(text, 10).lines).toEqual([1, 2, 4, 5]);
  });

  it('skips a byte-order mark and blank lines (a trailing one included); pads short rows', () => {
    const table = parseCsv('\uFEFFName,City\r\nAcme\r\n\r\nGlobex,Springfield\r\n\r\n', LIMIT);
    expect(table.header).toEqual(['Name', 'City']);
    expect(table.rows).toEqual([
      ['Acme', ''],
      ['Globex', 'Springfield'],
    ]);
    expect(table.lines).toEqual([2, 4]);
  });

  it('refuses a stray quote, an unclosed quote, a long row, an empty file and one row past the limit', () => {
    const error = (text: string) => {
      try {
        parseCsv(text, LIMIT);
      } catch (e) {
        if (e instanceof CsvError) return e.message;
        throw e;
      }
      return 'no error';
    };
    expect(error('a\nab"c\n')).toBe(
      'Line 2: a " inside a field that does not start with one (quote the field and double the ")',
    );
    expect(error('a\n"abc\n')).toBe('Line 2: a quoted field is never closed (a " is missing)');
    expect(error('a\n"x"y\n')).toBe('Line 2: a quoted field must end at a comma or the end of the line');
    expect(error('a,b\n1,2,3\n')).toBe('Line 2: the row has 3 fields but the header names 2');
    expect(error('\n\n')).toBe('Line 1: the file is empty: the first line must name the columns');
    const rows = (n: number) => ['h', ...Array.from({ length: n }, (_, i) => String(i))].join('\n');
    expect(parseCsv(rows(10), LIMIT).rows).toHaveLength(10);
    expect(error(rows(11))).toBe('Line 12: the file has more than 10 rows');
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

// The bank file reader: header names from the exports cited in docs/reconciliation.md, signed and
// bracketed amounts, the date forms banks use, quoted fields, and the lines it refuses.
import { describe, expect, it } from 'vitest';
import type { ClearedItemsFile } from '../../src/domain/cleared-items.ts';
import { checkNumberInText } from '../../src/formats/bank-files/bank-values.ts';
import { parseBankAmount, parseBankDate, readClearedItems, serialOf } from '../../src/formats/cleared-items-file.ts';
import { readCsv } from '../../src/formats/csv-reader.ts';

const TODAY = '2026-11-25';

/** The file read, or the test fails with why it was refused. */
function read(text: string, fallbackDate: string, today: string): ClearedItemsFile {
  const result = readClearedItems(text, fallbackDate, today);
  if (!result.ok) throw new Error(result.message);
  return result.file;
}

describe('cleared-items file', () => {
  it.each([
    ['Check Number,Amount,Date Paid', 'Check Number', 'Amount', 'Date Paid'],
    ['Serial Number,Paid Amount,Paid Date', 'Serial Number', 'Paid Amount', 'Paid Date'],
    ['Check #,Posted Date,Amount', 'Check #', 'Amount', 'Posted Date'],
    // "Check Date" is the day the check was written, not paid: not a cleared date.
    ['Check No,Check Date,Check Amount', 'Check No', 'Check Amount', null],
    ['Account,ChkRef,Debit,Credit,Balance', 'ChkRef', 'Debit', null],
    ['Date,Description,Check or Slip #,Amount', 'Check or Slip #', 'Amount', 'Date'],
  ])('recognises the header %s', (header, number, amount, date) => {
    const names = header.split(',');
    const value = (name: string): string =>
      name === number ? '0101' : name === amount ? '12.34' : name === date ? '2026-11-20' : 'x';
    const file = read(`${header}\n${names.map(value).join(',')}\n`, '2026-11-01', TODAY);
    expect(file.columns).toEqual({ checkNumber: number, amount, date });
    expect(file.items).toEqual([
      {
        line: 2,
        checkNumber: '0101',
        serial: '101',
        amountCents: 1234,
        clearedDate: date === null ? '2026-11-01' : '2026-11-20',
      },
    ]);
  });

  it('reads the columns it recognises, whatever their order, and skips rows without a check number', () => {
    const text =
      '\uFEFFBank report\r\nDate Paid,Description,"Check #",Amount\r\n11/20/2026,"CHECK, PAID",00123,"($1,234.50)"\r\n11/21/2026,DEPOSIT,,500.00\r\n20261122,CHECK,124,-7.05\r\n';
    const file = read(text, TODAY, TODAY);
    expect(file.columns).toEqual({ checkNumber: 'Check #', amount: 'Amount', date: 'Date Paid' });
    expect(file.skippedLines).toBe(1);
    expect(file.items).toEqual([
      { line: 3, checkNumber: '00123', serial: '123', amountCents: 123_450, clearedDate: '2026-11-20' },
      { line: 5, checkNumber: '124', serial: '124', amountCents: 705, clearedDate: '2026-11-22' },
    ]);
  });

  it('parses amounts and dates as banks write them, and nothing else', () => {
    expect(['1234.56', '$1,234.56', '-1234.56', '(1,234.56)', '1234.56-', ' 1234.56 '].map(parseBankAmount)).toEqual(
      Array(6).fill(123_456),
    );
    expect(['abc', '', '1.234', '0', '1e3', '$'].map(parseBankAmount)).toEqual(Array(6).fill(null));
    expect(['2026-11-05', '2026/11/5', '20261105', '11/05/2026', '11/5/26', '11-05-2026'].map(parseBankDate)).toEqual(
      Array(6).fill('2026-11-05'),
    );
    expect(['2026-02-30', '13/01/2026', 'Nov 5', ''].map(parseBankDate)).toEqual(Array(4).fill(null));
    expect([serialOf('00042'), serialOf('ACH'), serialOf('0'), serialOf('1234567890123456')]).toEqual([
      '42',
      null,
      null,
      null,
    ]);
  });

  it('keeps quoted commas, quotes and line breaks inside one field', () => {
    const limits = { maxColumns: 10, maxCellChars: 100, maxRecordChars: 1000, maxRecords: 10 };
    expect(readCsv('a,"b,""c""\nd",e\n1,2,3', limits, { lenient: true })).toEqual({
      ok: true,
      records: [
        ['a', 'b,"c"\nd', 'e'],
        ['1', '2', '3'],
      ],
      lines: [1, 3],
    });
  });

  it('refuses a file it cannot read, naming the line', () => {
    expect(() => read('Date,Amount\n2026-01-01,1\n', TODAY, TODAY)).toThrow(
      'Line 1 names an amount column but no check number column (such as "Check Number" or "Check #") and no description that could name the check ("Check 363"); it holds: "Date", "Amount".',
    );
    expect(() => read('Check Number,Amount\n1,x\u0000y\n', TODAY, TODAY)).toThrow(
      'Line 2: the amount "xy" of check 1 is not an amount.',
    );
    expect(() => read('Check Number,Amount,Paid Date\n1,1,2026-11-26\n', TODAY, TODAY)).toThrow(/after today/);
    expect(() => read('Check Number,Amount\n"1,1\n', TODAY, TODAY)).toThrow(
      'Line 2: a quoted field is not closed (a " is missing).',
    );
    // The refusal is data (a worker thread can post it back), not an exception.
    expect(readClearedItems(`Check Number,Amount\n1,${'9'.repeat(2000)}\n`, TODAY, TODAY)).toEqual({
      ok: false,
      message: 'Line 2, column 2: a cell is longer than 1,024 characters.',
    });
  });

  it('only money out clears: in a statement a positive row is a credit, even one carrying a check number', () => {
    // A running balance marks a statement: its positive row with a check number is money in.
    const balance = read(
      'Date,Description,Amount,Balance,Check Number\n2026-11-02,CHECK,-150.00,900.00,363\n2026-11-04,REVERSAL,42.00,942.00,366\n',
      TODAY,
      TODAY,
    );
    expect([balance.items.map((i) => i.checkNumber), balance.credits.map((c) => c.checkNumber)]).toEqual([
      ['363'],
      ['366'],
    ]);
    // So does any amount written negative.
    const statement = read(
      'Date,Check Number,Amount\n2026-11-02,363,-150.00\n2026-11-03,5501,18250.00\n',
      TODAY,
      TODAY,
    );
    expect(statement.items.map((i) => i.checkNumber)).toEqual(['363']);
    expect(statement.credits).toEqual([{ line: 3, checkNumber: '5501', amountCents: 1_825_000, date: '2026-11-03' }]);
    // A paid-items file (no balance, nothing negative) lists checks paid: every row is money out.
    expect(read('Check Number,Amount\n363,150.00\n364,25.00\n', TODAY, TODAY).items).toHaveLength(2);
    // Debit and credit columns say it themselves; a 0.00 in the other column is no amount.
    const columns = read(
      'Date,Check Number,Debit,Credit\n2026-11-02,363,150.00,0.00\n2026-11-03,366,0.00,42.00\n',
      TODAY,
      TODAY,
    );
    expect([
      columns.layout,
      columns.items.map((i) => i.checkNumber),
      columns.credits.map((c) => c.checkNumber),
    ]).toEqual(['csv-debit-credit', ['363'], ['366']]);
    expect(() => read('Date,Check Number,Amount,Balance\n2026-11-03,5501,18250.00,1.00\n', TODAY, TODAY)).toThrow(
      'The file lists no checks paid: no row has a check number in the "Check Number" column. Its header (line 1) holds: "Date", "Check Number", "Amount", "Balance"; 1 row with a number is money in, which clears no check.',
    );
  });

  it('finds the check number in a description only where banks write it', () => {
    expect(
      ['Check 363', 'CHECK # 1029', 'CHECK 1029', 'Chk #12', 'Check No. 77', 'CK 5'].map(checkNumberInText),
    ).toEqual(['363', '1029', '1029', '12', '77', '5']);
    expect(
      ['CHECKCARD 0105 AMAZON', 'MOBILE CHECK DEPOSIT 12', 'DEPOSIT CHECK 5', 'Check 12A', 'Checking transfer 4'].map(
        checkNumberInText,
      ),
    ).toEqual([null, null, null, null, null]);
  });

  it('refuses a line that breaks the shape of a headerless download, naming it and what it holds', () => {
    expect(() =>
      read('"11/02/2026","-150.00","*","363","CHECK # 363"\n"11/03/2026","oops","*","",""\n', TODAY, TODAY),
    ).toThrow(
      'Line 2 is not a line of a Wells Fargo download (date, amount, "*", check number, description), as line 1 is; it holds: "11/03/2026", "oops", "*".',
    );
    expect(() => read('Posted,What,How much\n1,2,3\n', TODAY, TODAY)).toThrow(
      'and it is not a Wells Fargo download without a header (date, amount, "*", check number, description). Its first line holds: "Posted", "What", "How much".',
    );
  });
});

// The sources banks' sheets ask for beyond a check's own values: the file's date (any record), a
// void dated the day the file is written, the sum of the check numbers (a trailer's hash total),
// and the payee over two fields. Expected bytes are typed in by hand from the field lists below,
// and the Bank of America shape from the sample values its sheet prints (as Storis' help page
// shows it: header, detail, `1EOF` trailer).
import { describe, expect, it } from 'vitest';
import type { PositivePayRecord } from '../../src/domain/positive-pay.ts';
import { fieldLines, parseFieldLines } from '../../src/formats/positive-pay-layouts/field-lines.ts';
import type { LayoutField, PositivePayLayout } from '../../src/formats/positive-pay-layouts/layout.ts';
import { layoutProblems } from '../../src/formats/positive-pay-layouts/validate.ts';
import { splitPayee, writePositivePay } from '../../src/formats/positive-pay-layouts/writer.ts';

const issue: PositivePayRecord = {
  kind: 'I',
  checkId: 'c1',
  serialNumber: '1001',
  issueDate: '2026-03-15',
  amountCents: 123_456,
  payeeName: 'Smart, James & Co',
};
const voided: PositivePayRecord = {
  kind: 'V',
  checkId: 'c2',
  serialNumber: '0998',
  issueDate: '2026-02-27',
  amountCents: 500,
  payeeName: 'Northwestern Mutual Life',
};

function fixed(parts: {
  header?: LayoutField[];
  detail: LayoutField[];
  trailer?: LayoutField[];
  codes?: { issue: string; void: string };
}): PositivePayLayout {
  return {
    name: 'test',
    title: 'test',
    record: { kind: 'fixed' },
    codes: parts.codes ?? { issue: 'I', void: 'V' },
    ...(parts.header === undefined ? {} : { header: parts.header }),
    detail: parts.detail,
    ...(parts.trailer === undefined ? {} : { trailer: parts.trailer }),
    lineEnding: '\n',
    text: 'asciiUpper',
    extension: 'txt',
    contentType: 'text/plain; charset=us-ascii',
  };
}

const lines = (text: string) => parseFieldLines(text).fields;

describe('the file date', () => {
  const layout = fixed({
    header: lines('literal:"H" 1; fileDate:YYYYMMDD 8'),
    detail: lines('code 1; accountNumber 4; checkNumber 4; amount:cents 6; issueDate:MMDDYY 6; fileDate:MM/DD/YY 8'),
    trailer: lines('literal:"T" 1; fileDate:YYMMDD 6; recordCount 2'),
  });

  it('is written in header, detail and trailer, each in its own format', () => {
    expect(layoutProblems(layout)).toEqual([]);
    expect(writePositivePay(layout, { accountNumber: '77' }, [issue, voided], { fileDate: '2026-03-18' })).toBe(
      ['H20260318', 'I0077100112345603152603/18/26', 'V0077099800050002272603/18/26', 'T26031802', ''].join('\n'),
    );
  });

  it('a writer not told the day refuses, rather than writing some other day', () => {
    expect(() => writePositivePay(layout, { accountNumber: '77' }, [issue])).toThrow(TypeError);
  });
});

describe('issueOrFileDate: a void dated the day the file is written', () => {
  it('writes the issue date on an issue and the file date on a void, and dates the check alone', () => {
    const layout = fixed({
      detail: lines('code 1; accountNumber 4; checkNumber 4; amount:cents 6; issueOrFileDate:MMDDYYYY 8'),
    });
    expect(layoutProblems(layout)).toEqual([]);
    expect(writePositivePay(layout, { accountNumber: '77' }, [issue, voided], { fileDate: '2026-03-18' })).toBe(
      ['I0077100112345603152026', 'V0077099800050003182026', ''].join('\n'),
    );
  });
});

describe('checkNumberTotal: the sum of the check numbers', () => {
  it('Bank of America as Storis shows it: the sheet’s own sample values, byte for byte', () => {
    // Header 1-8 bank id (a literal the bank assigns), 9-18 account, 19-26 the processing date;
    // detail 1-10 check, 11-20 amount, 21-30 account, 31-36 MMDDYY, a space, 38-80 payee; footer
    // "1EOF", a space, the count (5), 20 spaces, the check-number sum (10), the amount sum (10).
    const layout = fixed({
      codes: { issue: '', void: '' },
      header: lines('literal:"DRS35500" 8; accountNumber 10; fileDate:YYYYMMDD 8'),
      detail: lines('checkNumber 10; amount:cents 10; accountNumber 10; issueDate:MMDDYY 6; filler 1; payee 43'),
      trailer: lines('literal:"1EOF" 4; filler 1; recordCount 5; filler 20; checkNumberTotal 10; totalAmount:cents 10'),
    });
    expect(layoutProblems(layout)).toEqual([]);
    const check = (serialNumber: string, amountCents: number): PositivePayRecord => ({
      kind: 'I',
      checkId: serialNumber,
      serialNumber,
      issueDate: '2009-10-06',
      amountCents,
      payeeName: 'AC Pacific Corporation',
    });
    const text = writePositivePay(
      layout,
      { accountNumber: '1463500422' },
      [check('110870', 152000), check('110871', 14819)],
      {
        fileDate: '2009-10-06',
      },
    );
    const payee = 'AC PACIFIC CORPORATION'.padEnd(43, ' ');
    expect(text).toBe(
      [
        'DRS35500146350042220091006',
        ['0000110870', '0000152000', '1463500422', '100609', ' ', payee].join(''),
        ['0000110871', '0000014819', '1463500422', '100609', ' ', payee].join(''),
        `1EOF 00002${' '.repeat(20)}00002217410000166819`,
        '',
      ].join('\n'),
    );
  });

  const trailer = (width: number) =>
    fixed({
      detail: lines('code 1; accountNumber 2; checkNumber 15; amount:cents 6; issueDate:MMDDYY 6'),
      trailer: lines(`checkNumberTotal ${width}`),
    });

  it('adds voids too, reads leading zeros as the number, and stays exact past 2^53', () => {
    // 1001 + 998 = 1999.
    expect(writePositivePay(trailer(6), { accountNumber: '7' }, [issue, voided]).split('\n')[2]).toBe('001999');
    const big = { ...issue, serialNumber: '999999999999999' };
    // 999,999,999,999,999 × 3 = 2,999,999,999,999,997: past Number's exact integers.
    expect(writePositivePay(trailer(16), { accountNumber: '7' }, [big, big, big]).split('\n')[3]).toBe(
      '2999999999999997',
    );
  });

  it('a sum too long for its field is refused, never cut', () => {
    expect(() => writePositivePay(trailer(3), { accountNumber: '7' }, [issue, voided])).toThrow(
      'the check number total does not fit 3 digits',
    );
  });
});

describe('the payee over two fields', () => {
  it('breaks at the last space that leaves line 1 within its width, or cuts a word longer than it', () => {
    expect(splitPayee('Mary Moore', 10)).toEqual(['Mary Moore', '']);
    // "Smart, James" is 12: the space after "Smart," is the last one within 10.
    expect(splitPayee('Smart, James & Co', 10)).toEqual(['Smart,', 'James & Co']);
    // A space right after the 11 characters: line 1 is full and whole.
    expect(splitPayee('ABCDE FGHIJ KLM', 11)).toEqual(['ABCDE FGHIJ', 'KLM']);
    // No space within 10: the word is cut.
    expect(splitPayee('Northwestern Mutual Life', 10)).toEqual(['Northweste', 'rn Mutual Life']);
    expect(splitPayee('  Padded  Name  ', 8)).toEqual(['Padded', 'Name']);
  });

  it('fixed width: line 1 padded, line 2 the rest cut to its own width', () => {
    const layout = fixed({
      detail: lines(
        'code 1; accountNumber 2; checkNumber 4; amount:cents 6; issueDate:MMDDYY 6; payeeLine1 10; payeeLine2 8',
      ),
    });
    expect(layoutProblems(layout)).toEqual([]);
    expect(
      writePositivePay(layout, { accountNumber: '7' }, [issue, voided, { ...issue, payeeName: 'Mary Moore' }]),
    ).toBe(
      [
        'I071001123456031526SMART,    JAMES & ',
        'V070998000500022726NORTHWESTERN MUTUA',
        'I071001123456031526MARY MOORE        ',
        '',
      ].join('\n'),
    );
  });

  it('delimited: line 2 without a width keeps all the rest', () => {
    const layout: PositivePayLayout = {
      ...fixed({
        detail: lines(
          'code; accountNumber; checkNumber; amount:decimal; issueDate:MM/DD/YYYY; payeeLine1 12; payeeLine2',
        ),
      }),
      record: { kind: 'delimited', delimiter: ',' },
      text: 'asIs',
    };
    expect(layoutProblems(layout)).toEqual([]);
    expect(writePositivePay(layout, { accountNumber: '7' }, [voided])).toBe(
      'V,7,0998,5.00,02/27/2026,Northwestern,Mutual Life\n',
    );
  });
});

describe('the new sources in a typed-in layout', () => {
  it('read from the field line and written back the same', () => {
    const text =
      'fileDate:YYYYMMDD 8; issueOrFileDate:MMDDYY 6; payeeLine1 25; payeeLine2 25 left; checkNumberTotal 10';
    const parsed = parseFieldLines(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.fields).toEqual([
      { source: { kind: 'fileDate', format: 'YYYYMMDD' }, width: 8 },
      { source: { kind: 'issueOrFileDate', format: 'MMDDYY' }, width: 6 },
      { source: { kind: 'payeeLine1' }, width: 25 },
      { source: { kind: 'payeeLine2' }, width: 25, align: 'left' },
      { source: { kind: 'checkNumberTotal' }, width: 10 },
    ]);
    expect(fieldLines(parsed.fields)).toBe(text);
  });

  it('a date source without a format is named with the formats it takes', () => {
    const parsed = parseFieldLines('fileDate 8; issueOrFileDate:DDMMYY 6');
    expect(parsed.problems).toEqual([
      {
        line: 1,
        message:
          'fileDate needs a format, one of fileDate:YYYY-MM-DD, fileDate:YYYYMMDD, fileDate:MMDDYYYY, fileDate:MMDDYY, fileDate:YYMMDD, fileDate:MM/DD/YYYY, fileDate:MM/DD/YY',
      },
      {
        line: 2,
        message:
          'issueOrFileDate needs a format, one of issueOrFileDate:YYYY-MM-DD, issueOrFileDate:YYYYMMDD, issueOrFileDate:MMDDYYYY, issueOrFileDate:MMDDYY, issueOrFileDate:YYMMDD, issueOrFileDate:MM/DD/YYYY, issueOrFileDate:MM/DD/YY',
      },
    ]);
  });

  it('each misplaced or incomplete one is named with its place', () => {
    const bad: PositivePayLayout = {
      ...fixed({
        header: [
          { source: { kind: 'issueOrFileDate', format: 'MMDDYY' } },
          { source: { kind: 'payeeLine1' }, width: 10 },
          { source: { kind: 'fileDate', format: 'DD.MM.YY' as 'MMDDYY' } },
        ],
        detail: [
          { source: { kind: 'code' } },
          { source: { kind: 'accountNumber' } },
          { source: { kind: 'checkNumber' } },
          { source: { kind: 'amount', format: 'cents' } },
          { source: { kind: 'issueDate', format: 'MMDDYY' } },
          { source: { kind: 'payeeLine2' } },
          { source: { kind: 'payeeLine1' } },
          { source: { kind: 'checkNumberTotal' } },
        ],
      }),
      record: { kind: 'delimited', delimiter: ',' },
    };
    expect(layoutProblems(bad)).toEqual([
      { path: 'detail[5]', message: 'payeeLine2 needs a payeeLine1 field before it in the record' },
      { path: 'detail[6]', message: 'payeeLine1 needs a width: the payee is split after it' },
      { path: 'detail[7]', message: 'record counts and totals belong in a header or trailer' },
      { path: 'header[0]', message: 'check values belong in the detail record' },
      { path: 'header[1]', message: 'check values belong in the detail record' },
      {
        path: 'header[2]',
        message: 'date format must be one of YYYY-MM-DD, YYYYMMDD, MMDDYYYY, MMDDYY, YYMMDD, MM/DD/YYYY, MM/DD/YY',
      },
    ]);
  });
});

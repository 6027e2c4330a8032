// The layout description and its one writer: the presets against their bank's published layout
// (expected text typed in by hand, test/fixtures/positive-pay/README.md), every date and amount
// format, header and trailer totals, other delimiters, and the checks on a typed-in layout.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PositivePayRecord } from '../../src/domain/positive-pay.ts';
import { CHASE_ARP } from '../../src/formats/positive-pay-layouts/chase-arp.ts';
import type { PositivePayLayout } from '../../src/formats/positive-pay-layouts/layout.ts';
import { PRESETS } from '../../src/formats/positive-pay-layouts/presets.ts';
import { layoutProblems } from '../../src/formats/positive-pay-layouts/validate.ts';
import { formatDate, writePositivePay } from '../../src/formats/positive-pay-layouts/writer.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/positive-pay/${name}`, import.meta.url), 'utf8');

const issue: PositivePayRecord = {
  kind: 'I',
  checkId: 'c1',
  serialNumber: '1001',
  issueDate: '2026-03-15',
  amountCents: 123_456,
  payeeName: 'Acme Supply Co.',
};
const voided: PositivePayRecord = {
  kind: 'V',
  checkId: 'c2',
  serialNumber: '1002',
  issueDate: '2026-03-16',
  amountCents: 0,
  payeeName: "O'Brien & Sons",
};

describe('presets', () => {
  it('Chase ARP writes the records built by hand from the spec, byte for byte', () => {
    expect(writePositivePay(CHASE_ARP, { accountNumber: '12345678901' }, [issue, voided])).toBe(
      fixture('chase-arp.txt'),
    );
  });

  it('every preset passes the checks a typed-in layout must pass, and has a unique name', () => {
    for (const preset of PRESETS) expect(layoutProblems(preset), preset.name).toEqual([]);
    expect(new Set(PRESETS.map((p) => p.name)).size).toBe(PRESETS.length);
  });
});

describe('the writer', () => {
  it('writes every date format from the issue date', () => {
    expect(
      (['YYYY-MM-DD', 'YYYYMMDD', 'MMDDYYYY', 'MMDDYY', 'YYMMDD', 'MM/DD/YYYY', 'MM/DD/YY'] as const).map((f) =>
        formatDate('2026-03-05', f),
      ),
    ).toEqual(['2026-03-05', '20260305', '03052026', '030526', '260305', '03/05/2026', '03/05/26']);
  });

  const withTotals: PositivePayLayout = {
    name: 'test-fixed',
    title: 'fixed with header and trailer',
    record: { kind: 'fixed' },
    codes: { issue: '320', void: '370' },
    header: [
      { source: { kind: 'literal', text: '*03' }, width: 3 },
      { source: { kind: 'accountNumber' }, width: 15 },
    ],
    detail: [
      { source: { kind: 'checkNumber' }, width: 10 },
      { source: { kind: 'issueDate', format: 'MMDDYY' }, width: 6 },
      { source: { kind: 'accountNumber' }, width: 12 },
      { source: { kind: 'code' }, width: 3 },
      { source: { kind: 'amount', format: 'decimal' }, width: 12, pad: ' ' },
      { source: { kind: 'payee' }, width: 12 },
    ],
    trailer: [
      { source: { kind: 'literal', text: '&' }, width: 2 },
      { source: { kind: 'recordCount' }, width: 5 },
      { source: { kind: 'filler' }, width: 1 },
      { source: { kind: 'totalAmount', format: 'cents' }, width: 10 },
    ],
    lineEnding: '\n',
    text: 'asciiUpper',
    extension: 'txt',
    contentType: 'text/plain; charset=us-ascii',
  };

  it('fixed width: header, details, and a trailer with the count and the total of every record', () => {
    const text = writePositivePay(withTotals, { accountNumber: '9610123456' }, [issue, voided]);
    expect(text).toBe(
      [
        '*03000009610123456',
        '0000001001031526009610123456320     1234.56ACME SUPPLY ',
        "0000001002031626009610123456370        0.00O'BRIEN & SO",
        '& 00002 0000123456',
        '',
      ].join('\n'),
    );
  });

  it('refuses a number that does not fit its width instead of cutting it', () => {
    expect(() => writePositivePay(withTotals, { accountNumber: '1234567890123' }, [issue])).toThrow(
      'the account number does not fit 12 digits',
    );
    expect(() =>
      writePositivePay(withTotals, { accountNumber: '1' }, [{ ...issue, serialNumber: '12345678901' }]),
    ).toThrow('the check number does not fit 10 digits');
    expect(() => writePositivePay(withTotals, { accountNumber: '1' }, [{ ...issue, amountCents: -5 }])).toThrow(
      'whole, non-negative cents',
    );
  });

  it('delimited with a pipe: quotes a value holding the delimiter and writes formula-looking payees as text', () => {
    const piped: PositivePayLayout = {
      name: 'test-pipe',
      title: 'pipe',
      record: { kind: 'delimited', delimiter: '|' },
      codes: { issue: 'I', void: 'C' },
      detail: [
        { source: { kind: 'code' } },
        { source: { kind: 'accountNumber' } },
        { source: { kind: 'checkNumber' } },
        { source: { kind: 'issueDate', format: 'MM/DD/YYYY' } },
        { source: { kind: 'amount', format: 'decimal' } },
        { source: { kind: 'payee' }, width: 40 },
      ],
      lineEnding: '\r\n',
      text: 'asIs',
      extension: 'txt',
      contentType: 'text/plain; charset=utf-8',
    };
    const text = writePositivePay(piped, { accountNumber: '555' }, [
      { ...issue, payeeName: 'A|B Ñandú' },
      { ...voided, payeeName: '=HYPERLINK("http://evil.example")' },
    ]);
    expect(text).toBe(
      'I|555|1001|03/15/2026|1234.56|"A|B Ñandú"\r\nC|555|1002|03/16/2026|0.00|"\'=HYPERLINK(""http://evil.example"")"\r\n',
    );
  });
});

describe('checks on a typed-in layout', () => {
  it('names each problem and where it is', () => {
    const bad: PositivePayLayout = {
      name: 'bad',
      title: 'bad',
      record: { kind: 'fixed' },
      codes: { issue: 'X', void: 'X' },
      detail: [
        { source: { kind: 'checkNumber' } },
        { source: { kind: 'amount', format: 'cents' }, width: 0 },
        { source: { kind: 'literal', text: 'TOO LONG' }, width: 3 },
        { source: { kind: 'recordCount' }, width: 5 },
        { source: { kind: 'payee' }, width: 10, pad: '0' },
      ],
      trailer: [{ source: { kind: 'payee' }, width: 5 }],
      lineEnding: '\r\n',
      text: 'asciiUpper',
      extension: 'txt',
      contentType: 'text/plain',
    };
    expect(layoutProblems(bad)).toEqual([
      { path: 'codes', message: 'issue and void codes must differ' },
      { path: 'detail[0]', message: 'every field of a fixed-width record needs a width' },
      { path: 'detail[1]', message: 'width must be a whole number from 1 to 200' },
      { path: 'detail[2]', message: 'literal text is longer than the field' },
      { path: 'detail[3]', message: 'record counts and totals belong in a header or trailer' },
      { path: 'detail[4]', message: 'only numbers may be zero-filled' },
      { path: 'trailer[0]', message: 'check values belong in the detail record' },
      { path: 'detail', message: 'needs a accountNumber field' },
      { path: 'detail', message: 'needs a issueDate field' },
    ]);
  });
});

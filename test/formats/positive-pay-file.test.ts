// The two layouts at their edges, read back with the reader written from docs/positive-pay.md.
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_CENTS } from '../../src/domain/money.ts';
import { daysInRange, type PositivePayRecord } from '../../src/domain/positive-pay.ts';
import { positivePayCsv, positivePayFixed } from '../../src/formats/positive-pay-file.ts';
import { readPositivePayCsv, readPositivePayFixed } from '../support/positive-pay-reader.ts';

const records: PositivePayRecord[] = [
  // The widest amount a check may carry, a check number with leading zeros, a long payee.
  {
    kind: 'I',
    checkId: 'a',
    serialNumber: '000123',
    issueDate: '2026-02-28',
    amountCents: MAX_AMOUNT_CENTS,
    payeeName: 'A payee name far longer than fifteen',
  },
  // No amount (noAmount), a payee with a line break, a quote, a comma and letters outside ASCII.
  {
    kind: 'V',
    checkId: 'b',
    serialNumber: '999999999999999',
    issueDate: '2024-02-29',
    amountCents: 0,
    payeeName: 'Ñandú "Co",\r\nSecond line',
  },
  { kind: 'I', checkId: 'c', serialNumber: '1', issueDate: '2026-12-31', amountCents: 1, payeeName: '' },
];

describe('positive pay layouts', () => {
  it('CSV: amounts in dollars with two decimals, fields quoted as RFC 4180 says', () => {
    const read = readPositivePayCsv(positivePayCsv('00012345678', records));
    expect(read).toEqual([
      {
        kind: 'I',
        accountNumber: '00012345678',
        checkNumber: '000123',
        issueDate: '2026-02-28',
        amountCents: 9_999_999_999,
        payee: 'A payee name far longer than fifteen',
      },
      {
        kind: 'V',
        accountNumber: '00012345678',
        checkNumber: '999999999999999',
        issueDate: '2024-02-29',
        amountCents: 0,
        payee: 'Ñandú "Co",\r\nSecond line',
      },
      { kind: 'I', accountNumber: '00012345678', checkNumber: '1', issueDate: '2026-12-31', amountCents: 1, payee: '' },
    ]);
  });

  it('fixed width: zero-filled digits, YYYYMMDD, ASCII payee cut to 15', () => {
    const text = positivePayFixed('12345678901234567', records);
    const read = readPositivePayFixed(text);
    expect(read.map((r) => [r.kind, r.accountNumber, r.checkNumber, r.issueDate, r.amountCents, r.payee])).toEqual([
      ['I', '12345678901234567', '123', '2026-02-28', 9_999_999_999, 'A PAYEE NAME FA'],
      ['V', '12345678901234567', '999999999999999', '2024-02-29', 0, 'NANDU "CO",  SE'],
      ['I', '12345678901234567', '1', '2026-12-31', 1, ''],
    ]);
    expect(text.split('\r\n')[0]).toBe(
      'I 00012345678901234567 000000000000000123 000000009999999999 20260228          A PAYEE NAME FA',
    );
  });

  it('counts the days of a range with both ends', () => {
    expect(daysInRange('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysInRange('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysInRange('2026-03-01', '2026-03-31')).toBe(31);
  });
});

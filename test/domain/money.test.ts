import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  centsToDecimalString,
  centsToNumber,
  formatCents,
  MAX_AMOUNT_CENTS,
  parseAmountToCents,
} from '../../src/domain/money.ts';

describe('parseAmountToCents', () => {
  it('reads numbers and numeric strings exactly', () => {
    expect(parseAmountToCents(1234.56)).toEqual({ cents: 123456 });
    expect(parseAmountToCents('1234.5')).toEqual({ cents: 123450 });
    expect(parseAmountToCents('0012.00')).toEqual({ cents: 1200 });
    expect(parseAmountToCents(0.1)).toEqual({ cents: 10 });
    expect(parseAmountToCents('1.2e2')).toEqual({ cents: 12000 });
    expect(parseAmountToCents('125e-2')).toEqual({ cents: 125 });
    expect(parseAmountToCents('1234.5600000')).toEqual({ cents: 123456 });
    expect(parseAmountToCents('99999999.99')).toEqual({ cents: MAX_AMOUNT_CENTS });
  });

  it('refuses instead of rounding', () => {
    expect(parseAmountToCents('1.005')).toEqual({ problem: 'precision' });
    expect(parseAmountToCents(0.1 + 0.2)).toEqual({ problem: 'precision' });
    expect(parseAmountToCents('1.0000000000000000001')).toEqual({ problem: 'precision' });
    expect(parseAmountToCents('1e-400')).toEqual({ problem: 'precision' });
    expect(parseAmountToCents('0')).toEqual({ problem: 'positive' });
    expect(parseAmountToCents('-3')).toEqual({ problem: 'positive' });
    expect(parseAmountToCents('100000000')).toEqual({ problem: 'max' });
    expect(parseAmountToCents('1e400')).toEqual({ problem: 'max' });
    expect(parseAmountToCents('12abc')).toEqual({ problem: 'format' });
    expect(parseAmountToCents(Number.NaN)).toEqual({ problem: 'format' });
  });

  it('round-trips every amount through both wire forms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }), (cents) => {
        expect(parseAmountToCents(centsToDecimalString(cents))).toEqual({ cents });
        expect(parseAmountToCents(centsToNumber(cents))).toEqual({ cents });
      }),
      { numRuns: 5000 },
    );
  });
});

describe('formatCents', () => {
  it('writes amounts as people read them: thousands separated by commas, two decimals, no "$"', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(100)).toBe('1.00');
    expect(formatCents(123456)).toBe('1,234.56');
    expect(formatCents(100000000)).toBe('1,000,000.00');
    expect(formatCents(9_999_999_999)).toBe('99,999,999.99');
  });

  it('is the decimal string with commas every three digits of the whole part', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (cents) => {
        const formatted = formatCents(cents);
        expect(formatted.replaceAll(',', '')).toBe(centsToDecimalString(cents));
        expect(formatted).toMatch(/^(0|[1-9]\d{0,2}(,\d{3})*)\.\d{2}$/);
      }),
      { numRuns: 5000 },
    );
  });
});

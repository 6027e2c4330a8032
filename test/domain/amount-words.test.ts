import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toCardinal } from 'n2words/en-US';
import { amountInWords, dollarsInWords } from '../../src/domain/amount-words.ts';
import { titleCase } from '../support/title-case.ts';

// n2words is an independent converter ("one thousand two hundred thirty-four"): Title-casing each
// word of its output must give exactly our dollars part.
describe('amountInWords', () => {
  it('spells the examples of the API decisions', () => {
    expect(amountInWords(123456)).toBe('One Thousand Two Hundred Thirty-Four and 56/100');
    expect(amountInWords(50)).toBe('Zero and 50/100');
    expect(amountInWords(1)).toBe('Zero and 01/100');
    expect(amountInWords(10000)).toBe('One Hundred and 00/100');
    expect(amountInWords(9_999_999_999)).toBe(
      'Ninety-Nine Million Nine Hundred Ninety-Nine Thousand Nine Hundred Ninety-Nine and 99/100',
    );
    expect(amountInWords(1_000_000_001_00)).toBe('One Billion One and 00/100');
  });

  it('agrees with n2words for every cent value from 0.01 to 99,999,999.99', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), (cents) => {
        const dollars = Math.floor(cents / 100);
        const expected = `${titleCase(toCardinal(dollars))} and ${String(cents % 100).padStart(2, '0')}/100`;
        expect(amountInWords(cents)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses what is not a whole number of cents', () => {
    expect(() => amountInWords(1.5)).toThrow(RangeError);
    expect(() => amountInWords(-1)).toThrow(RangeError);
    expect(() => dollarsInWords(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });
});

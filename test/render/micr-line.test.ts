// Layout of the MICR line against ANSI X9.13 placement (docs/e13b.md). Expected positions are
// computed here from the standard's numbers, not from the module's constants.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { E13B_GLYPHS } from '../../src/render/e13b-glyphs.ts';
import { formatMicrLine, layoutMicrLine, type PositionedMicrChar } from '../../src/render/micr-line.ts';
import { RenderInputError } from '../../src/render/render-error.ts';

const IN = 72;
const CHECK_WIDTH = 8.5 * IN;
const CHECK_HEIGHT = 3.5 * IN;
const UNIT = 0.013 * IN;

/** Right boundary of position p: 5/16 in from the right edge for p = 1, then 1/8 in per position. */
function expectedRight(position: number): number {
  return CHECK_WIDTH - (5 / 16) * IN - (position - 1) * (IN / 8);
}

function byPosition(chars: readonly PositionedMicrChar[]): Map<number, PositionedMicrChar> {
  return new Map(chars.map((c) => [c.position, c]));
}

function thrown(fn: () => unknown): RenderInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof RenderInputError) return error;
    throw error;
  }
  throw new Error('expected a RenderInputError');
}

const VALID = { routingNumber: '011000015', accountNumber: '0012345678', serialNumber: '10001' };

describe('layoutMicrLine', () => {
  it('places the fields right to left: blank amount, on-us with account, transit, serial between on-us symbols', () => {
    const line = formatMicrLine(layoutMicrLine(VALID));
    expect(line).toHaveLength(65);
    // Left to right: positions 65..1. Aux on-us: ⑈10001⑈ ending at 45; 44 blank; transit 43..33;
    // 32..25 blank; on-us: account 24..15, symbol at 14; 13 and the amount field 12..1 blank.
    const expected = `${' '.repeat(65 - 51)}\u244810001\u2448 \u2446011000015\u2446${' '.repeat(8)}0012345678\u2448${' '.repeat(13)}`;
    expect(line).toBe(expected);
  });

  it('puts each character at the position the standard assigns', () => {
    const chars = byPosition(layoutMicrLine(VALID));
    expect(chars.get(14)?.char).toBe('onUs');
    expect(chars.get(15)?.char).toBe('8'); // last digit of the account, right-aligned against the symbol
    expect(chars.get(24)?.char).toBe('0'); // first digit of the account
    expect(chars.get(33)?.char).toBe('transit');
    expect(chars.get(34)?.char).toBe('5'); // last routing digit
    expect(chars.get(42)?.char).toBe('0'); // first routing digit
    expect(chars.get(43)?.char).toBe('transit');
    expect(chars.has(44)).toBe(false);
    expect(chars.get(45)?.char).toBe('onUs');
    expect(chars.get(46)?.char).toBe('1'); // last serial digit
    expect(chars.get(50)?.char).toBe('1'); // first serial digit
    expect(chars.get(51)?.char).toBe('onUs');
    for (let p = 1; p <= 13; p += 1) expect(chars.has(p), `position ${p} is blank`).toBe(false);
  });

  it('aligns every right edge on its position and stands characters on the 3/16-in baseline', () => {
    for (const c of layoutMicrLine(VALID)) {
      const glyph = E13B_GLYPHS[c.char];
      expect(c.x + c.width).toBeCloseTo(expectedRight(c.position), 6);
      expect(c.width).toBeCloseTo(glyph.width * UNIT, 6);
      const bottomAboveEdge = CHECK_HEIGHT - (c.y + c.height);
      expect(bottomAboveEdge).toBeCloseTo((3 / 16) * IN + glyph.raise * UNIT, 6);
    }
  });

  it('refuses a routing number with a bad checksum or shape, with a typed error', () => {
    for (const routingNumber of ['011000016', '01100001', '0110000150', 'abcdefghi', '']) {
      const error = thrown(() => layoutMicrLine({ ...VALID, routingNumber }));
      expect(error.code).toBe('invalid_routing_number');
      expect(error.field).toBe('routingNumber');
    }
  });

  it('accepts an 18-character account number (ending at 32) and refuses 19', () => {
    const chars = byPosition(layoutMicrLine({ ...VALID, accountNumber: '123456789012345678' }));
    expect(chars.get(32)?.char).toBe('1');
    expect(chars.get(15)?.char).toBe('8');
    const error = thrown(() => layoutMicrLine({ ...VALID, accountNumber: '1234567890123456789' }));
    expect(error.code).toBe('account_number_too_long');
    expect(error.field).toBe('accountNumber');
  });

  it('prints dashes as the dash symbol and spaces as blank positions; refuses other characters', () => {
    const chars = byPosition(layoutMicrLine({ ...VALID, accountNumber: '12-34 5' }));
    expect(chars.get(15)?.char).toBe('5');
    expect(chars.has(16)).toBe(false);
    expect(chars.get(19)?.char).toBe('dash');
    expect(thrown(() => layoutMicrLine({ ...VALID, accountNumber: '12A45' })).code).toBe('invalid_account_number');
    expect(thrown(() => layoutMicrLine({ ...VALID, accountNumber: '--' })).code).toBe('invalid_account_number');
  });

  it('accepts a 19-digit serial (closing symbol at 65) and refuses 20 digits or non-digits', () => {
    const chars = byPosition(layoutMicrLine({ ...VALID, serialNumber: '1234567890123456789' }));
    expect(chars.get(65)?.char).toBe('onUs');
    const long = thrown(() => layoutMicrLine({ ...VALID, serialNumber: '12345678901234567890' }));
    expect(long.code).toBe('serial_number_too_long');
    expect(long.field).toBe('checkNumber');
    expect(thrown(() => layoutMicrLine({ ...VALID, serialNumber: '10-01' })).code).toBe('invalid_serial_number');
    expect(thrown(() => layoutMicrLine({ ...VALID, serialNumber: '' })).code).toBe('invalid_serial_number');
  });

  it('fills the amount field only when asked (the MICR test page): symbols at 1 and 12, cents at 2–3, dollars zero-filled', () => {
    const line = formatMicrLine(layoutMicrLine({ ...VALID, amountCents: 123456 }));
    // Positions 12..1 are the last 12 characters of the left-to-right string; 13 stays blank.
    expect(line.slice(-13)).toBe(' \u24470000123456\u2447');
    expect(formatMicrLine(layoutMicrLine(VALID)).slice(-13)).toBe(' '.repeat(13));
    for (const amountCents of [-1, 1.5, 10_000_000_000, Number.NaN]) {
      const error = thrown(() => layoutMicrLine({ ...VALID, amountCents }));
      expect(error.code).toBe('invalid_amount');
      expect(error.field).toBe('amountCents');
    }
  });

  it('keeps every character inside positions 1..65 and the 3/16–7/16-in band, one per position', () => {
    const routing = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 8, maxLength: 8 }).map((d) => {
      // Choose the ninth digit so the 3-7-1 weighted sum is a multiple of 10.
      const weights = [3, 7, 1, 3, 7, 1, 3, 7];
      const sum = d.reduce((s, v, i) => s + v * (weights[i] ?? 0), 0);
      return [...d, (10 - (sum % 10)) % 10].join('');
    });
    fc.assert(
      fc.property(
        routing,
        fc.stringMatching(/^[0-9][0-9 -]{0,16}[0-9]$/),
        fc.stringMatching(/^[0-9]{1,19}$/),
        (routingNumber, accountNumber, serialNumber) => {
          const chars = layoutMicrLine({ routingNumber, accountNumber, serialNumber });
          const positions = chars.map((c) => c.position);
          expect(new Set(positions).size).toBe(positions.length);
          for (const c of chars) {
            expect(c.position).toBeGreaterThanOrEqual(14);
            expect(c.position).toBeLessThanOrEqual(65);
            expect(c.x).toBeGreaterThanOrEqual(0);
            const bottom = CHECK_HEIGHT - (c.y + c.height);
            const top = CHECK_HEIGHT - c.y;
            expect(bottom).toBeGreaterThanOrEqual((3 / 16) * IN - 1e-9);
            expect(top).toBeLessThanOrEqual((7 / 16) * IN + 1e-9);
          }
        },
      ),
    );
  });
});

// Money is integer cents inside the service (architecture habit 1). The API takes amounts as a
// JSON number or a numeric string and answers with the spec's forms; these are the only
// conversions, and they are exact: no float arithmetic ever touches an amount.

/** 99,999,999.99: the widest amount the MICR amount field can carry (API decisions, "Checks"). */
export const MAX_AMOUNT_CENTS = 9_999_999_999;

export type AmountProblem = 'format' | 'precision' | 'positive' | 'max';

/**
 * Parses "1234.56", "1234.5", "1234" or the number 1234.56 to cents. A JSON number is read through
 * its shortest round-trip decimal form, which is the text the client sent for any amount with at
 * most 2 decimals; anything that needs more digits (0.1 + 0.2) is refused, not rounded.
 */
export function parseAmountToCents(value: number | string): { cents: number } | { problem: AmountProblem } {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (/^-\d/.test(text)) return { problem: 'positive' };
  const match = /^(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d{1,6}))?$/.exec(text);
  if (match === null) return { problem: 'format' };
  // Move the decimal point by the exponent on the digit string itself: exact at any size.
  let whole = match[1] as string;
  let fraction = match[2] ?? '';
  const exponent = Number(match[3] ?? '0');
  if (exponent > 0) {
    const moved = fraction.padEnd(exponent, '0');
    whole += moved.slice(0, exponent);
    fraction = moved.slice(exponent);
  } else if (exponent < 0) {
    const shift = -exponent;
    const padded = whole.padStart(shift + 1, '0');
    fraction = padded.slice(padded.length - shift) + fraction;
    whole = padded.slice(0, padded.length - shift);
  }
  whole = whole.replace(/^0+(?=\d)/, '');
  if (fraction.length > 2 && !/^0*$/.test(fraction.slice(2))) return { problem: 'precision' };
  if (whole.length > 8) return { problem: 'max' };
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  if (cents <= 0) return { problem: 'positive' };
  if (cents > MAX_AMOUNT_CENTS) return { problem: 'max' };
  return { cents };
}

/** "1234.56": the create response's string form. */
export function centsToDecimalString(cents: number): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** "1,234.56": amounts as people read them (checks, emails, pages); callers add the "$". */
export function formatCents(cents: number): string {
  const [whole = '0', fraction = '00'] = centsToDecimalString(cents).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** 1234.56: the read shape's number form (exact for every value up to MAX_AMOUNT_CENTS). */
export function centsToNumber(cents: number): number {
  return Number(centsToDecimalString(cents));
}

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
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return { problem: typeof value === 'number' && /e-/.test(text) ? 'precision' : 'format' };
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (fraction.length > 2 && !/^0*$/.test(fraction.slice(2))) return { problem: 'precision' };
  if (whole.replace(/^0+/, '').length > 8) return { problem: 'max' };
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

/** 1234.56: the read shape's number form (exact for every value up to MAX_AMOUNT_CENTS). */
export function centsToNumber(cents: number): number {
  return Number(centsToDecimalString(cents));
}

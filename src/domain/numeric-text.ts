// A number as the hosted service takes one (Laravel's `numeric` rule, which PHP's is_numeric
// decides): a JSON number, or a string holding a decimal number — "4", "4.00", " 4.5 ", "1e3",
// "-2". Not "1,000", "$4", "0x10", "Infinity" or "". Amounts have their own exact reading into
// cents (money.ts) over the same forms; this is the rule for the other numeric fields.

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The number a numeric field holds, or null when it holds none. */
export function numericValue(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value.trim();
  if (!NUMERIC.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

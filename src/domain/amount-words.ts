// The check's legal line, as the API decisions define `amountInWord`:
// "One Thousand Two Hundred Thirty-Four and 56/100" — Title Case words, hyphenated tens,
// cents as NN/100. Shared by the API read shape and the printed check so they never disagree.

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];
const SCALES: ReadonlyArray<[number, string]> = [
  [1_000_000_000, 'Billion'],
  [1_000_000, 'Million'],
  [1_000, 'Thousand'],
];

/** Words for 1..999 ("Nine Hundred Ninety-Nine"). */
function underThousand(n: number): string {
  const parts: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds > 0) parts.push(`${ONES[hundreds]} Hundred`);
  if (rest > 0 && rest < 20) parts.push(ONES[rest] as string);
  else if (rest >= 20) {
    const unit = rest % 10;
    const tens = TENS[Math.floor(rest / 10)] as string;
    parts.push(unit === 0 ? tens : `${tens}-${ONES[unit]}`);
  }
  return parts.join(' ');
}

/** Whole dollars in words; 0 is "Zero". */
export function dollarsInWords(dollars: number): string {
  if (!Number.isSafeInteger(dollars) || dollars < 0) throw new RangeError(`not a dollar amount: ${dollars}`);
  if (dollars === 0) return 'Zero';
  const parts: string[] = [];
  let rest = dollars;
  for (const [size, name] of SCALES) {
    const count = Math.floor(rest / size);
    if (count > 0) {
      parts.push(`${underThousand(count)} ${name}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(underThousand(rest));
  return parts.join(' ');
}

/** The legal line for an amount in integer cents: "One Hundred and 05/100". */
export function amountInWords(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${cents}`);
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${dollarsInWords(dollars)} and ${String(rest).padStart(2, '0')}/100`;
}

// A vendor list's cells that hold several fields: QuickBooks Online's one-cell billing address and
// its "Phone:… Mobile:…" cell. PURE: text in, fields out.

/** The first phone number of a cell like "Phone:(406) 555-0142 Mobile:(406) 555-0199". */
export function firstPhone(text: string): string {
  return /\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}(\s*(x|ext\.?)\s*\d+)?/i.exec(text)?.[0]?.trim() ?? '';
}

/** Characters at the end of an address cell that can hold its state and ZIP. */
const TAIL_CHARS = 64;

const STREET_END =
  /^(.*\b(?:St|Street|Rd|Road|Ave|Avenue|Blvd|Dr|Drive|Ln|Lane|Way|Ct|Court|Pl|Place|Hwy|Pkwy|Cir|Ter|Sq|Loop|Trl)\.?(?:\s+(?:Suite|Ste|Unit|Apt|#)\s*\S+)?)\s+(.+)$/i;

/**
 * A one-cell address ("1 Mill Rd Springfield IL 62701", or with a line break or comma before the
 * city) into lines, city, state and ZIP. A cell that does not end in a state and ZIP stays whole in
 * the first line: nothing is guessed from it.
 */
export function splitAddress(text: string): Record<string, string> {
  const t = text.trim();
  if (t === '') return {};
  // The state and ZIP are looked for in the cell's last characters only: a pattern run over the
  // whole cell backtracks through every run of separators (a 4,000-character cell of ", " took
  // 8.6 ms; a file of them, seconds), and a state, a ZIP and their separators fit in TAIL_CHARS.
  const tailAt = Math.max(0, t.length - TAIL_CHARS);
  const end = /[\s,]+([A-Z]{2})[\s,]+(\d{5}(?:-\d{4})?)$/.exec(t.slice(tailAt));
  if (end === null) return { address1: t.replace(/\s*\n\s*/g, ', ').slice(0, 100) };
  const before = t.slice(0, tailAt + end.index).trim();
  const state = end[1] ?? '';
  const zip = end[2] ?? '';
  const parts = before
    .split(/\s*(?:\r?\n|,)\s*/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length >= 2) {
    const city = parts.pop() ?? '';
    return { address1: parts[0] ?? '', address2: parts.slice(1).join(', '), city, state, zip };
  }
  const one = parts[0] ?? '';
  const street = STREET_END.exec(one);
  if (street !== null) return { address1: street[1] ?? '', city: street[2] ?? '', state, zip };
  const words = one.split(/\s+/);
  const city = words.pop() ?? '';
  return { address1: words.join(' '), city, state, zip };
}

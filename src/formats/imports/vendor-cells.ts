// A vendor list's cells that hold several fields: QuickBooks Online's one-cell billing address and
// its "Phone:… Mobile:…" cell. PURE: text in, fields out.

/** The first phone number of a cell like "Phone:(406) 555-0142 Mobile:(406) 555-0199". */
export function firstPhone(text: string): string {
  return /\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}(\s*(x|ext\.?)\s*\d+)?/i.exec(text)?.[0]?.trim() ?? '';
}

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
  const end = /^(.*?)[\s,]+([A-Z]{2})[\s,]+(\d{5}(?:-\d{4})?)$/s.exec(t);
  if (end === null) return { address1: t.replace(/\s*\n\s*/g, ', ').slice(0, 100) };
  const before = (end[1] ?? '').trim();
  const state = end[2] ?? '';
  const zip = end[3] ?? '';
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

// Characters no field of this service may hold. Every text a client sends is
// printed on a check, mailed, or shown on a page or in a log: a CR/LF in a payee name prints as an
// extra line on the check and can start a new header in a mail; a bidi override makes "cod.exe"
// read as "exe.doc" on a page. No field is multi-line, so TAB, CR and LF are refused like every
// other control character rather than normalised (a silent rewrite of a payee name on a check is
// worse than a clear 422).
//
// Refused: C0 controls U+0000–U+001F (TAB, LF and CR included), DEL U+007F, C1 controls
// U+0080–U+009F, the line and paragraph separators U+2028/U+2029, the bidi embeddings and
// overrides U+202A–U+202E and the bidi isolates U+2066–U+2069.

export type UnsafeKind = 'nul' | 'control';

/** What is wrong with `text`, or null when every character is allowed. One pass, no allocation. */
export function unsafeCharacter(text: string): UnsafeKind | null {
  let found: UnsafeKind | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (c === 0) return 'nul';
    if (
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    )
      found = 'control';
  }
  return found;
}

/** The sentence naming the field, in the API's validation wording. */
export function unsafeTextMessage(field: string, kind: UnsafeKind): string {
  return kind === 'nul'
    ? `The ${field} field must not contain NUL characters.`
    : `The ${field} field must not contain control characters (line breaks, tabs, bidirectional overrides).`;
}

/** A key shown in a message: the unsafe characters themselves are replaced by their code. */
export function printable(key: string): string {
  let out = '';
  for (const ch of key) {
    const kind = unsafeCharacter(ch);
    out += kind === null ? ch : `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/**
 * The first string (or object key) of a parsed JSON value holding an unsafe character: its dotted
 * path and kind, or null. Iterative with one shared path stack, so the cost is linear in the size
 * of the value whatever its depth (the old recursive scan copied its path at every level).
 * NUL anywhere wins over other characters, so the PostgreSQL-specific wording stays stable.
 */
export function findUnsafeText(value: unknown): { path: string; kind: UnsafeKind } | null {
  let first: { path: string; kind: UnsafeKind } | null = null;
  const path: string[] = [];
  // Each frame: the container, its keys (objects) and the index of the next child to visit.
  type Frame = { items: readonly unknown[]; keys: readonly string[] | null; next: number };
  const stack: Frame[] = [];
  const report = (kind: UnsafeKind, key?: string): boolean => {
    if (first === null || (kind === 'nul' && first.kind !== 'nul')) {
      const parts = key === undefined ? path : [...path, printable(key)];
      first = { path: parts.join('.'), kind };
    }
    return kind === 'nul';
  };
  const visit = (item: unknown): boolean => {
    if (typeof item === 'string') {
      const kind = unsafeCharacter(item);
      return kind !== null && report(kind);
    }
    if (Array.isArray(item)) stack.push({ items: item, keys: null, next: 0 });
    else if (typeof item === 'object' && item !== null) {
      const keys = Object.keys(item);
      stack.push({ items: keys.map((k) => (item as Record<string, unknown>)[k]), keys, next: 0 });
    }
    return false;
  };
  if (visit(value)) return first;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next > 0) path.pop();
    if (frame.next >= frame.items.length) {
      stack.pop();
      continue;
    }
    const i = frame.next++;
    const key = frame.keys === null ? String(i) : (frame.keys[i] as string);
    if (frame.keys !== null) {
      const kind = unsafeCharacter(key);
      if (kind !== null && report(kind, key)) return first;
    }
    path.push(key);
    if (visit(frame.items[i])) return first;
  }
  return first;
}

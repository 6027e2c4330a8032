// The size of a JSON body's file fields (the CSV of POST /imports), measured on the raw text before
// JSON.parse sees it. The body limit of such a route leaves room for JSON escapes (a 4 MB CSV of
// quoted cells is near 5 MB as JSON, and one of quotes and line breaks near 8 MB), so a body can be
// within it while its file is not: counting the file's decoded bytes first refuses that body without
// parsing it, where before the whole 8 MB was parsed, scanned and validated for the service to
// refuse. One linear pass, no string of the body's size built.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const U = 0x75;

/** Index of the quote closing the string whose text starts at `from`; text.length if none. */
function stringEnd(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

/**
 * UTF-8 bytes of the string whose raw text starts at `from`, with its escapes undone as JSON.parse
 * undoes them: Buffer.byteLength of the parsed string. Stops counting once past `stopAbove`.
 * A surrogate pair (raw or as two \u escapes) is 4 bytes, a lone surrogate 3 (what UTF-8 encoding
 * writes for it, U+FFFD).
 */
export function decodedStringBytes(text: string, from: number, stopAbove = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  let afterHigh = false; // the previous code unit was a high surrogate not yet paired
  for (let i = from; i < text.length && bytes <= stopAbove; i++) {
    let unit = text.charCodeAt(i);
    if (unit === QUOTE) break;
    if (unit === BACKSLASH) {
      const escaped = text.charCodeAt(i + 1);
      if (escaped === U) {
        unit = Number.parseInt(text.slice(i + 2, i + 6), 16);
        i += 5;
      } else {
        unit = 0x20; // \n, \", \\ and the rest: one ASCII character
        i += 1;
      }
    }
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (afterHigh && unit >= 0xdc00 && unit <= 0xdfff) {
      bytes += 1; // completes a pair counted 3 at its high half: 4 in all
      afterHigh = false;
      continue;
    } else bytes += 3;
    afterHigh = unit >= 0xd800 && unit <= 0xdbff;
  }
  return bytes;
}

/**
 * The first of `fields` (members of the top-level object) whose string decodes to more than
 * `maxBytes` UTF-8 bytes, or null. Malformed text is left to JSON.parse; a key is compared as
 * JSON.parse would read it (`"c\u0073v"` is `csv`).
 */
export function oversizeFileField(text: string, fields: readonly string[], maxBytes: number): string | null {
  // No JSON text decodes to more than 3 UTF-8 bytes per character of its own.
  if (text.length * 3 <= maxBytes || fields.length === 0) return null;
  const start = text.search(/\S/);
  if (text.charCodeAt(start) !== 0x7b) return null; // not an object: validation refuses it
  const longestKey = Math.max(...fields.map((field) => field.length)) * 6 + 2;
  let depth = 0;
  let expectKey = false;
  let key: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i + 1);
      if (depth === 1 && expectKey) {
        key = end - i + 1 <= longestKey ? readKey(text.slice(i, end + 1)) : null;
        expectKey = false;
      } else if (depth === 1 && key !== null && fields.includes(key)) {
        if (decodedStringBytes(text, i + 1, maxBytes) > maxBytes) return key;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 1) {
      expectKey = true;
      key = null;
    }
  }
  return null;
}

function readKey(raw: string): string | null {
  try {
    const key: unknown = JSON.parse(raw);
    return typeof key === 'string' ? key : null;
  } catch {
    return null;
  }
}

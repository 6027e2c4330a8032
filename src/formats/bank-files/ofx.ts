// An OFX or QFX download (OFX 1.x SGML or 2.x XML), read by ofx-js: each <STMTTRN>'s CHECKNUM,
// TRNAMT (negative for money out) and DTPOSTED. ofx-js is not safe with hostile input on its own —
// a tag name of 24 capitals followed by no dot costs it about a second (a regular expression of
// nested quantifiers in its SGML step), and each level of nesting is a level of recursion — so the
// document is first scanned here in one linear pass: elements only, names of at most 32 letters,
// digits, '_' or '.', nesting at most 32 deep, every aggregate closed. What ofx-js is then given is
// rebuilt from that scan: names lower-cased (its expensive expression matches capitals only),
// extension elements with a dot in their name (<INTU.BID>) left out, whitespace between elements
// dropped.
import { parseSync } from 'ofx-js';
import { MAX_CLEARED_ITEMS_ROWS, MAX_OFX_DEPTH, MAX_OFX_NAME_CHARS } from '../../domain/cleared-items.ts';
import {
  type BankRow,
  type ClearedItemsResult,
  checkNumberInText,
  parseBankDate,
  parseSignedBankAmount,
  refused,
  shown,
  sortRows,
} from './bank-values.ts';

const NAME = new RegExp(`^[A-Za-z][A-Za-z0-9_.]{0,${MAX_OFX_NAME_CHARS - 1}}$`);

/** Whether the text is an OFX document: its <OFX> element, after the header lines. */
export function looksLikeOfx(text: string): boolean {
  return /^\s*(OFXHEADER\s*:|<\?xml[^>]{0,200}\?>\s*<\?OFX\b|<OFX>)/i.test(text);
}

interface Scanned {
  /** The document as ofx-js reads it. */
  rebuilt: string;
  /** The line of each <STMTTRN>, in document order. */
  transactionLines: number[];
}

function lineCounter(text: string): (at: number) => number {
  let line = 1;
  let upTo = 0;
  return (at: number): number => {
    for (; upTo < at; upTo += 1) if (text.charCodeAt(upTo) === 10) line += 1;
    return line;
  };
}

/** The linear scan described at the top: the document rebuilt, or the sentence that refuses it. */
function scan(text: string): Scanned | string {
  const start = text.search(/<OFX>/i);
  if (start < 0) return 'The file has no <OFX> element: it is not an OFX or QFX download.';
  const lineAt = lineCounter(text);
  const stack: string[] = [];
  const parts: string[] = [];
  const transactionLines: number[] = [];
  let lastLeaf: string | null = null;
  let at = start;
  while (at < text.length) {
    const open = text.indexOf('<', at);
    const between = (open < 0 ? text.slice(at) : text.slice(at, open)).trim();
    if (between !== '') {
      if (lastLeaf === null || stack.length === 0)
        return `Line ${lineAt(at)}: text outside an element ("${shown(between)}"): the file is not OFX.`;
      parts.push(between.replace(/</g, ''));
      lastLeaf = null;
    } else if (lastLeaf !== null) {
      // An element with no text and no closing tag of its own opens an aggregate.
      stack.push(lastLeaf);
      if (stack.length > MAX_OFX_DEPTH)
        return `Line ${lineAt(at)}: elements are nested more than ${MAX_OFX_DEPTH} deep; an OFX statement is about 8.`;
      lastLeaf = null;
    }
    if (open < 0) break;
    const close = text.indexOf('>', open);
    if (close < 0) return `Line ${lineAt(open)}: a "<" is never closed by ">".`;
    const tag = text.slice(open + 1, Math.min(close, open + MAX_OFX_NAME_CHARS + 2));
    const closing = tag.startsWith('/');
    const name = closing ? tag.slice(1) : tag;
    if (close - open - (closing ? 2 : 1) > MAX_OFX_NAME_CHARS || !NAME.test(name))
      return `Line ${lineAt(open)}: "<${shown(name)}" is not an OFX element (a name of letters and digits, at most ${MAX_OFX_NAME_CHARS}).`;
    const key = name.toUpperCase();
    const kept = key === 'OFX' ? 'OFX' : key.toLowerCase();
    if (closing) {
      if (lastLeaf === key) {
        // <NAME>text</NAME>: SGML may close a leaf too; the text is already taken.
        lastLeaf = null;
      } else {
        if (lastLeaf !== null) stack.push(lastLeaf);
        lastLeaf = null;
        const top = stack.pop();
        if (top !== key)
          return `Line ${lineAt(open)}: </${shown(name)}> closes ${top === undefined ? 'nothing' : `<${top}>`}.`;
        if (!key.includes('.')) parts.push(`</${kept}>`);
        if (stack.length === 0) {
          at = close + 1;
          break;
        }
      }
    } else {
      if (key === 'STMTTRN') transactionLines.push(lineAt(open));
      if (transactionLines.length > MAX_CLEARED_ITEMS_ROWS)
        return `The file has more than ${MAX_CLEARED_ITEMS_ROWS.toLocaleString('en-US')} transactions: split it.`;
      if (key.includes('.')) parts.push('');
      else parts.push(`<${kept}>`);
      lastLeaf = key;
    }
    at = close + 1;
  }
  if (stack.length > 0 || lastLeaf !== null)
    return `The file ends inside <${stack.at(-1) ?? lastLeaf}>: the download is cut short (no </OFX>).`;
  if (text.slice(at).trim() !== '') return `Line ${lineAt(at)}: the file goes on after </OFX>.`;
  // Extension elements (a dot in the name) are dropped with their text: an empty part then its text.
  const rebuilt = parts.filter((p, i) => p !== '' && parts[i - 1] !== '').join('');
  return { rebuilt, transactionLines };
}

type Node = Record<string, unknown>;

/** Every <STMTTRN> of the parsed document, in document order (depth is bounded by the scan). */
function transactionsOf(node: unknown, found: Node[]): void {
  if (Array.isArray(node)) for (const n of node) transactionsOf(n, found);
  else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'stmttrn') for (const t of Array.isArray(value) ? value : [value]) found.push(t as Node);
      else transactionsOf(value, found);
    }
}

const textOf = (node: Node, key: string): string => {
  const value = node[key];
  return typeof value === 'string' ? value.trim() : '';
};

export function readOfx(text: string, today: string): ClearedItemsResult {
  const scanned = scan(text);
  if (typeof scanned === 'string') return refused(scanned);
  let parsed: { OFX: unknown };
  try {
    parsed = parseSync(scanned.rebuilt);
  } catch {
    return refused('The OFX document cannot be read: an element is not closed where it should be.');
  }
  const transactions: Node[] = [];
  transactionsOf(parsed.OFX, transactions);
  const rows: BankRow[] = [];
  for (const [i, t] of transactions.entries()) {
    const line = scanned.transactionLines[i] ?? 0;
    const checkNumber =
      shown(textOf(t, 'checknum')) ||
      checkNumberInText(textOf(t, 'name')) ||
      checkNumberInText(textOf(t, 'memo')) ||
      '';
    if (checkNumber === '') {
      rows.push({ line, checkNumber, amountCents: 0, out: true, date: '' });
      continue;
    }
    const amount = parseSignedBankAmount(textOf(t, 'trnamt'));
    if (amount === null)
      return refused(
        `Line ${line}: the TRNAMT "${shown(textOf(t, 'trnamt'))}" of check ${checkNumber} is not an amount.`,
      );
    const date = parseBankDate(textOf(t, 'dtposted').slice(0, 8));
    if (date === null)
      return refused(
        `Line ${line}: the DTPOSTED "${shown(textOf(t, 'dtposted'))}" of check ${checkNumber} is not a date.`,
      );
    rows.push({ line, checkNumber, amountCents: amount.cents, out: amount.negative, date });
  }
  return sortRows(
    'ofx',
    rows,
    0,
    { checkNumber: 'CHECKNUM', amount: 'TRNAMT', date: 'DTPOSTED' },
    today,
    `The OFX file lists no checks paid: none of its ${transactions.length} transactions has a CHECKNUM or a NAME such as "CHECK 1029"`,
  );
}

// The panel's way to type a layout's fields from a bank's spec sheet: the record's fields in
// order, separated by semicolons (or line breaks), each (docs/positive-pay.md, "Custom layouts"):
//
//   source[:option] [width] [left|right] [zero|space]
//
// e.g. `accountNumber 20 right zero`, `amount:cents 10`, `issueDate:MMDDYY 6`,
// `literal:"HDR" 3`, `filler 4`. Empty entries and those starting with # are skipped. One line of
// text is simpler to fill from a printed field table than rows of selects, copies between offices,
// and holds no line break (the panel refuses control characters in every form field).
import {
  AMOUNT_FORMATS,
  type AmountFormat,
  DATE_FORMATS,
  DATE_SOURCES,
  type DateFormat,
  type FieldSource,
  type LayoutField,
} from './layout.ts';

export interface LineProblem {
  /** 1-based place of the field's entry in the text. */
  line: number;
  message: string;
}

export interface ParsedFields {
  fields: LayoutField[];
  /** The line each field came from, to put a validator's `detail[3]` back on its line. */
  lines: number[];
  problems: LineProblem[];
}

const PLAIN_SOURCES = [
  'accountNumber',
  'routingNumber',
  'checkNumber',
  'payee',
  'payeeLine1',
  'payeeLine2',
  'code',
  'filler',
  'recordCount',
  'checkNumberTotal',
] as const;
const ALL_SOURCES = [
  ...PLAIN_SOURCES,
  'amount:…',
  'totalAmount:…',
  ...DATE_SOURCES.map((d) => `${d}:…`),
  'literal:"…"',
];

function isDateSource(kind: string): kind is (typeof DATE_SOURCES)[number] {
  return (DATE_SOURCES as readonly string[]).includes(kind);
}

function sourceOf(word: string, literal: string | undefined): FieldSource | string {
  if (literal !== undefined) return { kind: 'literal', text: literal };
  const [kind = '', option] = word.split(':', 2);
  if ((PLAIN_SOURCES as readonly string[]).includes(kind) && option === undefined) return { kind } as FieldSource;
  if (kind === 'amount' || kind === 'totalAmount') {
    if (!(AMOUNT_FORMATS as readonly string[]).includes(option ?? ''))
      return `${kind} needs a format: ${AMOUNT_FORMATS.map((f) => `${kind}:${f}`).join(' or ')}`;
    return { kind, format: option as AmountFormat };
  }
  if (isDateSource(kind)) {
    if (!(DATE_FORMATS as readonly string[]).includes(option ?? ''))
      return `${kind} needs a format, one of ${DATE_FORMATS.map((f) => `${kind}:${f}`).join(', ')}`;
    return { kind, format: option as DateFormat };
  }
  return `"${word}" is not a field source; use one of ${ALL_SOURCES.join(', ')}`;
}

/** At most this many lines are read: a record has at most 40 fields (validate.ts). */
const MAX_LINES = 200;

export function parseFieldLines(text: string): ParsedFields {
  const parsed: ParsedFields = { fields: [], lines: [], problems: [] };
  const lines = text.split(/;|\r?\n/);
  if (lines.length > MAX_LINES) {
    parsed.problems.push({ line: MAX_LINES + 1, message: `at most ${MAX_LINES} fields` });
    return parsed;
  }
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const quoted = /^literal:"([^";]*)"(.*)$/.exec(trimmed);
    const [first = '', ...rest] =
      quoted === null
        ? trimmed.split(/\s+/)
        : [
            'literal',
            ...(quoted[2] ?? '')
              .trim()
              .split(/\s+/)
              .filter((w) => w !== ''),
          ];
    const source = sourceOf(first, quoted?.[1]);
    if (typeof source === 'string') {
      parsed.problems.push({ line, message: source });
      return;
    }
    const field: LayoutField = { source };
    for (const word of rest) {
      if (/^[0-9]{1,4}$/.test(word) && field.width === undefined) field.width = Number(word);
      else if ((word === 'left' || word === 'right') && field.align === undefined) field.align = word;
      else if ((word === 'zero' || word === 'space') && field.pad === undefined)
        field.pad = word === 'zero' ? '0' : ' ';
      else {
        parsed.problems.push({ line, message: `"${word}" is not a width, left/right or zero/space` });
        return;
      }
    }
    parsed.fields.push(field);
    parsed.lines.push(line);
  });
  return parsed;
}

/** The lines that give these fields back (the form shows a stored layout this way). */
export function fieldLines(fields: readonly LayoutField[]): string {
  return fields
    .map((f) => {
      const s = f.source;
      const head = s.kind === 'literal' ? `literal:"${s.text}"` : 'format' in s ? `${s.kind}:${s.format}` : s.kind;
      const pad = f.pad === undefined ? '' : f.pad === '0' ? 'zero' : 'space';
      return [head, f.width ?? '', f.align ?? '', pad].filter((w) => w !== '').join(' ');
    })
    .join('; ');
}

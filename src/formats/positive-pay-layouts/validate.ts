// Checks a layout an office typed in from its bank's spec sheet before it is stored or used:
// every problem is reported with the place it is at, so the panel and the API can answer a 4xx
// that names the field to fix instead of failing while writing a file.
import { AMOUNT_FORMATS, DATE_FORMATS, type LayoutField, type PositivePayLayout } from './layout.ts';

export interface LayoutProblem {
  path: string;
  message: string;
}

/** Limits that keep a record readable by a bank's mainframe and a file's size bounded. */
export const MAX_FIELDS = 40;
export const MAX_FIELD_WIDTH = 200;
export const MAX_RECORD_LENGTH = 1000;

const PRINTABLE = /^[\x20-\x7e]*$/;
const NUMERIC_SOURCES = new Set([
  'accountNumber',
  'routingNumber',
  'checkNumber',
  'amount',
  'totalAmount',
  'recordCount',
  'checkNumberTotal',
]);
const DETAIL_ONLY = new Set([
  'checkNumber',
  'amount',
  'issueDate',
  'issueOrFileDate',
  'payee',
  'payeeLine1',
  'payeeLine2',
  'code',
]);
const TOTALS_ONLY = new Set(['recordCount', 'totalAmount', 'checkNumberTotal']);
/** A bank cannot match a check without these. */
const REQUIRED_IN_DETAIL = ['accountNumber', 'checkNumber', 'amount', 'issueDate'] as const;

function checkFields(
  fields: readonly LayoutField[],
  where: 'header' | 'detail' | 'trailer',
  fixed: boolean,
  problems: LayoutProblem[],
): void {
  if (fields.length === 0) problems.push({ path: where, message: 'needs at least one field' });
  if (fields.length > MAX_FIELDS) problems.push({ path: where, message: `has more than ${MAX_FIELDS} fields` });
  let length = 0;
  fields.forEach((f, i) => {
    const path = `${where}[${i}]`;
    const s = f.source;
    if (where === 'detail' && TOTALS_ONLY.has(s.kind))
      problems.push({ path, message: 'record counts and totals belong in a header or trailer' });
    if (where !== 'detail' && DETAIL_ONLY.has(s.kind))
      problems.push({ path, message: 'check values belong in the detail record' });
    if (s.kind === 'amount' || s.kind === 'totalAmount') {
      if (!(AMOUNT_FORMATS as readonly string[]).includes(s.format))
        problems.push({ path, message: `amount format must be one of ${AMOUNT_FORMATS.join(', ')}` });
    }
    if (
      (s.kind === 'issueDate' || s.kind === 'fileDate' || s.kind === 'issueOrFileDate') &&
      !(DATE_FORMATS as readonly string[]).includes(s.format)
    )
      problems.push({ path, message: `date format must be one of ${DATE_FORMATS.join(', ')}` });
    if (s.kind === 'literal' && !PRINTABLE.test(s.text))
      problems.push({ path, message: 'literal text must be printable ASCII' });
    if (f.width !== undefined && (!Number.isInteger(f.width) || f.width < 1 || f.width > MAX_FIELD_WIDTH))
      problems.push({ path, message: `width must be a whole number from 1 to ${MAX_FIELD_WIDTH}` });
    if (fixed && f.width === undefined)
      problems.push({ path, message: 'every field of a fixed-width record needs a width' });
    if (s.kind === 'literal' && f.width !== undefined && s.text.length > f.width)
      problems.push({ path, message: 'literal text is longer than the field' });
    if (f.pad === '0' && !NUMERIC_SOURCES.has(s.kind) && s.kind !== 'filler')
      problems.push({ path, message: 'only numbers may be zero-filled' });
    // The split point of the payee is line 1's width, so line 1 needs one even where cells are delimited.
    if (s.kind === 'payeeLine1' && f.width === undefined)
      problems.push({ path, message: 'payeeLine1 needs a width: the payee is split after it' });
    if (s.kind === 'payeeLine2' && !fields.slice(0, i).some((g) => g.source.kind === 'payeeLine1'))
      problems.push({ path, message: 'payeeLine2 needs a payeeLine1 field before it in the record' });
    length += f.width ?? 0;
  });
  if (fixed && length > MAX_RECORD_LENGTH)
    problems.push({ path: where, message: `a record may be at most ${MAX_RECORD_LENGTH} characters` });
}

export function layoutProblems(layout: PositivePayLayout): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const fixed = layout.record.kind === 'fixed';
  for (const [key, code] of Object.entries(layout.codes)) {
    if (code.length > 10 || !PRINTABLE.test(code))
      problems.push({ path: `codes.${key}`, message: 'must be at most 10 printable ASCII characters' });
  }
  if (layout.codes.issue === layout.codes.void && layout.codes.issue !== '')
    problems.push({ path: 'codes', message: 'issue and void codes must differ' });
  checkFields(layout.detail, 'detail', fixed, problems);
  if (layout.header !== undefined) checkFields(layout.header, 'header', fixed, problems);
  if (layout.trailer !== undefined) checkFields(layout.trailer, 'trailer', fixed, problems);
  const kinds = new Set<string>(layout.detail.map((f) => f.source.kind));
  // A date that is the issue date on every issue (and the file's date on a void) dates the check too.
  if (kinds.has('issueOrFileDate')) kinds.add('issueDate');
  for (const required of REQUIRED_IN_DETAIL)
    if (!kinds.has(required)) problems.push({ path: 'detail', message: `needs a ${required} field` });
  if (!kinds.has('code') && layout.codes.issue !== layout.codes.void)
    problems.push({ path: 'detail', message: 'needs a code field to tell issues from voids' });
  return problems;
}

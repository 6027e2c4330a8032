// Finding the table inside a report: the header among title lines, section, group heading, total,
// blank and footer rows among the data (each row left out listed with why), and a known layout's
// rows turned into ours (one check per bill, a check with its split lines, a vendor's cells split).
// PURE like read-import-file.ts: arrays in, plain data out.
import { headerKey } from '../../domain/import-columns.ts';
import { type KnownLayout, layoutOf, MAX_HEADER_SEARCH } from './known-layouts.ts';
import { firstPhone, splitAddress } from './vendor-cells.ts';

/** Voucher lines of one check (the API's bound on voucherItems). */
const MAX_VOUCHER_LINES = 100;

/** A line of the file not taken as a row, and why (the preview lists them). */
export interface LeftOut {
  readonly line: number;
  readonly why: string;
  /** The line's first cells, as the preview quotes them. */
  readonly text: string;
}

export interface VoucherLine {
  description: string;
  total: string;
}

/** A table as the import reads it: the header, the rows that may be checks or payees, and the rest. */
export interface Table {
  layout: KnownLayout | null;
  header: string[];
  /** The line of the header (1-based). */
  headerLine: number;
  rows: string[][];
  lines: number[];
  /** Per row: the voucher lines of a check made of several lines (a bill, a check's splits). */
  vouchers: (VoucherLine[] | null)[];
  /** Per row: what is wrong with the group it stands for (a bill whose total is not its lines'). */
  groupErrors: string[][];
  leftOut: LeftOut[];
}

const quotedLine = (row: readonly string[]): string => {
  const text = row
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .join(' | ')
    .replace(/\s+/g, ' ');
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

const AMOUNT_TEXT = /^\(?-?\$?-?\(?[\d,]+(\.\d+)?\)?-?$/;

/**
 * The header: a known layout's header within the first MAX_HEADER_SEARCH lines, else the first line
 * naming at least two columns the import recognises, else line 1 (a file of the user's own names).
 */
export function findHeader(
  records: readonly string[][],
  recognised: (row: readonly string[]) => number,
): { index: number; layout: KnownLayout | null } {
  const bound = Math.min(records.length, MAX_HEADER_SEARCH);
  for (let i = 0; i < bound; i++) {
    const layout = layoutOf((records[i] ?? []).map((c) => c.trim()));
    if (layout !== null) return { index: i, layout };
  }
  for (let i = 0; i < bound; i++) if (recognised(records[i] ?? []) >= 2) return { index: i, layout: null };
  return { index: 0, layout: null };
}

/** A signed amount of a report: "-1,234.50", "(1,234.50)", "$-1,234.50", "1,234.50-" are negative. */
export function signedAmount(text: string): { negative: boolean; zero: boolean; unsigned: string } {
  const t = text.replace(/\s+/g, '');
  const negative = /^\(.*\)$/.test(t) || t.startsWith('-') || t.startsWith('$-') || t.endsWith('-');
  const unsigned = t.replace(/^\(|\)$/g, '').replace(/^-|^\$-|-$/g, (m) => (m === '$-' ? '$' : ''));
  const zero = /^\$?[0.,]*$/.test(unsigned);
  return { negative, zero, unsigned };
}

/** Cents of an unsigned amount text, or null ("1,234.50" -> 123450). */
function cents(text: string): number | null {
  const t = signedAmount(text).unsigned.replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const [whole = '0', frac = ''] = t.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

const dollars = (c: number): string =>
  `${Math.floor(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;

/**
 * What a report row is when it is no data row: blank, a total, a section or group heading, a
 * footer (when the report was run), or an unlabelled subtotal. Null for a data row.
 */
function reportRow(row: readonly string[], afterData: boolean): { why: string; heading?: string } | null {
  const cells = row.map((c) => c.trim());
  const filled = cells.filter((c) => c !== '');
  if (filled.length === 0) return { why: 'a blank row' };
  const first = cells[0] ?? '';
  if (/^total\b/i.test(first)) return { why: 'a total row' };
  if (filled.length === 1 && first !== '') {
    if (/\d{1,2}:\d{2}\s*(AM|PM)?\b|\b(Accrual|Cash) Basis\b/i.test(first))
      return { why: 'the report footer (when it was run)' };
    return { why: afterData ? 'a group heading' : 'a section heading', heading: first };
  }
  if (filled.every((c) => AMOUNT_TEXT.test(c))) return { why: 'a subtotal row (amounts only)' };
  return null;
}

/**
 * Rows of a report: section, heading, total, blank and footer rows left out with why; the heading
 * above rows kept for them (a layout whose heading is the payee). Applied to a recognised layout,
 * and to a file whose header was found below title lines or has an empty first column (a report).
 */
export function reportRows(
  rows: readonly string[][],
  lines: readonly number[],
): { rows: string[][]; lines: number[]; headings: (string | null)[]; leftOut: LeftOut[] } {
  const out: string[][] = [];
  const outLines: number[] = [];
  const headings: (string | null)[] = [];
  const leftOut: LeftOut[] = [];
  let heading: string | null = null;
  rows.forEach((row, i) => {
    const line = lines[i] ?? 0;
    const kind = reportRow(row, out.length > 0);
    if (kind === null) {
      out.push([...row]);
      outLines.push(line);
      headings.push(heading);
      return;
    }
    if (kind.heading !== undefined) heading = kind.heading;
    if (kind.why === 'a total row') heading = null;
    leftOut.push({ line, why: kind.why, text: quotedLine(row) });
  });
  return { rows: out, lines: outLines, headings, leftOut };
}

/** Our fields of a layout's rows, in this order: the header the rest of the import reads. */
function fieldsOfLayout(layout: KnownLayout): string[] {
  const fields = Object.values(layout.columns).filter((f) => !f.startsWith('@'));
  if (layout.headingIsPayee === true || Object.values(layout.columns).includes('@payee2')) fields.push('payee');
  return [...new Set(fields)];
}

/** Column index of each role or field of a layout in the file's header. */
function columnsOf(layout: KnownLayout, header: readonly string[]): Map<string, number> {
  const at = new Map<string, number>();
  const keys = header.map(headerKey);
  for (const [name, role] of Object.entries(layout.columns)) {
    const i = keys.indexOf(headerKey(name));
    if (i >= 0 && !at.has(role)) at.set(role, i);
  }
  return at;
}

/** A recognised layout's rows in our fields: one per check or payee, groups made, the rest left out. */
export function layoutTable(
  layout: KnownLayout,
  header: readonly string[],
  headerLine: number,
  rawRows: readonly string[][],
  rawLines: readonly number[],
): Table {
  const fields = fieldsOfLayout(layout);
  const at = columnsOf(layout, header);
  const cell = (row: readonly string[], role: string): string => {
    const i = at.get(role);
    return i === undefined ? '' : (row[i] ?? '').trim();
  };
  const table: Table = {
    layout,
    header: layout.kind === 'payees' ? [...fields, 'phone', 'address1', 'address2', 'city', 'state', 'zip'] : fields,
    headerLine,
    rows: [],
    lines: [],
    vouchers: [],
    groupErrors: [],
    leftOut: [],
  };
  table.header = [...new Set(table.header)];
  // IIF has no report rows: its TRNS/SPL/ENDTRNS kinds say what each line is.
  const report =
    layout.id === 'qbd-iif'
      ? { rows: [...rawRows], lines: [...rawLines], headings: rawRows.map(() => null), leftOut: [] }
      : reportRows(rawRows, rawLines);
  table.leftOut.push(...report.leftOut);
  const only = layout.only;
  const onlyAt = only === undefined ? -1 : header.map(headerKey).indexOf(headerKey(only.column));
  const push = (values: Record<string, string>, line: number, voucher: VoucherLine[] | null, errors: string[]) => {
    table.rows.push(table.header.map((f) => values[f] ?? ''));
    table.lines.push(line);
    table.vouchers.push(voucher);
    table.groupErrors.push(errors);
  };
  const valuesOf = (row: readonly string[], heading: string | null): Record<string, string> => {
    const values: Record<string, string> = {};
    for (const f of fields) values[f] = cell(row, f);
    if (layout.headingIsPayee === true && heading !== null) values.payee = heading;
    if (values.payee === '' && at.has('@payee2')) values.payee = cell(row, '@payee2');
    return values;
  };

  if (layout.kind === 'payees') {
    report.rows.forEach((row, i) => {
      const values = valuesOf(row, null);
      if (at.has('@phones')) values.phone = firstPhone(cell(row, '@phones'));
      if (at.has('@address')) Object.assign(values, splitAddress(cell(row, '@address')));
      push(values, report.lines[i] ?? 0, null, []);
    });
    return table;
  }

  if (layout.grouping === 'bill') {
    const bills = new Map<string, number[]>();
    report.rows.forEach((row, i) => {
      const key = `${cell(row, 'payee')}\u0000${cell(row, 'invoiceNumber')}`;
      bills.set(key, [...(bills.get(key) ?? []), i]);
    });
    for (const indexes of bills.values()) {
      const first = report.rows[indexes[0] ?? 0] ?? [];
      const bill = cell(first, 'invoiceNumber');
      const items: VoucherLine[] = [];
      const errors: string[] = [];
      let sum = 0;
      for (const i of indexes) {
        const row = report.rows[i] ?? [];
        const line = cents(cell(row, '@lineAmount'));
        const tax = cell(row, '@lineTax') === '' ? 0 : cents(cell(row, '@lineTax'));
        if (line === null || tax === null) errors.push(`A line of bill "${bill}" has no amount that reads as dollars.`);
        sum += (line ?? 0) + (tax ?? 0);
        items.push({ description: cell(row, '@line').slice(0, 200), total: dollars((line ?? 0) + (tax ?? 0)) });
        if (i !== indexes[0])
          table.leftOut.push({
            line: report.lines[i] ?? 0,
            why: `another line of bill "${bill}" (on its check's stub)`,
            text: quotedLine(row),
          });
        if (cell(row, '@total') !== cell(first, '@total'))
          errors.push(`The lines of bill "${bill}" give different totals: export the bill again.`);
      }
      const total = cents(cell(first, '@total'));
      if (total !== sum)
        errors.push(
          `The total of bill "${bill}" (${cell(first, '@total')}) is not the sum of its lines (${dollars(sum)}): fix the bill and export it again.`,
        );
      if (items.length > MAX_VOUCHER_LINES)
        errors.push(`Bill "${bill}" has ${items.length} lines: a check's stub takes at most ${MAX_VOUCHER_LINES}.`);
      push(valuesOf(first, null), report.lines[indexes[0] ?? 0] ?? 0, items, [...new Set(errors)]);
    }
    return table;
  }

  if (layout.grouping === 'splits') {
    let open: { values: Record<string, string>; line: number; items: VoucherLine[]; sum: number } | null = null;
    const close = () => {
      if (open === null) return;
      const errors: string[] = [];
      const amount = cents(open.values.amount ?? '');
      if (open.items.length > 0 && amount !== null && amount !== open.sum)
        errors.push(
          `The split lines of check ${open.values.serialNumber || `on line ${open.line}`} add up to ${dollars(open.sum)}, not its amount ${dollars(amount)}.`,
        );
      push(open.values, open.line, open.items.length > 0 ? open.items : null, errors);
      open = null;
    };
    report.rows.forEach((row, i) => {
      const line = report.lines[i] ?? 0;
      const type = cell(row, '@type');
      if (type === 'ENDTRNS') {
        close();
        return;
      }
      const starts = type !== '' && type !== 'SPL';
      if (starts) {
        close();
        open = { values: valuesOf(row, null), line, items: [], sum: 0 };
        return;
      }
      const lineCents = cents(cell(row, 'amount'));
      if (open !== null && cell(row, '@line') !== '' && lineCents !== null) {
        open.items.push({ description: cell(row, '@line').slice(0, 200), total: dollars(lineCents) });
        open.sum += lineCents;
        table.leftOut.push({ line, why: 'a split line (on its check’s stub)', text: quotedLine(row) });
        return;
      }
      table.leftOut.push({ line, why: 'a row outside any check', text: quotedLine(row) });
    });
    close();
    return table;
  }

  report.rows.forEach((row, i) => {
    const line = report.lines[i] ?? 0;
    if (only !== undefined && (row[onlyAt] ?? '').trim() !== only.value) {
      table.leftOut.push({ line, why: only.otherwise, text: quotedLine(row) });
      return;
    }
    push(valuesOf(row, report.headings[i] ?? null), line, null, []);
  });
  return table;
}

import type { Pdf } from './pdf-document.ts';
import { RenderInputError } from './render-error.ts';

export type FontName = 'Helvetica' | 'Helvetica-Bold';
export type Align = 'left' | 'right' | 'center';

export const IN = 72;
export const PAGE_WIDTH = 8.5 * IN;

/**
 * Places on the check face, points from the check's top-left corner. Where the check and its stubs
 * sit on the page depends on the layout (print-layout.ts); the face is drawn in its own coordinates
 * and moved there.
 */
export const CHECK_PAGE_LAYOUT = {
  /**
   * Payee name and address block on the check face, points from the check's top-left.
   * A standard #10 envelope (9.5 × 4.125 in) has its window 4.5 × 1.125 in, 7/8 in from the left and
   * 1/2 in from the bottom. Folded in thirds, the check panel (11/3 in) rests on the envelope's
   * bottom and may slide up to 0.46 in and sideways up to 1 in, so the window always shows the
   * band 2.04–2.71 in from the top and 0.875–4.375 in from the left. The block stays inside it.
   * Measured for the check-on-top layout; verify against the envelope stock in use.
   */
  payeeWindow: { x: 0.9 * IN, top: 2.09 * IN, bottom: 2.7 * IN, width: 3.45 * IN, maxAddressLines: 4 },
} as const;

export const LEFT = 0.5 * IN;
export const RIGHT = 8.0 * IN;
export const MAX_FROM_ADDRESS_LINES = 4;

export const INK = '#000000';
export const RULE = '#444444';
export const LABEL = '#333333';
export const VOID_RED = '#c8102e';

// ---------------------------------------------------------------- small helpers

export const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-11-21" → "11/21/2026"; refuses strings that are not real calendar dates. */
export function formatCheckDate(isoDate: string, field: string): string {
  const m = ISO_DATE.exec(isoDate);
  const date = m ? new Date(`${isoDate}T00:00:00Z`) : null;
  if (!m || date === null || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== isoDate) {
    throw new RenderInputError('invalid_date', field, `${field} must be a real date in YYYY-MM-DD form`);
  }
  return `${m[2]}/${m[3]}/${m[1]}`;
}

export function formatQuantity(quantity: number): string {
  return Number.isInteger(quantity) ? String(quantity) : String(Number(quantity.toFixed(3)));
}

export interface TextStyle {
  readonly font: FontName;
  readonly size: number;
  readonly align?: Align;
  /** When given, text longer than this is shortened with "…". */
  readonly maxWidth?: number;
  readonly color?: string;
}

/** Longest prefix of text that fits maxWidth with "…" appended (or the text itself if it fits). */
export function fitText(doc: Pdf, text: string, maxWidth: number): string {
  if (doc.widthOfString(text) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${text.slice(0, mid).trimEnd()}…`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

/**
 * Writes one line of text with its top at y. x is the left edge, the right edge (align right) or
 * the centre (align center). Alignment is computed here rather than by pdfkit's line wrapper,
 * which is both slower and needs a box.
 */
export function put(doc: Pdf, text: string, x: number, y: number, style: TextStyle): void {
  if (text === '') return;
  doc
    .font(style.font)
    .fontSize(style.size)
    .fillColor(style.color ?? INK);
  const shown = style.maxWidth === undefined ? text : fitText(doc, text, style.maxWidth);
  const align = style.align ?? 'left';
  // Measuring costs a kerning lookup per character pair; left-aligned text does not need it.
  const left =
    align === 'left' ? x : align === 'right' ? x - doc.widthOfString(shown) : x - doc.widthOfString(shown) / 2;
  doc.text(shown, left, y, { lineBreak: false });
}

export function rule(doc: Pdf, x1: number, x2: number, y: number, width = 0.6): void {
  doc.moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(RULE).stroke();
}

/** Largest font size ≤ max at which text fits width, or null if it does not fit even at min. */
export function sizeToFit(
  doc: Pdf,
  text: string,
  font: FontName,
  max: number,
  min: number,
  width: number,
): number | null {
  for (let size = max; size >= min; size -= 0.5) {
    doc.font(font).fontSize(size);
    if (doc.widthOfString(text) <= width) return size;
  }
  return null;
}

// Check PDFs with pdfkit: US letter, "check on top" business format. The check is the top
// 8.5 × 3.5 in; two voucher stubs follow (3.5 in and 4 in, perforations at 3.5 in and 7 in, as on
// common three-part business check stock). One check per page.
//
// Only the 14 standard PDF fonts are used (Helvetica, Helvetica-Bold), so nothing is embedded or
// loaded from disk per render. The MICR line is vector paths (micr-line.ts), never text.
// Layout decisions (window position, where custom elements go, what the no* flags blank) are
// described in docs/e13b.md and in check-document.ts.

import PDFDocument from 'pdfkit';
import { amountInWords } from '../domain/amount-words.ts';
import { formatCents, MAX_AMOUNT_CENTS } from '../domain/money.ts';
import { isJpeg, isPng } from '../domain/file-types.ts';
import {
  CUSTOM_ELEMENT_KEYS,
  type CheckDocument,
  type CheckParty,
  type CustomElementKey,
  type VoucherItem,
} from './check-document.ts';
import { drawMicrLine, layoutMicrLine, STANDARD_CHECK_AREA, type PositionedMicrChar } from './micr-line.ts';
import { checkPrintOffset, shiftPage } from './page-offset.ts';
import { RenderInputError } from './render-error.ts';
import { drawImageInBox, prepareImage, type PreparedImage } from './signature-image.ts';

type Pdf = PDFKit.PDFDocument;
type FontName = 'Helvetica' | 'Helvetica-Bold';
type Align = 'left' | 'right' | 'center';

const IN = 72;
const PAGE_WIDTH = 8.5 * IN;

/** Page regions, points from the page's top-left corner. */
export const CHECK_PAGE_LAYOUT = {
  check: { x: 0, y: 0, width: STANDARD_CHECK_AREA.width, height: STANDARD_CHECK_AREA.height },
  stubs: [
    { y: 3.5 * IN, height: 3.5 * IN },
    { y: 7 * IN, height: 4 * IN },
  ],
  /**
   * Payee name and address block on the check face, points from the check's top-left.
   * A standard #10 envelope (9.5 × 4.125 in) has its window 4.5 × 1.125 in, 7/8 in from the left and
   * 1/2 in from the bottom. Folded in thirds, the check panel (11/3 in) rests on the envelope's
   * bottom and may slide up to 0.46 in and sideways up to 1 in, so the window always shows the
   * band 2.04–2.71 in from the top and 0.875–4.375 in from the left. The block stays inside it.
   * Verify against the envelope stock in use.
   */
  payeeWindow: { x: 0.9 * IN, top: 2.09 * IN, bottom: 2.7 * IN, width: 3.45 * IN, maxAddressLines: 4 },
} as const;

const LEFT = 0.5 * IN;
const RIGHT = 8.0 * IN;
const MAX_FROM_ADDRESS_LINES = 4;

const INK = '#000000';
const RULE = '#444444';
const LABEL = '#333333';
const VOID_RED = '#c8102e';

// ---------------------------------------------------------------- small helpers

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-11-21" → "11/21/2026"; refuses strings that are not real calendar dates. */
export function formatCheckDate(isoDate: string, field: string): string {
  const m = ISO_DATE.exec(isoDate);
  const date = m ? new Date(`${isoDate}T00:00:00Z`) : null;
  if (!m || date === null || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== isoDate) {
    throw new RenderInputError('invalid_date', field, `${field} must be a real date in YYYY-MM-DD form`);
  }
  return `${m[2]}/${m[3]}/${m[1]}`;
}

function formatQuantity(quantity: number): string {
  return Number.isInteger(quantity) ? String(quantity) : String(Number(quantity.toFixed(3)));
}

interface TextStyle {
  readonly font: FontName;
  readonly size: number;
  readonly align?: Align;
  /** When given, text longer than this is shortened with "…". */
  readonly maxWidth?: number;
  readonly color?: string;
}

/** Longest prefix of text that fits maxWidth with "…" appended (or the text itself if it fits). */
function fitText(doc: Pdf, text: string, maxWidth: number): string {
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
function put(doc: Pdf, text: string, x: number, y: number, style: TextStyle): void {
  if (text === '') return;
  doc.font(style.font).fontSize(style.size).fillColor(style.color ?? INK);
  const shown = style.maxWidth === undefined ? text : fitText(doc, text, style.maxWidth);
  const align = style.align ?? 'left';
  // Measuring costs a kerning lookup per character pair; left-aligned text does not need it.
  const left = align === 'left' ? x : align === 'right' ? x - doc.widthOfString(shown) : x - doc.widthOfString(shown) / 2;
  doc.text(shown, left, y, { lineBreak: false });
}

function rule(doc: Pdf, x1: number, x2: number, y: number, width = 0.6): void {
  doc.moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(RULE).stroke();
}

/** Largest font size ≤ max at which text fits width, or null if it does not fit even at min. */
function sizeToFit(doc: Pdf, text: string, font: FontName, max: number, min: number, width: number): number | null {
  for (let size = max; size >= min; size -= 0.5) {
    doc.font(font).fontSize(size);
    if (doc.widthOfString(text) <= width) return size;
  }
  return null;
}

// ---------------------------------------------------------------- validation

interface PreparedCheck {
  readonly doc: CheckDocument;
  readonly micr: PositionedMicrChar[];
  readonly date: string;
  readonly voucherDate: string | null;
  readonly signature: PreparedImage | null;
}

function signatureError(detail: string): RenderInputError {
  return new RenderInputError('invalid_signature_image', 'signature.data', `signature image could not be read: ${detail}`);
}

function isCents(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/** Checks everything that could make a printed check wrong, before any drawing starts. */
function prepare(doc: CheckDocument): PreparedCheck {
  const micr = layoutMicrLine({
    routingNumber: doc.routingNumber,
    accountNumber: doc.accountNumber,
    serialNumber: doc.checkNumber,
  });
  const date = formatCheckDate(doc.issueDate, 'issueDate');
  checkPrintOffset(doc.printOffset);
  if (!doc.noAmount) {
    if (doc.amountCents === null) {
      throw new RenderInputError('amount_required', 'amountCents', 'amount is required unless noAmount is set');
    }
    if (!Number.isSafeInteger(doc.amountCents) || doc.amountCents < 1 || doc.amountCents > MAX_AMOUNT_CENTS) {
      throw new RenderInputError('invalid_amount', 'amountCents', 'amount must be whole cents from 0.01 to 99,999,999.99');
    }
  }
  if (!doc.noPayee && doc.payee === null) {
    throw new RenderInputError('payee_required', 'payee', 'payee is required unless noPayee is set');
  }
  if (doc.payee !== null && doc.payee.addressLines.length > CHECK_PAGE_LAYOUT.payeeWindow.maxAddressLines) {
    throw new RenderInputError(
      'text_too_long',
      'payee.addressLines',
      `the envelope window shows the payee name and at most ${CHECK_PAGE_LAYOUT.payeeWindow.maxAddressLines} address lines`,
    );
  }
  if (doc.from.addressLines.length > MAX_FROM_ADDRESS_LINES) {
    throw new RenderInputError('text_too_long', 'from.addressLines', `at most ${MAX_FROM_ADDRESS_LINES} from-address lines`);
  }
  let signature: PreparedImage | null = null;
  if (doc.signature !== null && !doc.noSign) {
    const data = doc.signature.data;
    if (!isPng(data) && !isJpeg(data)) {
      throw new RenderInputError('invalid_signature_image', 'signature.data', 'signature must be PNG or JPEG bytes');
    }
    try {
      signature = prepareImage(data);
    } catch (error) {
      throw signatureError(error instanceof Error ? error.message : String(error));
    }
  }
  let voucherDate: string | null = null;
  if (doc.voucher !== null) {
    if (doc.voucher.date !== null) voucherDate = formatCheckDate(doc.voucher.date, 'voucher.date');
    doc.voucher.items.forEach((item, i) => {
      if (!isCents(item.unitCostCents) || !isCents(item.totalCents) || !Number.isFinite(item.quantity)) {
        throw new RenderInputError(
          'invalid_voucher',
          `voucher.items[${i}]`,
          'voucher item amounts must be whole non-negative cents and quantity a finite number',
        );
      }
    });
  }
  return { doc, micr, date, voucherDate, signature };
}

// ---------------------------------------------------------------- check face

function drawFrom(doc: Pdf, from: CheckParty): void {
  put(doc, from.name, LEFT, 0.3 * IN, { font: 'Helvetica-Bold', size: 10, maxWidth: 2.6 * IN });
  from.addressLines.forEach((line, i) => {
    put(doc, line, LEFT, 0.3 * IN + 13 + i * 10, { font: 'Helvetica', size: 8.5, maxWidth: 2.6 * IN });
  });
}

function element(doc: CheckDocument, key: CustomElementKey): string {
  return doc.customElements[key] ?? '';
}

function drawAmountBox(doc: Pdf, check: CheckDocument): void {
  const box = { x: 6.4 * IN, y: 1.12 * IN, width: 1.6 * IN, height: 0.3 * IN };
  put(doc, '$', box.x - 4, box.y + 5, { font: 'Helvetica-Bold', size: 12, align: 'right' });
  doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.8).strokeColor(RULE).stroke();
  if (check.noAmount || check.amountCents === null) return;
  // Protective fill: asterisks from the box's left edge up to the figures, so nothing can be
  // written in front of the amount.
  const figures = formatCents(check.amountCents);
  doc.font('Helvetica-Bold').fontSize(11);
  const room = box.width - 10 - doc.widthOfString(figures);
  const stars = Math.max(2, Math.floor(room / doc.widthOfString('*')));
  put(doc, `${'*'.repeat(stars)}${figures}`, box.x + box.width - 5, box.y + 6.5, {
    font: 'Helvetica-Bold',
    size: 11,
    align: 'right',
  });
}

function drawLegalLine(doc: Pdf, check: CheckDocument): void {
  const y = 1.6 * IN;
  const dollarsX = 7.35 * IN;
  put(doc, 'Dollars', dollarsX, y + 1, { font: 'Helvetica', size: 9 });
  rule(doc, LEFT, RIGHT, y + 12);
  if (check.noAmount || check.amountCents === null) return;
  const words = amountInWords(check.amountCents);
  const room = dollarsX - 6 - LEFT;
  // The longest legal line the amount field allows (77,777,777.77 in words) fits at 9.5 pt.
  const size = sizeToFit(doc, `${words} ***`, 'Helvetica', 10, 7, room) ?? 7;
  doc.font('Helvetica').fontSize(size);
  const stars = Math.floor((room - doc.widthOfString(`${words} `)) / doc.widthOfString('*'));
  put(doc, `${words} ${'*'.repeat(Math.max(3, stars))}`, LEFT, y + (10 - size) / 2 + 1, { font: 'Helvetica', size });
}

function drawPayee(doc: Pdf, check: CheckDocument): void {
  const y = 1.2 * IN;
  put(doc, 'PAY TO THE', LEFT, y, { font: 'Helvetica', size: 6.5, color: LABEL });
  put(doc, 'ORDER OF', LEFT, y + 8, { font: 'Helvetica', size: 6.5, color: LABEL });
  const nameX = 1.15 * IN;
  const nameRight = 6.05 * IN;
  rule(doc, nameX - 4, nameRight, y + 16);
  if (check.noPayee || check.payee === null) return;
  const payee = check.payee;
  const size = sizeToFit(doc, payee.name, 'Helvetica-Bold', 11, 7, nameRight - nameX);
  if (size === null) {
    throw new RenderInputError('text_too_long', 'payee.name', 'payee name does not fit on the pay line');
  }
  put(doc, payee.name, nameX, y + 3 + (11 - size), { font: 'Helvetica-Bold', size });

  // Name and mailing address again, where the envelope window shows them.
  // Up to 4 lines get 9.5-pt type on 10.5-pt spacing; a fifth tightens both (to about 8 pt) so the
  // block still ends inside the window. A line's ink reaches ~0.93 em below its top (Helvetica).
  const w = CHECK_PAGE_LAYOUT.payeeWindow;
  const lines = [payee.name, ...payee.addressLines];
  const lineHeight = Math.min(10.5, (w.bottom - w.top + 1) / (lines.length - 1 + 0.93));
  const blockSize = Math.min(9.5, lineHeight - 1);
  lines.forEach((line, i) => {
    put(doc, line, w.x, w.top + i * lineHeight, { font: 'Helvetica', size: blockSize, maxWidth: w.width });
  });
}

function drawSignature(doc: Pdf, prepared: PreparedCheck): void {
  const lineY = 2.6 * IN;
  // Starts right of where the envelope window can reach (5 3/8 in), so no signature shows through it.
  const x1 = 5.4 * IN;
  rule(doc, x1, RIGHT, lineY, 0.8);
  put(doc, 'AUTHORIZED SIGNATURE', (x1 + RIGHT) / 2, lineY + 3, {
    font: 'Helvetica',
    size: 6,
    align: 'center',
    color: LABEL,
  });
  if (prepared.doc.noSign || prepared.signature === null) return;
  const box = { x: x1 + 0.1 * IN, y: 2.05 * IN, width: RIGHT - x1 - 0.2 * IN, height: lineY - 2.05 * IN - 1 };
  try {
    drawImageInBox(doc, prepared.signature, box);
  } catch (error) {
    throw signatureError(error instanceof Error ? error.message : String(error));
  }
}

function drawVoidMark(doc: Pdf): void {
  // Test checks must never pass for real ones: a large red stamp across the face, kept above the
  // MICR clear band so it cannot disturb magnetic reading.
  const cx = PAGE_WIDTH / 2;
  const cy = 1.45 * IN;
  doc.save();
  doc.rotate(-10, { origin: [cx, cy] });
  doc.fillOpacity(0.55);
  put(doc, 'VOID — TEST', cx, cy - 24, { font: 'Helvetica-Bold', size: 48, align: 'center', color: VOID_RED });
  put(doc, 'NOT NEGOTIABLE — TEST ENVIRONMENT', cx, cy + 26, {
    font: 'Helvetica-Bold',
    size: 10,
    align: 'center',
    color: VOID_RED,
  });
  doc.restore();
}

function drawCheckFace(doc: Pdf, prepared: PreparedCheck): void {
  const check = prepared.doc;
  drawFrom(doc, check.from);

  const bankX = 4.35 * IN;
  put(doc, check.bankName, bankX, 0.3 * IN, { font: 'Helvetica-Bold', size: 9, align: 'center', maxWidth: 2.5 * IN });
  put(doc, element(check, 'element1'), bankX, 0.3 * IN + 12, { font: 'Helvetica', size: 7.5, align: 'center', maxWidth: 2.5 * IN });
  put(doc, element(check, 'element2'), bankX, 0.3 * IN + 22, { font: 'Helvetica', size: 7.5, align: 'center', maxWidth: 2.5 * IN });

  put(doc, check.checkNumber, RIGHT, 0.28 * IN, { font: 'Helvetica-Bold', size: 12, align: 'right' });
  put(doc, element(check, 'element3'), RIGHT, 0.28 * IN + 16, { font: 'Helvetica', size: 7, align: 'right', maxWidth: 2 * IN });
  put(doc, element(check, 'element4'), RIGHT, 0.28 * IN + 25, { font: 'Helvetica', size: 7, align: 'right', maxWidth: 2 * IN });

  const dateY = 0.86 * IN;
  put(doc, 'DATE', 6.0 * IN, dateY + 4, { font: 'Helvetica', size: 6.5, color: LABEL });
  rule(doc, 6.35 * IN, RIGHT, dateY + 13);
  if (!check.noDate) put(doc, prepared.date, 6.45 * IN, dateY + 1, { font: 'Helvetica', size: 10 });

  drawPayee(doc, check);
  drawAmountBox(doc, check);
  drawLegalLine(doc, check);

  put(doc, element(check, 'element5'), RIGHT, 1.83 * IN, { font: 'Helvetica', size: 7, align: 'right', maxWidth: 2.9 * IN });
  put(doc, element(check, 'element6'), RIGHT, 1.83 * IN + 9, { font: 'Helvetica', size: 7, align: 'right', maxWidth: 2.9 * IN });

  // The memo sits under the window block and ends above the clear band (2.875 in from the top).
  const memoY = 2.715 * IN;
  put(doc, 'MEMO', LEFT, memoY + 2.5, { font: 'Helvetica', size: 6.5, color: LABEL });
  rule(doc, 0.9 * IN, 4.4 * IN, memoY + 10);
  if (check.memo !== null) put(doc, check.memo, 0.95 * IN, memoY, { font: 'Helvetica', size: 8.5, maxWidth: 3.4 * IN });

  drawSignature(doc, prepared);
  if (check.environment === 'test') drawVoidMark(doc);

  // Nothing above may reach into the clear band; only the MICR line is drawn there.
  drawMicrLine(doc, prepared.micr, CHECK_PAGE_LAYOUT.check.x, CHECK_PAGE_LAYOUT.check.y);
}

// ---------------------------------------------------------------- stubs

const ROW = 11;

function drawVoucherTable(doc: Pdf, check: CheckDocument, top: number, bottom: number): void {
  const voucher = check.voucher;
  if (voucher === null) return;
  const cols = {
    invoice: LEFT,
    description: 1.75 * IN,
    quantityRight: 5.7 * IN,
    unitRight: 6.8 * IN,
    totalRight: RIGHT,
  };
  const header = top;
  const label: TextStyle = { font: 'Helvetica-Bold', size: 8, color: LABEL };
  put(doc, 'Invoice', cols.invoice, header, label);
  put(doc, 'Description', cols.description, header, label);
  put(doc, 'Qty', cols.quantityRight, header, { ...label, align: 'right' });
  put(doc, 'Unit cost', cols.unitRight, header, { ...label, align: 'right' });
  put(doc, 'Total', cols.totalRight, header, { ...label, align: 'right' });
  rule(doc, LEFT, RIGHT, header + 11, 0.4);

  // Rows that fit above the total line; the rest are summarised in one line (and still counted in the total).
  const firstRow = header + 15;
  const capacity = Math.max(1, Math.floor((bottom - 16 - firstRow) / ROW));
  const items = voucher.items;
  const shown = items.length > capacity ? items.slice(0, capacity - 1) : items;
  const row: TextStyle = { font: 'Helvetica', size: 8.5 };
  shown.forEach((item: VoucherItem, i) => {
    const y = firstRow + i * ROW;
    const description = item.description.trim() === '' ? item.name : `${item.name} — ${item.description}`;
    put(doc, item.invoiceNumber, cols.invoice, y, { ...row, maxWidth: cols.description - cols.invoice - 6 });
    put(doc, description, cols.description, y, { ...row, maxWidth: cols.quantityRight - 0.5 * IN - cols.description });
    put(doc, formatQuantity(item.quantity), cols.quantityRight, y, { ...row, align: 'right' });
    put(doc, formatCents(item.unitCostCents), cols.unitRight, y, { ...row, align: 'right' });
    put(doc, formatCents(item.totalCents), cols.totalRight, y, { ...row, align: 'right' });
  });
  let y = firstRow + shown.length * ROW;
  if (shown.length < items.length) {
    const more = items.length - shown.length;
    put(doc, `… and ${more} more item${more === 1 ? '' : 's'}`, cols.description, y, { ...row, color: LABEL });
    y += ROW;
  }
  rule(doc, 5.0 * IN, RIGHT, y + 1, 0.4);
  const total = items.reduce((sum, item) => sum + item.totalCents, 0);
  put(doc, 'Total', cols.unitRight, y + 4, { font: 'Helvetica-Bold', size: 8.5, align: 'right' });
  put(doc, `$${formatCents(total)}`, cols.totalRight, y + 4, { font: 'Helvetica-Bold', size: 8.5, align: 'right' });
}

function drawStubDetails(doc: Pdf, prepared: PreparedCheck, top: number): void {
  const check = prepared.doc;
  const rows: Array<[string, string]> = [
    ['Payee', check.noPayee || check.payee === null ? '' : check.payee.name],
    ['Date', check.noDate ? '' : prepared.date],
    ['Amount', check.noAmount || check.amountCents === null ? '' : `$${formatCents(check.amountCents)}`],
    ['Memo', check.memo ?? ''],
    ['Invoice number', check.invoiceNumber ?? ''],
  ];
  rows.forEach(([label, value], i) => {
    const y = top + i * 14;
    put(doc, label, LEFT, y + 1, { font: 'Helvetica-Bold', size: 8, color: LABEL });
    put(doc, value, 1.6 * IN, y, { font: 'Helvetica', size: 9.5, maxWidth: RIGHT - 1.6 * IN });
  });
}

function drawStub(doc: Pdf, prepared: PreparedCheck, top: number, height: number, tableBottom: number): void {
  const check = prepared.doc;
  put(doc, check.from.name, LEFT, top + 0.3 * IN, { font: 'Helvetica-Bold', size: 10, maxWidth: 3 * IN });
  put(doc, `Check No. ${check.checkNumber}`, RIGHT, top + 0.3 * IN, { font: 'Helvetica-Bold', size: 10, align: 'right' });
  if (check.environment === 'test') {
    put(doc, 'VOID — TEST', PAGE_WIDTH / 2 + 0.6 * IN, top + 0.28 * IN, {
      font: 'Helvetica-Bold',
      size: 12,
      align: 'center',
      color: VOID_RED,
    });
  }

  const infoY = top + 0.55 * IN;
  const payee = check.noPayee || check.payee === null ? '' : check.payee.name;
  put(doc, payee === '' ? '' : `Pay to: ${payee}`, LEFT, infoY, { font: 'Helvetica', size: 9, maxWidth: 4.3 * IN });
  if (!check.noDate) put(doc, `Date: ${prepared.date}`, 5.0 * IN, infoY, { font: 'Helvetica', size: 9 });
  if (!check.noAmount && check.amountCents !== null) {
    put(doc, `$${formatCents(check.amountCents)}`, RIGHT, infoY, { font: 'Helvetica-Bold', size: 9, align: 'right' });
  }
  rule(doc, LEFT, RIGHT, infoY + 13, 0.5);

  const footerLines = CUSTOM_ELEMENT_KEYS.slice(6).map((k) => element(check, k)).filter((v) => v !== '');
  const footerTop = top + height - 0.3 * IN - footerLines.length * 9;
  footerLines.forEach((line, i) => {
    put(doc, line, LEFT, footerTop + i * 9, { font: 'Helvetica', size: 7.5, maxWidth: RIGHT - LEFT, color: LABEL });
  });

  const bodyTop = infoY + 0.3 * IN;
  if (check.voucher === null) {
    drawStubDetails(doc, prepared, bodyTop);
    return;
  }
  const v = check.voucher;
  const heading = [
    v.voucherNumber === null ? '' : `Voucher ${v.voucherNumber}`,
    prepared.voucherDate === null ? '' : `Voucher date ${prepared.voucherDate}`,
    v.memo === null ? '' : `Memo: ${v.memo}`,
  ].filter((s) => s !== '');
  put(doc, heading.join('    '), LEFT, bodyTop - 6, { font: 'Helvetica', size: 8.5, maxWidth: RIGHT - LEFT });
  // Both stubs show the same rows, so the shorter stub sets the capacity.
  drawVoucherTable(doc, check, bodyTop + 10, Math.min(tableBottom, footerTop) - 4);
}

function drawPerforationGuide(doc: Pdf, y: number): void {
  // A faint guide for blank stock; pre-perforated stock tears here. Drawn 1 pt below the check so it
  // stays out of the check's clear band.
  doc.save();
  doc.moveTo(0.25 * IN, y).lineTo(PAGE_WIDTH - 0.25 * IN, y).lineWidth(0.3).dash(2, { space: 3 }).strokeColor('#999999').stroke();
  doc.undash();
  doc.restore();
}

function drawPage(doc: Pdf, prepared: PreparedCheck): void {
  drawCheckFace(doc, prepared);
  const [first, second] = CHECK_PAGE_LAYOUT.stubs;
  const shortest = Math.min(first.height, second.height);
  for (const stub of CHECK_PAGE_LAYOUT.stubs) {
    drawPerforationGuide(doc, stub.y + 1);
    drawStub(doc, prepared, stub.y, stub.height, stub.y + shortest - 0.3 * IN);
  }
}

// ---------------------------------------------------------------- entry points

/** Fixed document date (the first check's issue date, midnight UTC) so equal input gives equal bytes. */
function creationDate(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00Z`);
}

/** Renders several checks into one PDF, one check (with its two stubs) per page. */
export async function renderChecksPdf(docs: readonly CheckDocument[]): Promise<Buffer> {
  const [first] = docs;
  if (first === undefined) throw new RenderInputError('empty_batch', 'checks', 'no checks to render');
  // Validate every check before drawing anything, so a bad one fails the batch without a half-made PDF.
  const prepared = docs.map((d, i) => {
    try {
      return prepare(d);
    } catch (error) {
      throw error instanceof RenderInputError && docs.length > 1 ? error.atIndex(i) : error;
    }
  });

  const pdf: Pdf = new PDFDocument({
    size: 'LETTER',
    margin: 0,
    autoFirstPage: false,
    compress: true,
    info: {
      Title: docs.length === 1 ? `Check ${first.checkNumber}` : `Checks (${docs.length})`,
      Producer: 'checkwriter',
      Creator: 'checkwriter',
      CreationDate: creationDate(first.issueDate),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  for (const p of prepared) {
    pdf.addPage({ size: 'LETTER', margin: 0 });
    shiftPage(pdf, p.doc.printOffset);
    drawPage(pdf, p);
  }
  pdf.end();
  return done;
}

/** Renders one check on a letter page with its two stubs. */
export async function renderCheckPdf(doc: CheckDocument): Promise<Buffer> {
  return renderChecksPdf([doc]);
}

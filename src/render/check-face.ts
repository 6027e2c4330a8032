import { amountInWords } from '../domain/amount-words.ts';
import { formatCents } from '../domain/money.ts';
import type { CheckDocument, CheckParty, CustomElementKey } from './check-document.ts';
import {
  CHECK_PAGE_LAYOUT,
  IN,
  LABEL,
  LEFT,
  PAGE_WIDTH,
  put,
  RIGHT,
  RULE,
  rule,
  sizeToFit,
  VOID_RED,
} from './check-layout.ts';
import { type PreparedCheck, signatureError } from './check-validation.ts';
import { drawMicrLine } from './micr-line.ts';
import type { Pdf } from './pdf-document.ts';
import { type CheckStock, stockDraws } from './print-layout.ts';
import { RenderInputError } from './render-error.ts';
import { drawImageInBox, type PreparedImage } from './signature-image.ts';

/** Where a logo goes: the top left corner, inside the upper window of a double-window envelope. */
export const LOGO_BOX = { x: LEFT, y: 0.22 * IN, width: 0.8 * IN, height: 0.55 * IN };

/** The signature line's height on the check, and where the signature area starts (right of the envelope window). */
const SIGNATURE_LINE_Y = 2.6 * IN;
const SIGNATURE_X = 5.4 * IN;

/** Where a signature image goes: above the signature line, resting on it. */
export const SIGNATURE_BOX = {
  x: SIGNATURE_X + 0.1 * IN,
  y: 2.05 * IN,
  width: RIGHT - SIGNATURE_X - 0.2 * IN,
  height: SIGNATURE_LINE_Y - 2.05 * IN - 1,
};

export function drawFrom(doc: Pdf, from: CheckParty, logo: PreparedImage | null = null): void {
  // With a logo the text starts right of it and keeps the same right edge (3.1 in).
  let x = LEFT;
  if (logo !== null) {
    try {
      drawImageInBox(doc, logo, LOGO_BOX);
      x = LEFT + LOGO_BOX.width + 0.1 * IN;
    } catch {
      // A logo is decoration: one that cannot be read is left out, the check still prints.
    }
  }
  const maxWidth = 3.1 * IN - x;
  put(doc, from.name, x, 0.3 * IN, { font: 'Helvetica-Bold', size: 10, maxWidth });
  from.addressLines.forEach((line, i) => {
    put(doc, line, x, 0.3 * IN + 13 + i * 10, { font: 'Helvetica', size: 8.5, maxWidth });
  });
}

export function element(doc: CheckDocument, key: CustomElementKey): string {
  return doc.customElements[key] ?? '';
}

// Each part of the face below draws its caption, rule or box only when the stock does not carry
// it (`captions`), and its value always, at the same place: a check looks filled in the same way
// on blank and on pre-printed paper.

export function drawAmountBox(doc: Pdf, check: CheckDocument, captions: boolean): void {
  const box = { x: 6.4 * IN, y: 1.12 * IN, width: 1.6 * IN, height: 0.3 * IN };
  if (captions) {
    put(doc, '$', box.x - 4, box.y + 5, { font: 'Helvetica-Bold', size: 12, align: 'right' });
    doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.8).strokeColor(RULE).stroke();
  }
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

export function drawLegalLine(doc: Pdf, check: CheckDocument, captions: boolean): void {
  const y = 1.6 * IN;
  const dollarsX = 7.35 * IN;
  if (captions) {
    put(doc, 'Dollars', dollarsX, y + 1, { font: 'Helvetica', size: 9 });
    rule(doc, LEFT, RIGHT, y + 12);
  }
  if (check.noAmount || check.amountCents === null) return;
  const words = amountInWords(check.amountCents);
  const room = dollarsX - 6 - LEFT;
  // The longest legal line the amount field allows (77,777,777.77 in words) fits at 9.5 pt.
  const size = sizeToFit(doc, `${words} ***`, 'Helvetica', 10, 7, room) ?? 7;
  doc.font('Helvetica').fontSize(size);
  const stars = Math.floor((room - doc.widthOfString(`${words} `)) / doc.widthOfString('*'));
  put(doc, `${words} ${'*'.repeat(Math.max(3, stars))}`, LEFT, y + (10 - size) / 2 + 1, { font: 'Helvetica', size });
}

export function drawPayee(doc: Pdf, check: CheckDocument, captions: boolean): void {
  const y = 1.2 * IN;
  const nameX = 1.15 * IN;
  const nameRight = 6.05 * IN;
  if (captions) {
    put(doc, 'PAY TO THE', LEFT, y, { font: 'Helvetica', size: 6.5, color: LABEL });
    put(doc, 'ORDER OF', LEFT, y + 8, { font: 'Helvetica', size: 6.5, color: LABEL });
    rule(doc, nameX - 4, nameRight, y + 16);
  }
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

export function drawSignature(doc: Pdf, prepared: PreparedCheck, captions: boolean): void {
  const lineY = SIGNATURE_LINE_Y;
  // Starts right of where the envelope window can reach (5 3/8 in), so no signature shows through it.
  const x1 = SIGNATURE_X;
  if (captions) {
    rule(doc, x1, RIGHT, lineY, 0.8);
    put(doc, 'AUTHORIZED SIGNATURE', (x1 + RIGHT) / 2, lineY + 3, {
      font: 'Helvetica',
      size: 6,
      align: 'center',
      color: LABEL,
    });
  }
  if (prepared.doc.noSign || prepared.signature === null) return;
  try {
    drawImageInBox(doc, prepared.signature, SIGNATURE_BOX);
  } catch (error) {
    throw signatureError(error instanceof Error ? error.message : String(error));
  }
}

export const TEST_MARK_LINE = 'NOT NEGOTIABLE — TEST ENVIRONMENT — TEST ACCOUNT NUMBER';

export function drawVoidMark(doc: Pdf): void {
  // Test checks must never pass for real ones: a large red stamp across the face, kept above the
  // MICR clear band so it cannot disturb magnetic reading.
  const cx = PAGE_WIDTH / 2;
  const cy = 1.45 * IN;
  doc.save();
  doc.rotate(-10, { origin: [cx, cy] });
  doc.fillOpacity(0.55);
  put(doc, 'VOID — TEST', cx, cy - 24, { font: 'Helvetica-Bold', size: 48, align: 'center', color: VOID_RED });
  // The MICR line of a test check carries a test account number (domain/account-number.ts): say so.
  put(doc, TEST_MARK_LINE, cx, cy + 26, {
    font: 'Helvetica-Bold',
    size: 10,
    align: 'center',
    color: VOID_RED,
  });
  doc.restore();
}

/**
 * The preview stamp: across the face, below the test stamp and above the memo and
 * the MICR clear band, so whoever holds the paper sees it is no check to send.
 */
export function drawPreviewMark(doc: Pdf): void {
  const cx = PAGE_WIDTH / 2;
  doc.save();
  doc.fillOpacity(0.6);
  put(doc, PREVIEW_MARK, cx, 1.88 * IN, { font: 'Helvetica-Bold', size: 26, align: 'center', color: VOID_RED });
  put(
    doc,
    'This check is not printed yet: print it from its page in the panel, so positive pay lists it.',
    cx,
    2.28 * IN,
    {
      font: 'Helvetica-Bold',
      size: 8,
      align: 'center',
      color: VOID_RED,
    },
  );
  doc.restore();
}

export const PREVIEW_MARK = 'PREVIEW — NOT PRINTED';

export const NOT_APPROVED_MARK = 'NOT APPROVED — NOT NEGOTIABLE';

/** The stamp of a check that still waits for its approvals: where the preview's stamp goes. */
export function drawNotApprovedMark(doc: Pdf): void {
  const cx = PAGE_WIDTH / 2;
  doc.save();
  doc.fillOpacity(0.6);
  put(doc, NOT_APPROVED_MARK, cx, 1.88 * IN, { font: 'Helvetica-Bold', size: 22, align: 'center', color: VOID_RED });
  put(doc, 'This check waits for approval: it carries no MICR line and no bank may pay it.', cx, 2.28 * IN, {
    font: 'Helvetica-Bold',
    size: 8,
    align: 'center',
    color: VOID_RED,
  });
  doc.restore();
}

/**
 * Draws the check face with its top-left corner at the current origin (the caller moves the
 * origin to the layout's slot). The stock decides which fixed parts are drawn; the filled-in
 * fields are drawn on every stock at the same coordinates.
 */
export function drawCheckFace(doc: Pdf, prepared: PreparedCheck, stock: CheckStock, withMicr = true): void {
  const check = prepared.doc;
  const captions = stockDraws(stock, 'captions');
  // The drawer's name, address and logo are already on pre-printed paper.
  if (stockDraws(stock, 'from')) drawFrom(doc, check.from, prepared.logo);

  const bankX = 4.35 * IN;
  if (stockDraws(stock, 'bankName')) {
    put(doc, check.bankName, bankX, 0.3 * IN, { font: 'Helvetica-Bold', size: 9, align: 'center', maxWidth: 2.5 * IN });
  }
  if (stockDraws(stock, 'checkNumber')) {
    put(doc, check.checkNumber, RIGHT, 0.28 * IN, { font: 'Helvetica-Bold', size: 12, align: 'right' });
  }
  if (stockDraws(stock, 'faceCustomElements')) drawFaceCustomElements(doc, check, bankX);

  const dateY = 0.86 * IN;
  if (captions) {
    put(doc, 'DATE', 6.0 * IN, dateY + 4, { font: 'Helvetica', size: 6.5, color: LABEL });
    rule(doc, 6.35 * IN, RIGHT, dateY + 13);
  }
  if (!check.noDate) put(doc, prepared.date, 6.45 * IN, dateY + 1, { font: 'Helvetica', size: 10 });

  drawPayee(doc, check, captions);
  drawAmountBox(doc, check, captions);
  drawLegalLine(doc, check, captions);

  // The memo sits under the window block and ends above the clear band (2.875 in from the top).
  const memoY = 2.715 * IN;
  if (captions) {
    put(doc, 'MEMO', LEFT, memoY + 2.5, { font: 'Helvetica', size: 6.5, color: LABEL });
    rule(doc, 0.9 * IN, 4.4 * IN, memoY + 10);
  }
  if (check.memo !== null) put(doc, check.memo, 0.95 * IN, memoY, { font: 'Helvetica', size: 8.5, maxWidth: 3.4 * IN });

  drawSignature(doc, prepared, captions);
  if (check.environment === 'test') drawVoidMark(doc);

  // Nothing above may reach into the clear band; only the MICR line is drawn there.
  if (withMicr && stockDraws(stock, 'micr')) drawMicrLine(doc, prepared.micr, 0, 0);
}

/** Custom elements 1–6: under the bank name, under the check number, and right of the legal line. */
function drawFaceCustomElements(doc: Pdf, check: CheckDocument, bankX: number): void {
  put(doc, element(check, 'element1'), bankX, 0.3 * IN + 12, {
    font: 'Helvetica',
    size: 7.5,
    align: 'center',
    maxWidth: 2.5 * IN,
  });
  put(doc, element(check, 'element2'), bankX, 0.3 * IN + 22, {
    font: 'Helvetica',
    size: 7.5,
    align: 'center',
    maxWidth: 2.5 * IN,
  });
  put(doc, element(check, 'element3'), RIGHT, 0.28 * IN + 16, {
    font: 'Helvetica',
    size: 7,
    align: 'right',
    maxWidth: 2 * IN,
  });
  put(doc, element(check, 'element4'), RIGHT, 0.28 * IN + 25, {
    font: 'Helvetica',
    size: 7,
    align: 'right',
    maxWidth: 2 * IN,
  });
  put(doc, element(check, 'element5'), RIGHT, 1.83 * IN, {
    font: 'Helvetica',
    size: 7,
    align: 'right',
    maxWidth: 2.9 * IN,
  });
  put(doc, element(check, 'element6'), RIGHT, 1.83 * IN + 9, {
    font: 'Helvetica',
    size: 7,
    align: 'right',
    maxWidth: 2.9 * IN,
  });
}

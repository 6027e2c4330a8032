// The MICR test page: printed on plain paper before real checks, so an operator can check the
// printer's scaling and offsets with a ruler (docs/printing.md). It shows the bank account's MICR
// line at its true place on a check-sized area, the full E-13B character set enlarged and at true
// size, a full line with every field, a 6-inch and a 1-inch ruler and four alignment marks.
// The whole page moves with the bank account's printer offset, like its checks.

import { letterPdf, type Pdf } from './pdf-document.ts';
import { formatOffset, type PrintOffset } from '../domain/print-offset.ts';
import type { CheckEnvironment } from './check-document.ts';
import { E13B_GLYPHS, E13B_UNIT_PT, MICR_CHARS, type MicrChar } from './e13b-glyphs.ts';
import {
  drawMicrLine,
  fillMicrChar,
  layoutMicrLine,
  micrPositionRight,
  MICR_BASELINE_PT,
  STANDARD_CHECK_AREA,
} from './micr-line.ts';
import { checkPrintOffset, shiftPage } from './page-offset.ts';
import { maskAccountNumber } from '../domain/account-number.ts';

const IN = 72;

export interface MicrTestPageInput {
  readonly environment: CheckEnvironment;
  readonly bankAccountName: string;
  readonly bankName: string;
  readonly routingNumber: string;
  readonly accountNumber: string;
  /** The next check number: the sample line is the one the next check would carry. */
  readonly serialNumber: string;
  readonly printOffset: PrintOffset;
  /** The PDF's creation date. */
  readonly createdAt: Date;
}

/** The sample amount printed in the full line's amount field ($1,234.56): checks leave that field blank. */
export const MICR_TEST_PAGE_SAMPLE_AMOUNT_CENTS = 123456;

/**
 * Where things are, in points from the page's top-left corner before the printer offset: the
 * operator measures these with a ruler, and the tests read them back from the PDF.
 */
export const MICR_TEST_PAGE_LAYOUT = {
  /** The check area, as on a check-on-top page: the top 8.5 × 3.5 in. */
  check: { width: STANDARD_CHECK_AREA.width, height: STANDARD_CHECK_AREA.height },
  /** Centres of the alignment marks, 1 in from the nearest side edges. */
  marks: [
    { label: 'A', x: 1 * IN, y: 1 * IN },
    { label: 'B', x: 7.5 * IN, y: 1 * IN },
    { label: 'C', x: 1 * IN, y: 2.5 * IN },
    { label: 'D', x: 7.5 * IN, y: 2.5 * IN },
  ],
  /** The 6-inch ruler: a horizontal line with ticks every 1/16 in; inch ticks labelled 0..6. */
  longRuler: { x: 1.25 * IN, y: 4.1 * IN, inches: 6 },
  /** The 1-inch ruler: vertical, ticks every 1/16 in, for the vertical scale. */
  shortRuler: { x: 0.6 * IN, y: 4.1 * IN, inches: 1 },
  /** The 14 characters, enlarged: this many points per E-13B unit, standing on this baseline. */
  enlarged: { unitPt: 4 * E13B_UNIT_PT, baseline: 6.05 * IN, pitch: 0.5 * IN, left: 0.75 * IN },
  /**
   * The 14 characters at true size, one every other MICR position (positions 40, 38, … 14 from the
   * right, 0 first), standing on this baseline.
   */
  characterSet: { baseline: 6.75 * IN, firstPosition: 40, step: 2 },
  /** A full MICR line (amount field filled with the sample amount), standing on this baseline. */
  fullLine: { baseline: 7.35 * IN },
} as const;

/** The characters of the true-size set, left to right, with the MICR position each stands in. */
export function characterSetPositions(): Array<{ char: MicrChar; position: number }> {
  const { firstPosition, step } = MICR_TEST_PAGE_LAYOUT.characterSet;
  return MICR_CHARS.map((char, i) => ({ char, position: firstPosition - step * i }));
}

function text(doc: Pdf, value: string, x: number, y: number, size: number, bold = false, color = '#000000'): void {
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(size)
    .fillColor(color)
    .text(value, x, y, { lineBreak: false });
}

function centred(doc: Pdf, value: string, centreX: number, y: number, size: number): void {
  doc.font('Helvetica').fontSize(size);
  text(doc, value, centreX - doc.widthOfString(value) / 2, y, size);
}

/** One stroke per tick, so each can be found again in the PDF. */
function line(doc: Pdf, x1: number, y1: number, x2: number, y2: number, width = 0.5): void {
  doc.moveTo(x1, y1).lineTo(x2, y2).lineWidth(width).strokeColor('#000000').stroke();
}

function tickLength(sixteenths: number): number {
  if (sixteenths % 16 === 0) return 14;
  if (sixteenths % 8 === 0) return 10;
  if (sixteenths % 4 === 0) return 7;
  if (sixteenths % 2 === 0) return 5;
  return 3;
}

function drawRulers(doc: Pdf): void {
  const long = MICR_TEST_PAGE_LAYOUT.longRuler;
  text(
    doc,
    `${long.inches}-inch ruler (ticks every 1/16 in): it must measure ${long.inches} in within 1/32 in`,
    long.x,
    long.y - 24,
    8,
    true,
  );
  line(doc, long.x, long.y, long.x + long.inches * IN, long.y, 0.6);
  for (let s = 0; s <= long.inches * 16; s += 1) {
    const x = long.x + (s * IN) / 16;
    line(doc, x, long.y, x, long.y + tickLength(s), s % 16 === 0 ? 0.8 : 0.4);
    if (s % 16 === 0) centred(doc, String(s / 16), x, long.y + 17, 8);
  }

  const short = MICR_TEST_PAGE_LAYOUT.shortRuler;
  line(doc, short.x, short.y, short.x, short.y + short.inches * IN, 0.6);
  for (let s = 0; s <= short.inches * 16; s += 1) {
    const y = short.y + (s * IN) / 16;
    line(doc, short.x, y, short.x + tickLength(s), y, s % 16 === 0 ? 0.8 : 0.4);
    if (s % 16 === 0) text(doc, String(s / 16), short.x + 17, y - 3, 8);
  }
  text(doc, '1 in', short.x - 4, short.y + short.inches * IN + 8, 7);
}

function drawMark(doc: Pdf, mark: { label: string; x: number; y: number }): void {
  const arm = 9;
  line(doc, mark.x - arm, mark.y, mark.x + arm, mark.y, 0.5);
  line(doc, mark.x, mark.y - arm, mark.x, mark.y + arm, 0.5);
  doc.circle(mark.x, mark.y, 5).lineWidth(0.5).strokeColor('#000000').stroke();
  const fromLeft = (mark.x / IN).toFixed(2);
  const fromTop = (mark.y / IN).toFixed(2);
  const fromRight = ((STANDARD_CHECK_AREA.width - mark.x) / IN).toFixed(2);
  const onLeft = mark.x < STANDARD_CHECK_AREA.width / 2;
  const label = `${mark.label}: ${onLeft ? `${fromLeft} in from left` : `${fromRight} in from right`}, ${fromTop} in from top`;
  doc.font('Helvetica').fontSize(7);
  text(doc, label, onLeft ? mark.x + 12 : mark.x - 12 - doc.widthOfString(label), mark.y + 4, 7);
}

function drawCheckArea(doc: Pdf, input: MicrTestPageInput): void {
  text(doc, 'MICR TEST PAGE — NOT A CHECK — DO NOT DEPOSIT', 0.5 * IN, 0.3 * IN, 13, true);
  const masked = maskAccountNumber(input.accountNumber);
  const bank = input.bankName === '' ? input.bankAccountName : `${input.bankAccountName} — ${input.bankName}`;
  text(
    doc,
    `${bank}: routing ${input.routingNumber}, account ${masked}, next check number ${input.serialNumber}`,
    0.5 * IN,
    0.3 * IN + 18,
    8,
  );
  text(
    doc,
    `Printer offsets in use for this bank account: X ${formatOffset(input.printOffset.x)} in, Y ${formatOffset(input.printOffset.y)} in (this page is shifted by them, like the checks).`,
    0.5 * IN,
    0.3 * IN + 29,
    8,
  );
  if (input.environment === 'test') text(doc, 'Test environment', 6.6 * IN, 0.3 * IN + 2, 9, true, '#c8102e');
  for (const mark of MICR_TEST_PAGE_LAYOUT.marks) drawMark(doc, mark);
  text(
    doc,
    "The MICR line below stands where it prints on this account's checks: bottoms 3/16 in above the check's bottom edge,",
    1.9 * IN,
    1.55 * IN,
    7,
  );
  text(
    doc,
    'position 1 ending 5/16 in from its right edge (so the on-us symbol at position 14 ends 1 15/16 in from it).',
    1.9 * IN,
    1.55 * IN + 9,
    7,
  );

  // The bottom edge of the check-sized area, as on check-on-top stock (perforated at 3.5 in).
  doc.save();
  doc
    .moveTo(0.25 * IN, STANDARD_CHECK_AREA.height)
    .lineTo(8.25 * IN, STANDARD_CHECK_AREA.height)
    .lineWidth(0.4)
    .dash(3, { space: 3 })
    .strokeColor('#666666')
    .stroke();
  doc.undash();
  doc.restore();
  text(
    doc,
    "3.5 in: bottom edge of the check (the MICR line's baseline is 3/16 in above it)",
    0.5 * IN,
    STANDARD_CHECK_AREA.height + 3,
    7,
    false,
    '#444444',
  );

  const micr = layoutMicrLine({
    routingNumber: input.routingNumber,
    accountNumber: input.accountNumber,
    serialNumber: input.serialNumber,
  });
  drawMicrLine(doc, micr, 0, 0);
}

function drawCharacterSets(doc: Pdf, input: MicrTestPageInput): void {
  const big = MICR_TEST_PAGE_LAYOUT.enlarged;
  text(doc, 'E-13B character set, 4 × size', big.left, big.baseline - 9 * big.unitPt - 16, 8, true);
  MICR_CHARS.forEach((char, i) => {
    const glyph = E13B_GLYPHS[char];
    const cellRight = big.left + i * big.pitch + 7 * big.unitPt;
    fillMicrChar(doc, char, cellRight - glyph.width * big.unitPt, big.baseline - glyph.raise * big.unitPt, big.unitPt);
    centred(doc, char === 'onUs' ? 'on-us' : char, cellRight - 3.5 * big.unitPt, big.baseline + 4, 7);
  });

  const set = MICR_TEST_PAGE_LAYOUT.characterSet;
  text(
    doc,
    'True size, one character every other 1/8-in position: 0 1 2 3 4 5 6 7 8 9 transit amount on-us dash',
    0.5 * IN,
    set.baseline - 0.3 * IN,
    8,
    true,
  );
  for (const { char, position } of characterSetPositions()) {
    const glyph = E13B_GLYPHS[char];
    const right = micrPositionRight(position);
    fillMicrChar(doc, char, right - glyph.width * E13B_UNIT_PT, set.baseline - glyph.raise * E13B_UNIT_PT);
  }

  const full = MICR_TEST_PAGE_LAYOUT.fullLine;
  text(
    doc,
    `A full line with every field (the amount field, here $1,234.56, is left blank on checks: the bank encodes it)`,
    0.5 * IN,
    full.baseline - 0.3 * IN,
    8,
    true,
  );
  const area = { width: STANDARD_CHECK_AREA.width, height: full.baseline + MICR_BASELINE_PT };
  const chars = layoutMicrLine(
    {
      routingNumber: input.routingNumber,
      accountNumber: input.accountNumber,
      serialNumber: input.serialNumber,
      amountCents: MICR_TEST_PAGE_SAMPLE_AMOUNT_CENTS,
    },
    area,
  );
  drawMicrLine(doc, chars, 0, 0);
}

const INSTRUCTIONS = [
  'How to use this page (docs/printing.md explains each step):',
  '1. Print it at actual size (100 %, never "fit to page") on the printer, tray and paper you use for checks.',
  "2. Measure the 6-inch ruler. If it is not 6 in within 1/32 in, fix the printer's scaling first: offsets only move the page.",
  "3. Measure from the paper's left edge to the centre of mark A, and from its top edge. Both should read 1.00 in.",
  '4. New offset = offset in use + 100 × (1.00 - measured), in hundredths of an inch: if A is 1.06 in from the left edge,',
  '    X = 0 + 100 × (1.00 - 1.06) = -6. Positive X moves the print right, positive Y moves it down (at most ±50).',
  '5. Set them on the bank account: PUT /api/v3/bankAccounts/{id} with {"printOffsetX": -6, "printOffsetY": 3}.',
  '6. Print this page again: marks A to D should now measure as labelled, and the MICR characters stand 3/16 in above the',
  '    3.5-in line. Checks printed for this bank account move by the same offsets.',
  '7. Banks read the MICR line magnetically: print real checks with MICR toner, and make a test deposit before going live.',
];

function drawInstructions(doc: Pdf): void {
  const top = 7.85 * IN;
  for (const [i, value] of INSTRUCTIONS.entries()) text(doc, value, 0.5 * IN, top + i * 11.5, 8.5, i === 0);
}

/** Renders the MICR test page for one bank account (one US letter page). */
export async function renderMicrTestPagePdf(input: MicrTestPageInput): Promise<Buffer> {
  checkPrintOffset(input.printOffset);
  // Validates routing and account numbers the same way a check does, before anything is drawn.
  layoutMicrLine({
    routingNumber: input.routingNumber,
    accountNumber: input.accountNumber,
    serialNumber: input.serialNumber,
  });

  const { pdf: doc, bytes } = letterPdf({ Title: 'MICR test page', CreationDate: input.createdAt }, true);
  shiftPage(doc, input.printOffset);
  drawCheckArea(doc, input);
  drawRulers(doc);
  drawCharacterSets(doc, input);
  drawInstructions(doc);
  doc.end();
  return bytes;
}

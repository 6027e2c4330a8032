/// <reference types="pdfkit" />
// Layout of the MICR line on a US check, ANSI X9.13 as summarised in docs/e13b.md
// (guide "Placement on a US check", sources [8][11][12][13]).
//
// Positions are 1/8-in cells counted from the right: position 1's right boundary is 5/16 in from
// the check's right edge, position p's is 5/16 + (p − 1)/8 in. A character's right edge sits on its
// cell's right boundary, because the standard measures vertical edges from the character's right
// edge [2] and the line is read right to left. Characters stand on a baseline 3/16 in above the
// check's bottom edge, inside the 3/16–7/16 in print band of the 5/8-in clear band.

import { isValidRoutingNumber } from '../domain/routing-number.ts';
import {
  E13B_GLYPHS,
  E13B_UNIT_PT,
  MICR_CHAR_TEXT,
  isMicrDigit,
  type MicrChar,
  type MicrDigit,
} from './e13b-glyphs.ts';
import { RenderInputError } from './render-error.ts';

const INCH = 72;

/** Character pitch: 1/8 in. */
export const MICR_PITCH_PT = INCH / 8;
/** From the check's right edge to the right boundary of position 1: 5/16 in (±1/16). */
export const MICR_FIRST_POSITION_PT = (5 / 16) * INCH;
/** Baseline above the check's bottom edge: 3/16 in (the bottom of the print band). */
export const MICR_BASELINE_PT = (3 / 16) * INCH;
/** Top of the print band above the check's bottom edge: 7/16 in. */
export const MICR_BAND_TOP_PT = (7 / 16) * INCH;
/** Height of the clear band, where nothing but the MICR line may be printed: 5/8 in. */
export const MICR_CLEAR_BAND_PT = (5 / 8) * INCH;
export const MICR_POSITION_COUNT = 65;

/** Field boundaries, positions counted from the right [8 Table 4-1][13]. */
export const MICR_FIELDS = {
  amount: { first: 1, last: 12 },
  onUs: { first: 14, last: 32 },
  transit: { first: 33, last: 43 },
  auxiliaryOnUs: { first: 45, last: 65 },
} as const;

/** The on-us symbol sits at 14; the account number fills 15..32. */
export const MAX_ACCOUNT_NUMBER_LENGTH = MICR_FIELDS.onUs.last - MICR_FIELDS.onUs.first;
/** On-us symbols at 45 and after the serial; the serial fills 46..64 at most. */
export const MAX_SERIAL_NUMBER_LENGTH = MICR_FIELDS.auxiliaryOnUs.last - MICR_FIELDS.auxiliaryOnUs.first - 1;

export interface MicrLineInput {
  /** Nine digits with a valid ABA checksum. */
  readonly routingNumber: string;
  /** Digits; '-' prints the dash symbol and a space leaves a position blank (bank formats use both). */
  readonly accountNumber: string;
  /** The check number, digits only; printed in the auxiliary on-us field. */
  readonly serialNumber: string;
  /**
   * The amount field, in cents. Checks leave it blank (the bank of first deposit encodes it); only
   * the MICR test page fills it, so every field of a full line can be checked.
   */
  readonly amountCents?: number;
}

/** Ten digits between the amount symbols: up to 99,999,999.99. */
const MAX_AMOUNT_FIELD_CENTS = 9_999_999_999;

/** Size of the check area in points; the MICR line is measured from its right and bottom edges. */
export interface CheckArea {
  readonly width: number;
  readonly height: number;
}

/** A standard US business check: 8.5 × 3.5 in. */
export const STANDARD_CHECK_AREA: CheckArea = { width: 8.5 * INCH, height: 3.5 * INCH };

export interface PositionedMicrChar {
  readonly char: MicrChar;
  /** 1..65, counted from the right. */
  readonly position: number;
  /** Left edge of the ink, points from the check area's left edge. */
  readonly x: number;
  /** Top edge of the ink, points from the check area's top edge (y grows downwards, as in pdfkit). */
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Right boundary of a position's cell, in points from the check area's left edge. */
export function micrPositionRight(position: number, area: CheckArea = STANDARD_CHECK_AREA): number {
  return area.width - MICR_FIRST_POSITION_PT - (position - 1) * MICR_PITCH_PT;
}

function place(char: MicrChar, position: number, area: CheckArea): PositionedMicrChar {
  const glyph = E13B_GLYPHS[char];
  const width = glyph.width * E13B_UNIT_PT;
  const height = glyph.height * E13B_UNIT_PT;
  const bottom = area.height - MICR_BASELINE_PT - glyph.raise * E13B_UNIT_PT;
  const right = micrPositionRight(position, area);
  return { char, position, x: right - width, y: bottom - height, width, height };
}

function accountChars(accountNumber: string): Array<MicrChar | null> {
  const value = accountNumber.trim();
  if (!/^[0-9 -]+$/.test(value) || !/[0-9]/.test(value)) {
    throw new RenderInputError(
      'invalid_account_number',
      'accountNumber',
      'account number must be digits, optionally with dashes or spaces',
    );
  }
  if (value.length > MAX_ACCOUNT_NUMBER_LENGTH) {
    throw new RenderInputError(
      'account_number_too_long',
      'accountNumber',
      `account number has ${value.length} characters; the on-us field holds ${MAX_ACCOUNT_NUMBER_LENGTH}`,
    );
  }
  return [...value].map((c) => (c === ' ' ? null : isMicrDigit(c) ? c : 'dash'));
}

/** The digits of an already validated digit string, as MICR characters. */
function digits(value: string): MicrDigit[] {
  return [...value].filter(isMicrDigit);
}

/**
 * Positions every character of the MICR line. Pure: validates, then returns the characters with
 * their cell position and ink box. Blank positions (the amount field 1–12, 13, 44, spaces) are
 * simply absent. Throws RenderInputError for a bad routing number or fields that do not fit.
 */
export function layoutMicrLine(input: MicrLineInput, area: CheckArea = STANDARD_CHECK_AREA): PositionedMicrChar[] {
  if (!isValidRoutingNumber(input.routingNumber)) {
    throw new RenderInputError(
      'invalid_routing_number',
      'routingNumber',
      'routing number must be nine digits with a valid ABA checksum',
    );
  }
  const account = accountChars(input.accountNumber);
  if (!/^[0-9]+$/.test(input.serialNumber)) {
    throw new RenderInputError('invalid_serial_number', 'checkNumber', 'check number must be digits only');
  }
  if (input.serialNumber.length > MAX_SERIAL_NUMBER_LENGTH) {
    throw new RenderInputError(
      'serial_number_too_long',
      'checkNumber',
      `check number has ${input.serialNumber.length} digits; the auxiliary on-us field holds ${MAX_SERIAL_NUMBER_LENGTH}`,
    );
  }

  const amount = input.amountCents;
  if (amount !== undefined && (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_AMOUNT_FIELD_CENTS)) {
    throw new RenderInputError(
      'invalid_amount',
      'amountCents',
      'the MICR amount field holds whole cents from 0 to 99,999,999.99',
    );
  }

  const out: PositionedMicrChar[] = [];
  // Written right to left, so each field's rightmost character comes first.
  // Amount field (1–12): blank on checks, where the bank of first deposit encodes it. When given,
  // symbols at 1 and 12, the cents at 2–3 and the dollars at 4–11, zero-filled. Position 13 is blank.
  if (amount !== undefined) {
    out.push(place('amount', MICR_FIELDS.amount.first, area));
    digits(String(amount).padStart(10, '0'))
      .reverse()
      .forEach((digit, i) => {
        out.push(place(digit, MICR_FIELDS.amount.first + 1 + i, area));
      });
    out.push(place('amount', MICR_FIELDS.amount.last, area));
  }

  // On-us: the symbol at 14, the account number right-aligned against it (last character at 15).
  out.push(place('onUs', MICR_FIELDS.onUs.first, area));
  account.reverse().forEach((char, i) => {
    if (char !== null) out.push(place(char, MICR_FIELDS.onUs.first + 1 + i, area));
  });

  // Transit: symbols at 33 and 43, the routing number's nine digits between (first digit at 42).
  out.push(place('transit', MICR_FIELDS.transit.first, area));
  digits(input.routingNumber)
    .reverse()
    .forEach((digit, i) => {
      out.push(place(digit, MICR_FIELDS.transit.first + 1 + i, area));
    });
  out.push(place('transit', MICR_FIELDS.transit.last, area));

  // Position 44 (EPC) is left blank. Auxiliary on-us: the serial between two on-us symbols.
  const auxFirst = MICR_FIELDS.auxiliaryOnUs.first;
  out.push(place('onUs', auxFirst, area));
  digits(input.serialNumber)
    .reverse()
    .forEach((digit, i) => {
      out.push(place(digit, auxFirst + 1 + i, area));
    });
  out.push(place('onUs', auxFirst + 1 + input.serialNumber.length, area));
  return out;
}

/**
 * The line as text, left to right, one character per position (65 characters): digits, the
 * Unicode MICR symbols for the symbols, spaces for blank positions. For logs, tests and API output.
 */
export function formatMicrLine(chars: readonly PositionedMicrChar[]): string {
  const cells: string[] = new Array<string>(MICR_POSITION_COUNT).fill(' ');
  for (const c of chars) {
    cells[MICR_POSITION_COUNT - c.position] = MICR_CHAR_TEXT[c.char];
  }
  return cells.join('');
}

/**
 * Fills one character as a single vector path: no text, no font. (left, bottom) are the page
 * coordinates of the ink's bottom-left corner (pdfkit's y grows downwards); unitPt is the size of
 * one E-13B unit, E13B_UNIT_PT at true size (the MICR test page also draws them enlarged).
 */
export function fillMicrChar(
  doc: PDFKit.PDFDocument,
  char: MicrChar,
  left: number,
  bottom: number,
  unitPt: number = E13B_UNIT_PT,
): void {
  for (const r of E13B_GLYPHS[char].rects) {
    // Unit rects grow upwards from the glyph's bottom; pdfkit's y grows downwards.
    doc.rect(left + r.x * unitPt, bottom - (r.y + r.height) * unitPt, r.width * unitPt, r.height * unitPt);
  }
  // Pure black, one fill per character so each glyph is a single path in the content stream.
  doc.fill('#000000');
}

/**
 * Draws the positioned characters as filled vector paths (no text, no font), one path per character.
 * originX/originY are the page coordinates of the check area's top-left corner.
 */
export function drawMicrLine(
  doc: PDFKit.PDFDocument,
  chars: readonly PositionedMicrChar[],
  originX: number,
  originY: number,
): void {
  doc.save();
  for (const c of chars) fillMicrChar(doc, c.char, originX + c.x, originY + c.y + c.height);
  doc.restore();
}

/// <reference types="pdfkit" />
// The printer offset applied to a whole page: everything drawn after shiftPage() moves together, so
// the MICR line keeps its place relative to the rest of the check and only the printer's error is
// corrected.

import { isValidPrintOffset, MAX_PRINT_OFFSET, type PrintOffset } from '../domain/print-offset.ts';
import { RenderInputError } from './render-error.ts';

/** Points per hundredth of an inch. */
const PT_PER_HUNDREDTH = 72 / 100;

/** Refuses offsets that are not whole hundredths of an inch within ±MAX_PRINT_OFFSET. */
export function checkPrintOffset(offset: PrintOffset | undefined): void {
  if (offset === undefined) return;
  for (const axis of ['x', 'y'] as const) {
    if (!isValidPrintOffset(offset[axis])) {
      throw new RenderInputError(
        'invalid_print_offset',
        `printOffset.${axis}`,
        `the printer offset must be whole hundredths of an inch from -${MAX_PRINT_OFFSET} to ${MAX_PRINT_OFFSET}`,
      );
    }
  }
}

/** Moves everything drawn next on this page by the offset (call right after adding the page). */
export function shiftPage(doc: PDFKit.PDFDocument, offset: PrintOffset | undefined): void {
  if (offset === undefined || (offset.x === 0 && offset.y === 0)) return;
  doc.translate(offset.x * PT_PER_HUNDREDTH, offset.y * PT_PER_HUNDREDTH);
}

// Check PDFs with pdfkit on US letter pages. By default the "check on top" business format: the
// check is the top 8.5 × 3.5 in; two voucher stubs follow (3.5 in and 4 in, perforations at 3.5 in
// and 7 in, as on common three-part business check stock), one check per page. The stock and the
// page layout (print-layout.ts) choose what is drawn and where: check on top, middle or bottom, or
// three checks a page; blank or pre-printed paper. What is drawn lives beside this file:
// check-layout.ts (text helpers, face places), check-validation.ts (what makes a check
// unprintable), check-face.ts (the check), check-stubs.ts (the stubs and voucher lines).
// Layout decisions (window position, where custom elements go, what the no* flags blank) are
// described in docs/e13b.md and in check-document.ts.

import type { CheckDocument } from './check-document.ts';
import { drawCheckFace, drawNotApprovedMark, drawPreviewMark } from './check-face.ts';
import { IN } from './check-layout.ts';
import { drawPerforationGuide, drawStub } from './check-stubs.ts';
import { type PreparedCheck, prepare, withImages } from './check-validation.ts';
import { shiftPage } from './page-offset.ts';
import { letterPdf, type Pdf } from './pdf-document.ts';
import { type CheckSlot, DEFAULT_PRINT_OPTIONS, LAYOUTS, type PrintOptions, stockDraws } from './print-layout.ts';
import { RenderInputError } from './render-error.ts';

/** One check in its slot of the page: the face moved to the slot's top, then its stubs. */
function drawSlot(doc: Pdf, prepared: PreparedCheck, slot: CheckSlot, options: PrintOptions): void {
  doc.save();
  doc.translate(0, slot.checkY);
  drawCheckFace(doc, prepared, options.stock, options.notApproved !== true);
  if (options.notApproved === true) drawNotApprovedMark(doc);
  else if (options.preview === true) drawPreviewMark(doc);
  doc.restore();
  // Both stubs show the same voucher rows, so the shorter stub sets the table's capacity.
  const shortest = Math.min(...slot.stubs.map((s) => s.height));
  for (const stub of slot.stubs) {
    drawStub(doc, prepared, options.stock, stub.y, stub.height, stub.y + shortest - 0.3 * IN);
  }
}

// ---------------------------------------------------------------- entry points

/** Fixed document date (the first check's issue date, midnight UTC) so equal input gives equal bytes. */
function creationDate(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00Z`);
}

/**
 * Renders several checks into one PDF, in order, filling each page's slots from the top: one check
 * (with its two stubs) a page on the one-check layouts, three a page on three-per-page.
 */
export async function renderChecksPdf(
  docs: readonly CheckDocument[],
  options: PrintOptions = DEFAULT_PRINT_OPTIONS,
): Promise<Buffer> {
  const [first] = docs;
  if (first === undefined) throw new RenderInputError('empty_batch', 'checks', 'no checks to render');
  // Validate every check before drawing anything, so a bad one fails the batch without a half-made PDF.
  const checked = docs.map((d, i) => {
    try {
      return prepare(d);
    } catch (error) {
      throw error instanceof RenderInputError && docs.length > 1 ? error.atIndex(i) : error;
    }
  });
  const prepared: PreparedCheck[] = [];
  for (const [i, c] of checked.entries()) {
    try {
      prepared.push(await withImages(c));
    } catch (error) {
      throw error instanceof RenderInputError && docs.length > 1 ? error.atIndex(i) : error;
    }
  }

  const { pdf, bytes } = letterPdf(
    {
      Title: docs.length === 1 ? `Check ${first.checkNumber}` : `Checks (${docs.length})`,
      CreationDate: creationDate(first.issueDate),
    },
    false,
  );
  const layout = LAYOUTS[options.layout];
  const perPage = layout.slots.length;
  for (let start = 0; start < prepared.length; start += perPage) {
    const onPage = prepared.slice(start, start + perPage);
    pdf.addPage({ size: 'LETTER', margin: 0 });
    // One offset a page, the first check's bank account's: a sheet goes through one printer.
    shiftPage(pdf, onPage[0]?.doc.printOffset);
    if (stockDraws(options.stock, 'perforationGuides')) {
      for (const y of layout.perforations) drawPerforationGuide(pdf, y);
    }
    onPage.forEach((p, i) => {
      const slot = layout.slots[i];
      if (slot !== undefined) drawSlot(pdf, p, slot, options);
    });
  }
  pdf.end();
  return bytes;
}

/** Renders one check on a letter page with its two stubs (or in the layout given). */
export async function renderCheckPdf(
  doc: CheckDocument,
  options: PrintOptions = DEFAULT_PRINT_OPTIONS,
): Promise<Buffer> {
  return renderChecksPdf([doc], options);
}

// Check PDFs with pdfkit: US letter, "check on top" business format. The check is the top
// 8.5 × 3.5 in; two voucher stubs follow (3.5 in and 4 in, perforations at 3.5 in and 7 in, as on
// common three-part business check stock). One check per page. What is drawn lives beside this
// file: check-layout.ts (page regions, text helpers), check-validation.ts (what makes a check
// unprintable), check-face.ts (the check), check-stubs.ts (the stubs and voucher lines).
// Layout decisions (window position, where custom elements go, what the no* flags blank) are
// described in docs/e13b.md and in check-document.ts.

import type { CheckDocument } from './check-document.ts';
import { drawCheckFace } from './check-face.ts';
import { CHECK_PAGE_LAYOUT, IN } from './check-layout.ts';
import { drawPerforationGuide, drawStub } from './check-stubs.ts';
import { type PreparedCheck, prepare } from './check-validation.ts';
import { shiftPage } from './page-offset.ts';
import { letterPdf, type Pdf } from './pdf-document.ts';
import { RenderInputError } from './render-error.ts';

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

  const { pdf, bytes } = letterPdf(
    {
      Title: docs.length === 1 ? `Check ${first.checkNumber}` : `Checks (${docs.length})`,
      CreationDate: creationDate(first.issueDate),
    },
    false,
  );
  for (const p of prepared) {
    pdf.addPage({ size: 'LETTER', margin: 0 });
    shiftPage(pdf, p.doc.printOffset);
    drawPage(pdf, p);
  }
  pdf.end();
  return bytes;
}

/** Renders one check on a letter page with its two stubs. */
export async function renderCheckPdf(doc: CheckDocument): Promise<Buffer> {
  return renderChecksPdf([doc]);
}

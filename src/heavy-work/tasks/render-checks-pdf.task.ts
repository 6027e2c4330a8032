// Task: checks to one PDF (GET /checks/{id}/pdf, POST /checks/print, the panel's print, the payee's
// download). The documents are read from the database on the main thread (checks/print.service.ts); only
// the drawing runs here.
import type { CheckDocument } from '../../render/check-document.ts';
import { renderChecksPdf } from '../../render/check-pdf.ts';
import type { PrintOptions } from '../../render/print-layout.ts';
import { asBuffer, outcomeOf, type RenderOutcome } from './render-outcome.ts';

export interface RenderChecksPdfInput {
  documents: CheckDocument[];
  options: PrintOptions;
}

export function run(input: RenderChecksPdfInput): Promise<RenderOutcome> {
  // A signature or logo shared by many checks is cloned once (structured clone keeps identity), and
  // turned back into a Buffer once here.
  const buffers = new Map<Uint8Array, Buffer>();
  const buffer = (bytes: Uint8Array): Buffer => {
    let found = buffers.get(bytes);
    if (found === undefined) {
      found = asBuffer(bytes);
      buffers.set(bytes, found);
    }
    return found;
  };
  const documents = input.documents.map(
    (d): CheckDocument => ({
      ...d,
      ...(d.signature === null || d.signature === undefined ? {} : { signature: { data: buffer(d.signature.data) } }),
      ...(d.logo === null || d.logo === undefined ? {} : { logo: { data: buffer(d.logo.data) } }),
    }),
  );
  return outcomeOf(() => renderChecksPdf(documents, input.options));
}

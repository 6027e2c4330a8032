// What a rendering task answers: the PDF's bytes, or the renderer's refusal as plain data. A
// RenderInputError thrown in a worker thread would cross back as a bare Error (structured clone
// keeps neither its class nor its code, field and index), so the refusal travels as a value and is
// raised again on the calling thread, where the services turn it into a 422 naming the field.
import { type RenderErrorCode, RenderInputError } from '../../render/render-error.ts';

export interface RenderRefusal {
  code: RenderErrorCode;
  field: string;
  message: string;
  index: number | null;
}

export type RenderOutcome = { pdf: Uint8Array } | { refused: RenderRefusal };

/** Runs a renderer; its refusal becomes a value, anything else stays thrown. */
export async function outcomeOf(render: () => Promise<Uint8Array>): Promise<RenderOutcome> {
  try {
    return { pdf: await render() };
  } catch (error) {
    if (!(error instanceof RenderInputError)) throw error;
    return { refused: { code: error.code, field: error.field, message: error.message, index: error.index } };
  }
}

/** The PDF as a Buffer (a view of the same memory), or the renderer's refusal raised again. */
export function pdfOf(outcome: RenderOutcome): Buffer {
  if ('refused' in outcome) {
    const { code, field, message, index } = outcome.refused;
    throw new RenderInputError(code, field, message, index);
  }
  return asBuffer(outcome.pdf);
}

/**
 * Bytes that crossed a thread arrive as a plain Uint8Array; pdfkit and the image code want a
 * Buffer. A view, not a copy.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

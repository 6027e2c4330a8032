// Image uploads of the records and settings pages (signature, logos): one multipart/form-data
// parser, registered only in the scope of the upload routes. The whole body is read before the
// panel's CSRF check (the parser runs at preValidation and attaches the text fields to the body,
// where checkCsrf finds `_csrf`), and a file over the limit is cut at the limit and reported as too
// large, so the page answers with its message next to the file field rather than a bare 413.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface Upload {
  bytes: Buffer;
  /** More than the limit was sent: `bytes` holds only its first part and must not be stored. */
  tooLarge: boolean;
}

const uploads = new WeakMap<FastifyRequest, Upload>();

/** Registers the parser in `scope`; files larger than `maxBytes` are reported as too large. */
export async function acceptUploads(scope: FastifyInstance, maxBytes: number): Promise<void> {
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    throwFileSizeLimit: false,
    // One file and the two hidden fields (CSRF token, environment); nothing else is read.
    limits: { fileSize: maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    async onFile(this: FastifyRequest, part: MultipartFile) {
      const bytes = await part.toBuffer();
      uploads.set(this, { bytes, tooLarge: part.file.truncated });
    },
  });
}

/** The file the form sent, or null when none was chosen (an empty file counts as none). */
export function uploadOf(request: FastifyRequest): Upload | null {
  const upload = uploads.get(request);
  if (upload === undefined || (upload.bytes.length === 0 && !upload.tooLarge)) return null;
  return upload;
}

// Image uploads of the records and settings pages (signature, logos): one multipart/form-data
// parser, registered only in the scope of the upload routes. The whole body is read before the
// panel's CSRF check (the parser runs at preValidation and attaches the text fields to the body,
// where checkCsrf finds `_csrf`), and a file over the limit is cut at the limit and reported as too
// large, so the page answers with its message next to the file field rather than a bare 413.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { plainWords } from './wording.ts';

export interface Upload {
  bytes: Buffer;
  /** More than the limit was sent: `bytes` holds only its first part and must not be stored. */
  tooLarge: boolean;
}

const uploads = new WeakMap<FastifyRequest, Upload>();

/** Registers the parser in `scope`; files larger than `maxBytes` are reported as too large. */
export async function acceptUploads(scope: FastifyInstance, maxBytes: number): Promise<void> {
  // A body far over the limit is refused before it is read (the parser would otherwise read it all
  // to the end, dropping what is past the limit). Up to four times the limit is still read, so a
  // file somewhat too large gets its message next to the file field.
  const refuseAbove = 4 * maxBytes;
  scope.addHook('onRequest', async (request) => {
    const length = Number(request.headers['content-length'] ?? '0');
    if (request.method === 'POST' && Number.isFinite(length) && length > refuseAbove)
      throw new AppError(
        'payload_too_large',
        `The file is larger than ${Math.round(maxBytes / 1024)} KB: go back and choose a smaller image.`,
      );
  });
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

/** A refused upload: the message shown beside the file field and the page's status. */
export interface UploadRefusal {
  message: string;
  /** 413 for a file over the limit, 422 for anything else. */
  status: 413 | 422;
}

/** What is wrong with an upload before the service looks at its bytes, or null. */
export function uploadProblem(request: FastifyRequest, limit: number): UploadRefusal | null {
  const upload = uploadOf(request);
  if (upload === null) return { message: 'Choose a PNG or JPEG file to upload.', status: 422 };
  if (upload.tooLarge)
    return { message: `The file is larger than ${Math.round(limit / 1024)} KB: choose a smaller image.`, status: 413 };
  return null;
}

/** The service's refusal of an image (too large, not an image, too many pixels, damaged), or null for any other error. */
export function imageRefusal(error: unknown): UploadRefusal | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === 'validation') return { message: plainWords(error.message), status: 422 };
  if (error.code === 'payload_too_large') return { message: plainWords(error.message), status: 413 };
  return null;
}

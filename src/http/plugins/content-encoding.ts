// Compressed request bodies: a client that gzips or deflates its body used to
// get "could not be parsed", which sends its author looking at the JSON. The API reads bodies as
// sent, so a body with a Content-Encoding other than identity is a 415 that names the header.
// Decompressing instead would need its own bound on the inflated size (a small gzip body can
// inflate to gigabytes); refusing keeps the body limit the one bound there is.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';

function carriesBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && String(length).trim() !== '0');
}

export function registerContentEncoding(scope: FastifyInstance): void {
  // Callback style: this runs on every request of the API, and most have nothing to check.
  scope.addHook('preParsing', (request, _reply, payload, done) => {
    const header = request.headers['content-encoding'];
    if (header === undefined || !carriesBody(request.headers)) return done(null, payload);
    const encoding = (Array.isArray(header) ? header.join(', ') : header).trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') return done(null, payload);
    done(
      new AppError(
        'unsupported_media_type',
        `The request body has Content-Encoding: ${encoding.slice(0, 40)}, which is not accepted: send it uncompressed (without a Content-Encoding header).`,
      ),
      payload,
    );
  });
}

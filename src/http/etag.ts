// A strong validator for a read (GET /checks/{id}): the ETag is a hash of the very bytes the
// answer carries, so it changes whenever anything the read shape shows changes — the check's own
// fields, its statements, its approval, its mailing, and names joined in (a renamed payee or bank
// account) — and never while it does not. A version column would have to be bumped by every
// write that touches any of those, and a missed one would answer a stale 304; a hash of the
// answer cannot miss one (docs/api-notes.md, "ETag and If-None-Match").
//
// A client that sends If-None-Match with the ETag it holds is answered 304 with no body when the
// answer would be the same bytes; a client that sends nothing sees only the new ETag header.
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** `"<base64url of SHA-1>"`: SHA-1 is a fingerprint here, not a defence (each caller sees only its own checks). */
export function strongEtag(body: string): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * Whether If-None-Match names `etag`: `*`, or a list of entity tags compared weakly (RFC 9110,
 * 13.1.2: a `W/` prefix is ignored for If-None-Match).
 */
export function noneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  for (const part of value.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

/**
 * An onSend hook for a read's route: a 200 gets its ETag, and a matching If-None-Match turns it
 * into a 304 with no body. Runs after serialization, on the bytes that would be sent.
 */
export function answerNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (reply.statusCode !== 200 || typeof payload !== 'string') {
    done(null, payload);
    return;
  }
  const etag = strongEtag(payload);
  reply.header('etag', etag);
  if (!noneMatchHits(request.headers['if-none-match'], etag)) {
    done(null, payload);
    return;
  }
  reply.code(304);
  // A 304 carries the validator, not the representation's own headers (RFC 9110, 15.4.5).
  reply.removeHeader('content-type');
  done(null, null);
}

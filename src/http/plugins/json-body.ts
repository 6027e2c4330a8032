// How JSON bodies are read. Two things Fastify's parser cannot know about this API:
// - Money must be exact (API decisions, "Checks"): JSON.parse turns 1.0000000000000000001 into 1
//   before anyone can refuse it. Number literals of money fields are therefore handed on as their
//   original text (amounts are accepted as numeric strings anyway), and the service judges them.
// - PostgreSQL text cannot hold U+0000, and no field of this API needs it: a NUL anywhere in a
//   body is a 422 naming the field, before anything reaches the database.
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../errors.ts';

/** `"amount": 12.345` -> `"amount": "12.345"` for the money keys; a quote escaped inside a string never matches. */
const MONEY_LITERAL = /(?<!\\)"(amount|unitCost|total)"(\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=\s*[,}\]])/g;

export function quoteMoneyLiterals(text: string): string {
  return text.replace(MONEY_LITERAL, (_match, key: string, colon: string, literal: string) => `"${key}"${colon}"${literal}"`);
}

/** Path of the first string (or key) holding U+0000, or null. */
export function findNul(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key.replace(/\u0000/g, '\\0')].join('.');
      const found = findNul(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // HTTP client libraries send `Content-Type: application/json` on every request, DELETE and
    // body-less POSTs (/checks/{id}/void) included: an empty body is no body (issue 11). A route
    // that needs a body still answers 400 for it, as for a request without one.
    if (String(body).trim() === '') return done(null, undefined);
    parse(request, quoteMoneyLiterals(String(body)), (error: Error | null, value?: unknown) => {
      if (error !== null) return done(error, undefined);
      const nul = findNul(value);
      if (nul !== null) {
        const prefix = request.routeOptions.config.validationPrefix ?? '';
        return done(validationError(`${prefix}The ${nul === '' ? 'body' : nul} field must not contain NUL characters.`), undefined);
      }
      return done(null, value);
    });
  });
}

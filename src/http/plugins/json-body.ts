// How JSON bodies are read. Things Fastify's parser cannot know about this API:
// - Money must be exact (API decisions, "Checks"): JSON.parse turns 1.0000000000000000001 into 1
//   before anyone can refuse it. Number literals of money fields are therefore handed on as their
//   original text (amounts are accepted as numeric strings anyway), and the service judges them.
// - No body of this API nests deeper than a handful of levels. A 2 MB body of nested brackets used
//   to hold the event loop for half a minute (issue 10, item 1): nesting is now measured on the
//   raw text, in one pass, before JSON.parse sees it, and refused past MAX_DEPTH.
// - PostgreSQL text cannot hold U+0000, and no field may hold a control character (a CR/LF prints
//   as an extra line on a check, domain/safe-text.ts): a body holding one is a 422 naming the field,
//   before anything reaches the database. The scan is linear in the size of the body.
// The parser is registered in the authenticated API scope only (app.ts): a stranger's body is
// never parsed, and a route without a body schema never parses one.
import type { FastifyInstance } from 'fastify';
import { AppError, validationError } from '../../errors.ts';
import { findUnsafeText, unsafeTextMessage } from '../../domain/safe-text.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level body fields that are whole files, not printed fields (the CSV of POST /imports):
     * they may hold line breaks and tabs, never NUL; their contents are checked cell by cell.
     */
    fileFields?: readonly string[];
  }
}

/** The body without its file fields, for the control-character scan; a NUL in one is still refused. */
export function withoutFileFields(value: unknown, fields: readonly string[]): { rest: unknown; nulIn: string | null } {
  if (fields.length === 0 || typeof value !== 'object' || value === null || Array.isArray(value))
    return { rest: value, nulIn: null };
  const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  let nulIn: string | null = null;
  for (const field of fields) {
    const text = rest[field];
    if (typeof text === 'string' && text.includes('\u0000')) nulIn ??= field;
    delete rest[field];
  }
  return { rest, nulIn };
}

/** Deepest nesting of arrays and objects a body may have; the API's deepest body uses five. */
export const MAX_DEPTH = 32;

/** `"amount": 12.345` -> `"amount": "12.345"` for the money keys; a quote escaped inside a string never matches. */
const MONEY_LITERAL = /(?<!\\)"(amount|unitCost|total)"(\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=\s*[,}\]])/g;

export function quoteMoneyLiterals(text: string): string {
  return text.replace(
    MONEY_LITERAL,
    (_match, key: string, colon: string, literal: string) => `"${key}"${colon}"${literal}"`,
  );
}

/**
 * True when the JSON text nests arrays/objects deeper than `limit`. One pass over the text:
 * brackets inside strings do not count (a backslash escapes the next character). Malformed text is
 * left to JSON.parse, which refuses it in linear time.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export function registerJsonBody(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A route that takes no body does not parse one.
    if (request.routeOptions.schema?.body === undefined) return done(null, undefined);
    const text = String(body);
    // HTTP client libraries send `Content-Type: application/json` on every request, DELETE and
    // body-less POSTs (/checks/{id}/void) included: an empty body is no body (issue 11). A route
    // that needs a body still answers 400 for it, as for a request without one.
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_DEPTH))
      return done(
        new AppError(
          'bad_request',
          `The request body nests arrays and objects too deeply (at most ${MAX_DEPTH} levels).`,
        ),
        undefined,
      );
    parse(request, quoteMoneyLiterals(text), (error: Error | null, value?: unknown) => {
      if (error !== null) return done(error, undefined);
      const { rest, nulIn } = withoutFileFields(value, request.routeOptions.config.fileFields ?? []);
      const unsafe = nulIn === null ? findUnsafeText(rest) : { path: nulIn, kind: 'nul' as const };
      if (unsafe !== null) {
        const prefix = request.routeOptions.config.validationPrefix ?? '';
        return done(
          validationError(`${prefix}${unsafeTextMessage(unsafe.path === '' ? 'body' : unsafe.path, unsafe.kind)}`),
          undefined,
        );
      }
      return done(null, value);
    });
  });
}

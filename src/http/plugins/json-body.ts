// How JSON bodies are read. Things Fastify's parser cannot know about this API:
// - Money must be exact (API decisions, "Checks"): JSON.parse turns 1.0000000000000000001 into 1
//   before anyone can refuse it. Number literals of money fields are therefore handed on as their
//   original text (amounts are accepted as numeric strings anyway), and the service judges them.
// - No body of this API nests deeper than a handful of levels. A 2 MB body of nested brackets used
//   to hold the event loop for half a minute: nesting is now measured on the
//   raw text, in one pass, before JSON.parse sees it, and refused past MAX_DEPTH; so are width
//   (members of one array or object), the length of one string and of one number, each of
//   which could otherwise cost seconds of parsing.
// - PostgreSQL text cannot hold U+0000, and no field may hold a control character (a CR/LF prints
//   as an extra line on a check, domain/safe-text.ts): a body holding one is a 422 naming the field,
//   before anything reaches the database. The scan is linear in the size of the body.
// The parser is registered in the authenticated API scope only (app.ts): a stranger's body is
// never parsed, and a route without a body schema never parses one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from '../../errors.ts';
import { findUnsafeText, unsafeTextMessage } from '../../domain/safe-text.ts';
import { oversizeFileField } from './json-file-fields.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level body fields that are whole files, not printed fields (the CSV of POST /imports):
     * they may hold line breaks and tabs, never NUL; their contents are checked cell by cell.
     */
    fileFields?: readonly string[];
    /**
     * The most UTF-8 bytes a file field may decode to, and the 413's message: checked on the raw
     * text before the parse (json-file-fields.ts), as the service checks the parsed text after.
     */
    fileTooLarge?: { readonly maxBytes: number; readonly message: string };
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
 * Most members one array or object of a body may hold. The API's widest are a batch (500 items)
 * and an import mapping (100 columns). A 2 MB body of one object with 170,000 keys held the event
 * loop for seconds inside JSON.parse alone (V8 builds such an object key by key in dictionary
 * mode), before validation could refuse it: width is now measured with the depth.
 */
export const MAX_MEMBERS = 1000;

/** Bodies longer than this (characters) are parsed in steps (see registerJsonBody). */
const SLICE_ABOVE = 64 * 1024;

/**
 * Longest string and number a body may hold, in characters of the raw text. The API's longest
 * text field is 2,000 characters; only a route's file fields (the CSV of POST /imports) hold more,
 * and those routes lift the string bound. Past them the body is refused before JSON.parse, which
 * would otherwise build a 2 MB string only for validation to refuse it.
 */
export const MAX_STRING_CHARS = 64 * 1024;
export const MAX_NUMBER_CHARS = 100;

export type ShapeProblem = 'depth' | 'width' | 'string' | 'number';

const PROBLEM_MESSAGES: Record<ShapeProblem, string> = {
  depth: `The request body nests arrays and objects too deeply (at most ${MAX_DEPTH} levels).`,
  width: `The request body has an array or object with too many members (at most ${MAX_MEMBERS} in one).`,
  string: `The request body has a string longer than ${MAX_STRING_CHARS.toLocaleString('en-US')} characters.`,
  number: `The request body has a number longer than ${MAX_NUMBER_CHARS} characters.`,
};

/**
 * What is wrong with the shape of a JSON text, measured on the raw text in one pass before
 * JSON.parse sees it: arrays/objects nested deeper than `depth`, one holding more than `members`
 * members, a string longer than `string` or a number longer than `number` characters. Brackets and
 * commas inside strings do not count (a backslash escapes the next character). Malformed text is
 * left to JSON.parse, which refuses it in linear time. Stops at the first problem.
 */
export function shapeProblem(
  text: string,
  limits: { depth: number; members: number; string?: number; number?: number },
): ShapeProblem | null {
  const maxString = limits.string ?? Number.POSITIVE_INFINITY;
  const maxNumber = limits.number ?? Number.POSITIVE_INFINITY;
  // counts[d]: commas seen so far in the container open at depth d (members - 1).
  const counts = new Array<number>(limits.depth + 1).fill(0);
  let depth = 0;
  let inString = false;
  let stringStart = 0;
  let numberRun = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      if (i - stringStart > maxString) return 'string';
      continue;
    }
    // Digits, sign, point and exponent: the characters of a number literal.
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) {
      if (++numberRun > maxNumber) return 'number';
      continue;
    }
    numberRun = 0;
    if (c === 0x22) {
      inString = true;
      stringStart = i + 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limits.depth) return 'depth';
      counts[depth] = 0;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && depth > 0) {
      const seen = (counts[depth] ?? 0) + 1;
      if (seen >= limits.members) return 'width';
      counts[depth] = seen;
    }
  }
  return null;
}

/** True when the JSON text nests arrays/objects deeper than `limit` (see shapeProblem). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  return shapeProblem(text, { depth: limit, members: Number.POSITIVE_INFINITY }) === 'depth';
}

/**
 * A NUL or other unsafe control character anywhere in a parsed body (file fields, which may hold
 * any text, aside), as the 422 naming its path; null when the body is clean. Used by every body
 * parser (JSON here, form-encoded in form-body.ts), so both refuse the same text the same way.
 */
export function unsafeBodyText(request: FastifyRequest, value: unknown): AppError | null {
  const { rest, nulIn } = withoutFileFields(value, request.routeOptions.config.fileFields ?? []);
  const unsafe = nulIn === null ? findUnsafeText(rest) : { path: nulIn, kind: 'nul' as const };
  if (unsafe === null) return null;
  const prefix = request.routeOptions.config.validationPrefix ?? '';
  return validationError(`${prefix}${unsafeTextMessage(unsafe.path === '' ? 'body' : unsafe.path, unsafe.kind)}`);
}

export function registerJsonBody(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A route that takes no body does not parse one.
    if (request.routeOptions.schema?.body === undefined) return done(null, undefined);
    const text = String(body);
    // HTTP client libraries send `Content-Type: application/json` on every request, DELETE and
    // body-less POSTs (/checks/{id}/void) included: an empty body is no body. A route
    // that needs a body still answers 400 for it, as for a request without one.
    if (text.trim() === '') return done(null, undefined);
    const { fileFields = [], fileTooLarge } = request.routeOptions.config;
    const hasFiles = fileFields.length > 0;
    if (fileTooLarge !== undefined && oversizeFileField(text, fileFields, fileTooLarge.maxBytes) !== null)
      return done(new AppError('payload_too_large', fileTooLarge.message), undefined);
    const shape = shapeProblem(text, {
      depth: MAX_DEPTH,
      members: MAX_MEMBERS,
      number: MAX_NUMBER_CHARS,
      ...(hasFiles ? {} : { string: MAX_STRING_CHARS }),
    });
    if (shape !== null) return done(new AppError('bad_request', PROBLEM_MESSAGES[shape]), undefined);
    // A large body is read in steps, each its own turn of the event loop (the scans above, the
    // parse, the control-character scan, then validation): each step of a 2 MB body takes tens of
    // milliseconds, and other requests are answered between them rather than after all of them.
    const step = text.length > SLICE_ABOVE ? setImmediate : (next: () => void) => next();
    step(() =>
      parse(request, quoteMoneyLiterals(text), (error: Error | null, value?: unknown) => {
        if (error !== null) return done(error, undefined);
        step(() => {
          const unsafe = unsafeBodyText(request, value);
          if (unsafe !== null) return done(unsafe, undefined);
          step(() => done(null, value));
        });
      }),
    );
  });
}

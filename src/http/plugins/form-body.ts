// Form-encoded bodies (issue 25, item 5): a PHP SDK of the hosted service sends every body as
// `application/x-www-form-urlencoded` with PHP bracket keys (`payees[0][name]=…`), which the
// hosted service's framework reads as it reads JSON. Here they are read by `qs` (a well-kept
// parser) with bounds as strict as the JSON path's (json-body.ts), and then meet the same hooks,
// schemas and services as JSON: the same control-character scan, the same null/empty-field rule
// (null-fields.ts), the same validation and messages.
//
// Form values are all text, so one step is added: where a field's schema takes no text but a
// number or true/false, decimal digits become the number and 1/0/true/false the boolean (what
// Laravel's `integer` and `boolean` rules accept from a form). Money stays text: amounts are
// judged on the digits sent (docs/api-notes.md, "Money").
//
// Bounds, all refused before anything is read into an object:
// - at most MAX_FORM_PARAMETERS parameters (413), counted on the raw text;
// - keys nest at most MAX_DEPTH brackets (400, the JSON path's wording), arrays at most
//   MAX_FORM_ARRAY items (422): qs throws rather than silently turning them into objects;
// - a key naming `__proto__`, `constructor` or `prototype` (400; qs would silently drop it);
// - malformed percent-encoding (400; qs would keep the text as it is);
// - the body size is the JSON path's (Fastify's bodyLimit, BODY_LIMIT_BYTES: 413).
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { AppError, validationError } from '../../errors.ts';
import { MAX_BATCH } from '../../schemas/common.ts';
import { MAX_DEPTH, unsafeBodyText } from './json-body.ts';

/** 500 items of 40 fields each: the largest batch of the API, with room. */
export const MAX_FORM_PARAMETERS = 20_000;
/** The API's longest array is a batch (MAX_BATCH items). */
export const MAX_FORM_ARRAY = MAX_BATCH;

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

const UNREADABLE =
  'The request body could not be parsed: a form field is not valid percent-encoding (application/x-www-form-urlencoded).';

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The refusals qs would not make itself, in one pass over the parameters. */
function screen(text: string): AppError | null {
  let count = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      count += 1;
      if (count > MAX_FORM_PARAMETERS)
        return new AppError(
          'payload_too_large',
          `The request body has too many form fields (at most ${MAX_FORM_PARAMETERS}).`,
        );
      const part = text.slice(start, end);
      const equals = part.indexOf('=');
      const key = decode(equals === -1 ? part : part.slice(0, equals));
      if (key === null || (equals !== -1 && decode(part.slice(equals + 1)) === null))
        return new AppError('bad_request', UNREADABLE);
      for (const segment of key.split(/[[\]]/))
        if (FORBIDDEN_SEGMENTS.has(segment))
          return new AppError(
            'bad_request',
            `The request body could not be parsed: the form field ${segment} is not allowed.`,
          );
    }
    start = end + 1;
  }
  return null;
}

function qsFailure(error: unknown): AppError {
  const message = error instanceof Error ? error.message : '';
  if (/depth/i.test(message))
    return new AppError(
      'bad_request',
      `The request body nests arrays and objects too deeply (at most ${MAX_DEPTH} levels).`,
    );
  if (/array limit/i.test(message))
    return validationError(`The request body has a list of more than ${MAX_FORM_ARRAY} items.`);
  if (/parameter limit/i.test(message))
    return new AppError(
      'payload_too_large',
      `The request body has too many form fields (at most ${MAX_FORM_PARAMETERS}).`,
    );
  return new AppError('bad_request', UNREADABLE);
}

/** The schemas a value may be read against: a union's branches, or the schema itself. */
function branches(schema: Schema): Schema[] {
  const list = schema.anyOf ?? schema.oneOf;
  return Array.isArray(list) ? list.filter(isSchema).flatMap(branches) : [schema];
}

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  return typeof type === 'string' ? [type] : Array.isArray(type) ? type.map(String) : [];
}

/** A form value (text) as its field's schema reads it. */
function coerceText(schema: Schema, text: string): unknown {
  const options = branches(schema);
  const takesText = options.some((s) =>
    'const' in s ? s.const === text : typesOf(s).includes('string') && !('enum' in s),
  );
  if (takesText) return text;
  if (
    options.some((s) => typesOf(s).some((t) => t === 'number' || t === 'integer')) &&
    /^-?[0-9]{1,15}(\.[0-9]{1,15})?$/.test(text)
  )
    return Number(text);
  const takesBoolean = options.some((s) => typesOf(s).includes('boolean') || typeof s.const === 'boolean');
  if (takesBoolean && (text === '1' || text === 'true')) return true;
  if (takesBoolean && (text === '0' || text === 'false')) return false;
  return text;
}

/** Applies coerceText to every text of `value` whose field the schema knows. */
export function coerceFormValues(schema: Schema, value: unknown): unknown {
  if (typeof value === 'string') return coerceText(schema, value);
  const options = branches(schema);
  if (Array.isArray(value)) {
    const items = options.map((s) => s.items).find(isSchema);
    return items === undefined ? value : value.map((item) => coerceFormValues(items, item));
  }
  if (!isSchema(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = options.map((s) => (isSchema(s.properties) ? s.properties[key] : undefined)).find(isSchema);
    out[key] = field === undefined ? item : coerceFormValues(field, item);
  }
  return out;
}

export function registerFormBody(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const schema = request.routeOptions.schema?.body;
    // A route that takes no body does not parse one; an empty body is no body (as for JSON).
    if (!isSchema(schema)) return done(null, undefined);
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    const refused = screen(text);
    if (refused !== null) return done(refused, undefined);
    let parsed: unknown;
    try {
      parsed = qs.parse(text, {
        depth: MAX_DEPTH,
        strictDepth: true,
        arrayLimit: MAX_FORM_ARRAY,
        parameterLimit: MAX_FORM_PARAMETERS,
        throwOnLimitExceeded: true,
        allowPrototypes: false,
        allowDots: false,
        duplicates: 'last',
        ignoreQueryPrefix: false,
      });
    } catch (error) {
      return done(qsFailure(error), undefined);
    }
    const value = coerceFormValues(schema, parsed);
    const unsafe = unsafeBodyText(request, value);
    if (unsafe !== null) return done(unsafe, undefined);
    return done(null, value);
  });
}

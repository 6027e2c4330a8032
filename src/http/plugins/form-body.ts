// Form-encoded bodies: a PHP SDK of the hosted service sends every body as
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
// Bounds, all measured on the raw text by form-shape.ts before `qs` runs (`qs.parse` of a hostile
// 2 MB body held the event loop for over a second; the scan refuses it in milliseconds), with the
// keys split exactly as `qs` splits them:
// - at most MAX_FORM_PARAMETERS parameters and MAX_FORM_SEGMENTS bracket groups in all keys
//   together (413: the body is too large in its structure);
// - keys nest at most MAX_DEPTH brackets and an object or list holds at most MAX_MEMBERS members
//   (400, the JSON path's bounds and wording); list indices below MAX_FORM_ARRAY (422);
// - a key segment `qs` would silently drop (`__proto__`, `constructor`, any name of
//   Object.prototype) or `prototype` (400), however it is spelled or encoded;
// - one field given twice (`amount=1.00&amount=99999999.99`), where `qs` would keep the last
//   (422 naming the field); lists written `a[]=1&a[]=2` or `a[0]=1&a[1]=2` are lists;
// - malformed percent-encoding (400; qs would keep the text as it is);
// - the body size is the JSON path's (Fastify's bodyLimit, BODY_LIMIT_BYTES: 413).
// `qs` is still given its own limits, as a second line should the two ever disagree.
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IParseOptions, ParsedQs } from 'qs';
import { AppError, validationError } from '../../errors.ts';
import { MAX_BATCH } from '../../schemas/common.ts';
import { type FormProblem, formShapeProblem } from './form-shape.ts';
import { MAX_DEPTH, MAX_MEMBERS, unsafeBodyText } from './json-body.ts';

// `qs` is required at the first form body, not when the server starts: loading it (and the
// packages it requires) took ~25 ms of each start on Node 20, for a body type few clients send
// (docs/benchmarks.md, "Results (2026-11-29 night: start-up)"). A synchronous require, so the
// parser's callback stays as it is.
const loadPackage = createRequire(import.meta.url);
type ParseForm = (text: string, options: IParseOptions) => ParsedQs;
let qsParse: ParseForm | null = null;

function formParser(): ParseForm {
  qsParse ??= (loadPackage('qs') as { parse: ParseForm }).parse;
  return qsParse;
}

/** 500 items of 40 fields each: the largest batch of the API, with room. */
export const MAX_FORM_PARAMETERS = 20_000;
/**
 * Bracket groups of all keys together: a 500-item batch of 10 fields (`checks[7][memo]`, two
 * each), or 100 checks with vouchers of a few items. `qs`'s cost follows this count (every group
 * is an object built and merged, and a merge into a list counts the list), not the size of the
 * body: 620,000 groups in 2 MB took it 0.6–0.8 s; 10,000 in their costliest shape, tens of ms
 * (docs/security.md, "Form-encoded bodies").
 */
export const MAX_FORM_SEGMENTS = 10_000;
/** The API's longest array is a batch (MAX_BATCH items). */
export const MAX_FORM_ARRAY = MAX_BATCH;

const UNREADABLE =
  'The request body could not be parsed: a form field is not valid percent-encoding (application/x-www-form-urlencoded).';

/** A refusal of the shape scan, in the JSON path's statuses and words where JSON has the same bound. */
function refusal(problem: FormProblem, request: FastifyRequest): AppError {
  switch (problem.kind) {
    case 'parameters':
      return new AppError(
        'payload_too_large',
        `The request body has too many form fields (at most ${MAX_FORM_PARAMETERS}).`,
      );
    case 'segments':
      return new AppError(
        'payload_too_large',
        `The request body has too many brackets in its form field names (at most ${MAX_FORM_SEGMENTS.toLocaleString('en-US')} in all).`,
      );
    case 'depth':
      return new AppError(
        'bad_request',
        `The request body nests arrays and objects too deeply (at most ${MAX_DEPTH} levels).`,
      );
    case 'members':
      return new AppError(
        'bad_request',
        `The request body has an array or object with too many members (at most ${MAX_MEMBERS} in one).`,
      );
    case 'list':
      return validationError(`The request body has a list of more than ${MAX_FORM_ARRAY} items.`);
    case 'encoding':
      return new AppError('bad_request', UNREADABLE);
    case 'forbidden':
      return new AppError(
        'bad_request',
        `The request body could not be parsed: the form field ${problem.segment} is not allowed.`,
      );
    case 'duplicate': {
      const prefix = request.routeOptions.config.validationPrefix ?? '';
      return validationError(`${prefix}The ${problem.path} field is given more than once.`);
    }
  }
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
    const problem = formShapeProblem(text, {
      parameters: MAX_FORM_PARAMETERS,
      segments: MAX_FORM_SEGMENTS,
      depth: MAX_DEPTH,
      members: MAX_MEMBERS,
      arrayIndex: MAX_FORM_ARRAY,
    });
    if (problem !== null) return done(refusal(problem, request), undefined);
    const parse = formParser();
    let parsed: unknown;
    try {
      parsed = parse(text, {
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

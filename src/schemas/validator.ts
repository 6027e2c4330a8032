// Ajv as the API's schemas are checked (formats, the `x-message` annotation), and a failure worded
// Laravel-style with the field path, as the API decisions require ("The checks.1.amount field is
// required."). Here, below services, so that both the HTTP layer (http/validation.ts, one failure
// per request) and the import's row checks (services/imports/, every failure of a row) use one
// configuration and one wording; nothing here knows of Fastify.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { closestField } from './did-you-mean.ts';

// ajv-formats is CommonJS: under Node's ESM loader the default import is the plugin function itself.
const addFormats = addFormatsModule as unknown as FormatsPlugin;

/** The part of Ajv's data context a modifying keyword uses: where the value sits in its parent. */
interface WhereInData {
  parentData?: unknown;
  parentDataProperty?: string | number;
}

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

export function makeAjv(coerce: boolean, allErrors = false): Ajv {
  const ajv = new Ajv({
    allErrors,
    coerceTypes: coerce,
    useDefaults: coerce,
    removeAdditional: false,
    strict: false,
    verbose: true,
  });
  addFormats(ajv, ['email', 'date', 'uri']);
  // OpenAPI annotation keywords carried by our schemas; they do not validate.
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  // A date written the US way (MM/DD/YYYY), as a public Java client of the hosted service sends it
  // and Laravel's `date` rule takes: rewritten in place to the spec's YYYY-MM-DD, so every service
  // reads one form. Only the four-digit year: 01/02/22 stays a format error (which century?).
  // Whether the day exists is the service's to say, as for the ISO form.
  ajv.addKeyword({
    keyword: 'x-us-date',
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    validate: (enabled: boolean, data: string, _schema?: unknown, cxt?: WhereInData) => {
      const us = enabled ? US_DATE.exec(data) : null;
      if (us !== null && cxt?.parentData !== undefined && cxt.parentDataProperty !== undefined) {
        const [, month = '', day = '', year = ''] = us;
        (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] =
          `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
      }
      return true;
    },
  });
  return ajv;
}

// The API's body configuration reporting every failure, not only the first: an imported row and a
// panel form show all their problems at once.
let everyFailureAjv: Ajv | null = null;
const everyFailureCompiled = new WeakMap<object, ValidateFunction>();

function compileEveryFailure(schema: object): ValidateFunction {
  everyFailureAjv ??= makeAjv(false, true);
  let compiled = everyFailureCompiled.get(schema);
  if (compiled === undefined) {
    compiled = everyFailureAjv.compile(schema);
    everyFailureCompiled.set(schema, compiled);
  }
  return compiled;
}

/**
 * A validator of one imported row against a route's body schema (formats/imports/read-import-file.ts):
 * the same schema and wording as the API, but every failure of the row, not only the first.
 */
export function compileRowValidator(schema: object): (data: unknown) => string[] {
  const compiled = compileEveryFailure(schema);
  return (data) => {
    if (compiled(data) as boolean) return [];
    return (compiled.errors ?? []).map((error) => describeValidationError(error, 'row'));
  };
}

/**
 * Every failure of `data` against a route's body schema, as Ajv reports them (a panel form places
 * each by its field and words it with describeValidationError). No failure is an empty list.
 */
export function everyFailure(schema: object, data: unknown): ErrorObject[] {
  const validate = compileEveryFailure(schema);
  if (validate(data) as boolean) return [];
  return validate.errors ?? [];
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function pathOf(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** One sentence for the first schema failure; `root` names the request part when the path is empty. */
export function describeValidationError(error: ErrorObject, root: string): string {
  const path = pathOf(error);
  const field = path === '' ? root : path;
  const params = error.params as Record<string, unknown>;
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-message'];
  switch (error.keyword) {
    case 'required':
      return `The ${join(path, String(params.missingProperty))} field is required.`;
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const properties = (error.parentSchema as Record<string, unknown> | undefined)?.properties;
      const meant =
        typeof properties === 'object' && properties !== null ? closestField(name, Object.keys(properties)) : undefined;
      return meant === undefined
        ? `The ${join(path, name)} field is not allowed.`
        : `The ${join(path, name)} field is not allowed. Did you mean ${meant}?`;
    }
    case 'type': {
      const types = String(params.type).split(',');
      return `The ${field} field must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}.`;
    }
    case 'maxLength':
      return `The ${field} field must not be greater than ${String(params.limit)} characters.`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `The ${field} field is required.`
        : `The ${field} field must be at least ${String(params.limit)} characters.`;
    case 'maximum':
      return `The ${field} field must not be greater than ${String(params.limit)}.`;
    case 'minimum':
      return `The ${field} field must be at least ${String(params.limit)}.`;
    case 'maxItems':
      return `The ${field} field must not have more than ${String(params.limit)} items.`;
    case 'minItems':
      return Number(params.limit) === 1
        ? `The ${field} field must have at least 1 item.`
        : `The ${field} field must have at least ${String(params.limit)} items.`;
    case 'minProperties':
      return `The ${field} must contain at least ${String(params.limit)} field${Number(params.limit) === 1 ? '' : 's'}.`;
    case 'maxProperties':
      return `The ${field} field must not have more than ${String(params.limit)} keys.`;
    case 'enum':
    case 'const':
      return `The selected ${field} is invalid.`;
    case 'format':
      if (params.format === 'email') return `The ${field} field must be a valid email address.`;
      if (params.format === 'date') return `The ${field} field must be a valid date (YYYY-MM-DD).`;
      return `The ${field} field format is invalid.`;
    case 'pattern':
    case 'anyOf':
    case 'oneOf':
      return typeof custom === 'string' ? `The ${field} field ${custom}.` : `The ${field} field format is invalid.`;
    case 'propertyNames':
      return `The ${field} field has a key that is not allowed.`;
    default:
      return `The ${field} field is invalid.`;
  }
}

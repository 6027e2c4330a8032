import { type TSchema, Type } from 'typebox';
import {
  DEFAULT_PER_PAGE,
  MAX_PAGE,
  MAX_PER_PAGE,
  MAX_TERM_LENGTH,
  type Paging,
  resolvePaging,
} from '../domain/paging.ts';

/** Spec "Errors": every failure but authentication. */
export const ErrorBody = Type.Object({ success: Type.Literal(false), errorMsg: Type.String() }, { $id: 'ErrorBody' });
/** Spec "Authentication": 401 body. */
export const UnauthenticatedBody = Type.Object({ message: Type.String() }, { $id: 'UnauthenticatedBody' });

const errorRef = Type.Unsafe<{ success: false; errorMsg: string }>({ $ref: 'ErrorBody#' });

/** The error responses every authenticated route can give, for the OpenAPI document and serialisers. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 401: Type.Unsafe<{ message: string }>({ $ref: 'UnauthenticatedBody#' }) };
  for (const status of [400, 422, 429, 500, ...statuses]) out[status] = errorRef;
  return out;
}

export const Meta = Type.Object({
  total: Type.Integer(),
  currentPage: Type.Integer(),
  perPage: Type.Integer(),
});

/**
 * A string or null in a *response*. Written as a type list rather than a union (anyOf): the
 * response serialiser handles a type list inline, but settles an anyOf by running a validator on
 * every value, which cost GET /checks/{id} a large share of its time (docs/benchmarks.md).
 */
export function NullableString(options: Record<string, unknown> = {}) {
  return Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });
}

export function NullableInteger(options: Record<string, unknown> = {}) {
  return Type.Unsafe<number | null>({ type: ['integer', 'null'], ...options });
}

export const Message = Type.Object({ success: Type.Literal(true), message: Type.String() });

/**
 * A paging number in a query string: kept as text so that no value, however large, is turned into
 * a float before it is clamped (resolvePaging). Decimal digits with an optional sign, or empty.
 */
const PagingNumber = (description: string) =>
  Type.Optional(Type.String({ pattern: '^([+-]?[0-9]+)?$', 'x-message': 'must be a whole number', description }));

/** Query of every list endpoint (API decisions, "Lists"). Empty values mean the default. */
export const PageQuery = {
  perPage: PagingNumber(
    `Records per page, default ${DEFAULT_PER_PAGE}. Values below 1 (or empty) mean ${DEFAULT_PER_PAGE}; values above ${MAX_PER_PAGE} mean ${MAX_PER_PAGE}. \`meta.perPage\` shows the value used.`,
  ),
  page: PagingNumber(
    `Page number, 1-based, default 1. Values below 1 (or empty) mean 1, values above ${MAX_PAGE} mean ${MAX_PAGE}; \`meta.currentPage\` shows the page used.`,
  ),
  term: Type.Optional(
    Type.String({
      maxLength: MAX_TERM_LENGTH,
      pattern: '^[^\\u0000]*$',
      'x-message': 'must not contain NUL characters',
      description: 'Case-insensitive keyword filter.',
    }),
  ),
};

export const MAX_BATCH = 500;

/** true/false, 0/1 and "0"/"1" (the spec's own example sends 0; the workflow connector sends 0/1). */
export const Flag = Type.Optional(
  Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1), Type.Literal('0'), Type.Literal('1')], {
    'x-message': 'must be true or false',
  }),
);

/**
 * A number as the hosted service validates one (Laravel's `numeric`): a JSON number or a string
 * holding one (`"4.00"`). Every numeric field of a body — amounts, a voucher line's quantity, unit
 * cost and total — takes this one form; the service reads the string (domain/numeric-text.ts) and
 * says what is wrong with the value, so the schema only bounds its length.
 */
export function NumberValue(options: Record<string, unknown> = {}) {
  return Type.Union([Type.Number(), Type.String({ maxLength: 40 })], { 'x-message': 'must be a number', ...options });
}

/**
 * An integer id or enum value, as a JSON number or as its decimal text (`"shippingTypeId": "1"`):
 * clients of the hosted service send both, and Laravel's `integer` rule takes both. Which values
 * are allowed is the service's to say.
 */
export function IntegerValue(
  options: Record<string, unknown> = {},
  bounds: { minimum: number; maximum: number } = { minimum: 0, maximum: 999_999_999 },
) {
  const digits = String(bounds.maximum).length;
  return Type.Union([Type.Integer(bounds), Type.String({ pattern: `^[0-9]{1,${digits}}$` })], {
    'x-message': 'must be an integer',
    ...options,
  });
}

/** The number an IntegerValue holds. */
export function integerValue(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

/** The paging a list request asked for, clamped (domain/paging.ts). */
export function pageOf(query: { perPage?: string; page?: string }): Paging {
  return resolvePaging(query.page, query.perPage);
}

/**
 * A calendar date as text: the spec's YYYY-MM-DD, or MM/DD/YYYY as US clients write it (rewritten to
 * YYYY-MM-DD while validating: schemas/validator.ts, `x-us-date`). The pattern, not a length, bounds
 * it, so a date-time where a date belongs (`2026-11-26T00:00:00.000Z`, what JavaScript's toISOString
 * gives) is told the format, a mistake clients make often; whether the day exists (2026-02-30) is
 * the service's to say.
 */
export function DateText(description: string) {
  return Type.String({
    pattern: '^([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2}/[0-9]{1,2}/[0-9]{4})$',
    'x-us-date': true,
    'x-message': 'must be a date in the format YYYY-MM-DD or MM/DD/YYYY (a date without a time)',
    description,
  });
}

/** A required, non-empty, bounded string. */
export function Text(maxLength: number, options: Record<string, unknown> = {}) {
  return Type.String({ minLength: 1, maxLength, ...options });
}

/** An optional string that may be empty. */
export function OptionalText(maxLength: number, options: Record<string, unknown> = {}) {
  return Type.Optional(Type.String({ maxLength, ...options }));
}

export function IdParam(name: string) {
  return Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 200 }) });
}

/**
 * An id in a path that holds a NUL cannot name anything (and PostgreSQL cannot even compare it):
 * services get an id that matches nothing instead, so the answer is the ordinary 404.
 */
export function pathId(params: unknown, name: string): string {
  const value = (params as Record<string, unknown>)[name];
  return typeof value === 'string' && !value.includes('\u0000') ? value : '';
}

export const ListQuery = Type.Object(PageQuery);

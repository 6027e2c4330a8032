// How every list pages (API decisions, "Lists"): the API's query schemas and the panel's views use
// the same numbers and the same clamping.
export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 500;
/**
 * Highest page number served. Far past any real list, and small enough that the offset
 * (MAX_PAGE - 1) * MAX_PER_PAGE stays an exact integer in JavaScript and fits PostgreSQL's BIGINT
 * and SQLite's INTEGER: a page number a client made up (`page=99999999999999999999`) clamps here
 * instead of reaching SQL as 1e20.
 */
export const MAX_PAGE = 1_000_000_000;
/** Longest `term` filter. */
export const MAX_TERM_LENGTH = 200;

/** A paging value as the query string gives it: optional sign and decimal digits, or empty. */
export const PAGING_NUMBER = /^[+-]?[0-9]+$/;

export interface Paging {
  perPage: number;
  page: number;
  limit: number;
  offset: number;
}

/**
 * Reads a decimal integer of any length without losing it to floating point: anything past
 * `ceiling` is `ceiling`. Signs and leading zeros as Laravel's paginator reads them.
 */
function boundedInteger(text: string, ceiling: number): number {
  const negative = text.startsWith('-');
  const digits = text.replace(/^[+-]/, '').replace(/^0+(?=[0-9])/, '');
  const value = digits.length > String(ceiling).length ? ceiling : Math.min(Number(digits), ceiling);
  return negative ? -value : value;
}

/**
 * The page and page size actually used, as Laravel's paginator (which the hosted service runs)
 * settles them: absent, empty or below 1 means page 1 and the default size; a size above the
 * maximum is the maximum; a page above MAX_PAGE is MAX_PAGE (an empty page, like any page past the
 * end). `undefined` and '' both mean "not given". Text that is not a decimal integer is the
 * caller's to refuse (the API answers 422, the panel falls back to the default).
 */
export function resolvePaging(page: string | undefined, perPage: string | undefined): Paging {
  const size =
    perPage === undefined || !PAGING_NUMBER.test(perPage) ? DEFAULT_PER_PAGE : boundedInteger(perPage, MAX_PER_PAGE);
  const usedSize = size < 1 ? DEFAULT_PER_PAGE : size;
  const number = page === undefined || !PAGING_NUMBER.test(page) ? 1 : boundedInteger(page, MAX_PAGE);
  const usedPage = Math.max(number, 1);
  return { perPage: usedSize, page: usedPage, limit: usedSize, offset: (usedPage - 1) * usedSize };
}

/** One page of a list and the exact number of items in the whole list. */
export interface Paged<T> {
  total: number;
  items: T[];
}

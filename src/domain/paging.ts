// How every list pages (API decisions, "Lists"): the API's query schemas and the panel's views use
// the same numbers.
export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 500;
/** Longest `term` filter. */
export const MAX_TERM_LENGTH = 200;

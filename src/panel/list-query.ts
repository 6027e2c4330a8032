// The paging and filter parameters of the panel's lists, read leniently from the query string
// (a page is never an error: odd values fall back to the defaults), with GET /checks's names and limits.
import { isStatusName, type CheckStatusName } from '../domain/check-status.ts';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, MAX_TERM_LENGTH } from '../domain/paging.ts';
import { queryText } from './form.ts';

/** GET /checks's referenceId limit. */
export const MAX_REFERENCE_ID = 255;

export interface ListFilters {
  perPage: number;
  page: number;
  term: string;
  status: CheckStatusName | null;
  referenceId: string;
}

/** A whole number from 1 to `max` (larger ones clamp to `max`), else `fallback`. */
export function positiveInt(text: string, fallback: number, max: number): number {
  if (!/^\d{1,9}$/.test(text)) return fallback;
  const value = Number(text);
  return value < 1 ? fallback : Math.min(value, max);
}

export function listFilters(query: unknown): ListFilters {
  const status = queryText(query, 'status');
  return {
    perPage: positiveInt(queryText(query, 'perPage'), DEFAULT_PER_PAGE, MAX_PER_PAGE),
    page: positiveInt(queryText(query, 'page'), 1, 1_000_000_000),
    term: queryText(query, 'term').slice(0, MAX_TERM_LENGTH),
    status: isStatusName(status) ? status : null,
    referenceId: queryText(query, 'referenceId').slice(0, MAX_REFERENCE_ID),
  };
}

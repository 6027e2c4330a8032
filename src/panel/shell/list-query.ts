// The paging and filter parameters of the panel's lists, read leniently from the query string
// (a page is never an error: odd values fall back to the defaults), with GET /checks's names and limits.
import { isStatusName, type CheckStatusName } from '../../domain/check-status.ts';
import { MAX_TERM_LENGTH, resolvePaging } from '../../domain/paging.ts';
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

export function listFilters(query: unknown): ListFilters {
  const status = queryText(query, 'status');
  // The API's clamping (page 0 is page 1, a huge page is the last one served); text that is not a
  // number falls back to the default here instead of the API's 422.
  const { page, perPage } = resolvePaging(queryText(query, 'page'), queryText(query, 'perPage'));
  return {
    perPage,
    page,
    term: queryText(query, 'term').slice(0, MAX_TERM_LENGTH),
    status: isStatusName(status) ? status : null,
    referenceId: queryText(query, 'referenceId').slice(0, MAX_REFERENCE_ID),
  };
}

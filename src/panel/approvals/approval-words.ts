// How the panel words a check's approval, on the check's page and in the checks list: the writer
// sees "waiting for approval (0 of 1)" where the check is, and the reason of a rejection.
import { type CheckApproval, LISTED_APPROVAL_STATES, type ListedApprovalState } from '../../domain/approvals/policy.ts';
import { queryText } from '../shell/form.ts';

export function approvalWords(a: CheckApproval): string {
  switch (a.status) {
    case 'not_required':
      return '';
    case 'pending':
      return `waiting for approval (${a.approvals.length} of ${a.required})`;
    case 'approved':
      return `approved by ${a.approvals.map((x) => x.by).join(', ')}`;
    case 'rejected':
      return `rejected by ${a.rejectedBy ?? 'an approver'}${a.reason === null ? '' : `: ${a.reason}`}`;
  }
}

/** The list's approval filter from the query (`?approval=pending`), or null for every check. */
export function approvalFilter(query: unknown): ListedApprovalState | null {
  const value = queryText(query, 'approval');
  return (LISTED_APPROVAL_STATES as readonly string[]).includes(value) ? (value as ListedApprovalState) : null;
}

export const APPROVAL_FILTER_NAMES: Readonly<Record<ListedApprovalState, string>> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
};

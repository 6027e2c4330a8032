// Clearing: the bank paid a check. It is recorded as a cleared date and a statement, never as a
// status, so the seven status codes stay what clients know (docs/reconciliation.md).
import type { Check } from './check.ts';
import { statusName, type CheckStatusName } from './check-status.ts';

/** Statuses of an issued check: it left on paper or by email, so the bank can be asked to pay it. */
export const ISSUED_STATUSES: readonly CheckStatusName[] = ['printed', 'mailed', 'emailed', 'eprinted'];

/** Statement names, as `checkStatements[].status` shows them. */
export const CLEARED_STATEMENT = 'cleared';
export const UNCLEARED_STATEMENT = 'uncleared';

export function isIssued(status: number): boolean {
  return ISSUED_STATUSES.includes(statusName(status));
}

/** Issued, not void, not cleared: money the bank may still pay out. */
export function isOutstanding(check: Pick<Check, 'status' | 'clearedDate'>): boolean {
  return isIssued(check.status) && check.clearedDate === null;
}

/** Why a check cannot clear, or null when it can. */
export function whyNotClearable(check: Pick<Check, 'status' | 'clearedDate'>): string | null {
  if (check.clearedDate !== null) return `it already cleared on ${check.clearedDate}`;
  if (isIssued(check.status)) return null;
  const name = statusName(check.status);
  return name === 'new' ? 'its status is new: it was never issued' : `its status is ${name}`;
}

/** Why a row of the bank's cleared-items file did not clear a check (docs/reconciliation.md). */
export const MISMATCH_REASONS = [
  'unknown_number',
  'amount_differs',
  'void',
  'not_issued',
  'already_cleared',
  'duplicate_line',
  'date_before_issue',
] as const;
export type MismatchReason = (typeof MISMATCH_REASONS)[number];

/** A bank account's checks issued and not yet paid: how many and their total (cents). */
export interface Outstanding {
  count: number;
  totalCents: number;
}

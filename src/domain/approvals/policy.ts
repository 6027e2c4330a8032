// Approval policies and the states of a check's approval (docs/approvals.md). Pure: the store
// keeps the rows, the services apply these rules.

/** A company's rule, or a bank account's own: checks at or above the threshold need N approvals. */
export interface ApprovalPolicy {
  /** '' for the company's rule; a bank account's id for that account's own. */
  readonly bankAccountId: string;
  readonly thresholdCents: number;
  readonly approvers: 1 | 2;
}

export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'not_required'] as const;

export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** The states GET /checks?approval= lists (a check no policy covers has no approval to list by). */
export const LISTED_APPROVAL_STATES = ['pending', 'approved', 'rejected'] as const;
export type ListedApprovalState = (typeof LISTED_APPROVAL_STATES)[number];

export function isApproverCount(n: number): n is 1 | 2 {
  return n === 1 || n === 2;
}

/** The policy that covers a check on this bank account: its own, else the company's, else none. */
export function policyFor(policies: readonly ApprovalPolicy[], bankAccountId: string): ApprovalPolicy | undefined {
  return policies.find((p) => p.bankAccountId === bankAccountId) ?? policies.find((p) => p.bankAccountId === '');
}

/**
 * How many approvals a check needs under `policy` (0: none). A check printed without an amount
 * can be filled in for any sum, so it is held whatever the threshold.
 */
export function approvalsRequired(policy: ApprovalPolicy | undefined, amountCents: number | null): number {
  if (policy === undefined) return 0;
  if (amountCents === null || amountCents >= policy.thresholdCents) return policy.approvers;
  return 0;
}

/** What a check's approval looks like to a reader. */
export interface CheckApproval {
  readonly status: ApprovalState;
  readonly required: number;
  readonly approvals: readonly { readonly by: string; readonly at: number }[];
  readonly rejectedBy: string | null;
  readonly rejectedAt: number | null;
  readonly reason: string | null;
}

export const NOT_REQUIRED: CheckApproval = {
  status: 'not_required',
  required: 0,
  approvals: [],
  rejectedBy: null,
  rejectedAt: null,
  reason: null,
};

/** Whether a check in this approval state may leave (print, email, mail, download). */
export function mayLeave(approval: Pick<CheckApproval, 'status'>): boolean {
  return approval.status === 'approved' || approval.status === 'not_required';
}

/** "Check 10023 is waiting for approval (1 of 2 approvals)." / "Check 10023 was rejected: reason." */
export function heldWords(serialNumber: string, approval: CheckApproval): string {
  if (approval.status === 'rejected') {
    const why = approval.reason === null || approval.reason === '' ? '' : `: ${approval.reason}`;
    return `Check ${serialNumber} was rejected${why.replace(/\.$/, '')}.`;
  }
  const noun = approval.required === 1 ? 'approval' : 'approvals';
  return `Check ${serialNumber} is waiting for approval (${approval.approvals.length} of ${approval.required} ${noun}).`;
}

/**
 * How many approvals a rule needs, as a form or a command sends it: exactly "0" (remove the rule),
 * "1" or "2"; anything else, a missing value above all, is null. Number() would read "" as 0 and
 * quietly remove the rule.
 */
export function parseApproverCount(text: string | undefined): 0 | 1 | 2 | null {
  if (text === '0') return 0;
  if (text === '1') return 1;
  if (text === '2') return 2;
  return null;
}

/** A threshold as people type it ("1,000", "$1000.00", "0"): cents, or null when it is not one. */
export function parseThreshold(text: string): number | null {
  const plain = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const match = /^([0-9]{1,8})(?:\.([0-9]{1,2}))?$/.exec(plain);
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

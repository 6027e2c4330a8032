// The events a webhook endpoint can listen for (docs/webhooks.md).

export const EVENT_TYPES = [
  'check.created',
  'check.printed',
  'check.emailed',
  'check.eprinted',
  'check.mailed',
  'check.voided',
  'check.refunded',
  // The bank paid the check, and the undoing of a clearing marked by mistake (docs/reconciliation.md).
  'check.cleared',
  'check.uncleared',
  // A policy holds the check until approved; approved or rejected by the company's approvers (docs/approvals.md).
  'check.approval_required',
  'check.approved',
  'check.rejected',
  'delivery.email.sent',
  'delivery.email.failed',
  'delivery.sms.sent',
  'delivery.sms.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

// The events a webhook endpoint can listen for (docs/webhooks.md).

export const EVENT_TYPES = [
  'check.created',
  'check.printed',
  'check.emailed',
  'check.eprinted',
  'check.mailed',
  'check.voided',
  'check.refunded',
  'delivery.email.sent',
  'delivery.email.failed',
  'delivery.sms.sent',
  'delivery.sms.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

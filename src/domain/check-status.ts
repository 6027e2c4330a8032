// Check statuses as the API decisions number them (the spec fixes only 0 = New), and the moves
// between them that exist today. A move the table does not allow is refused with a 422 naming
// the current status.

export const CHECK_STATUSES = ['new', 'printed', 'mailed', 'emailed', 'eprinted', 'void', 'refunded'] as const;
export type CheckStatusName = (typeof CHECK_STATUSES)[number];

const DESCRIPTIONS: Readonly<Record<CheckStatusName, string>> = {
  new: 'New',
  printed: 'Printed',
  mailed: 'Mailed',
  emailed: 'Emailed',
  eprinted: 'E-Printed',
  void: 'Void',
  refunded: 'Refunded',
};

export function statusCode(name: CheckStatusName): number {
  return CHECK_STATUSES.indexOf(name);
}

export function statusName(code: number): CheckStatusName {
  const name = CHECK_STATUSES[code];
  if (name === undefined) throw new RangeError(`unknown check status code ${code}`);
  return name;
}

export function statusDescription(code: number): string {
  return DESCRIPTIONS[statusName(code)];
}

export function isStatusName(value: string): value is CheckStatusName {
  return (CHECK_STATUSES as readonly string[]).includes(value);
}

/**
 * What can happen to a check, the statuses each event may start from, and where it leads
 * (docs/lifecycle.md draws it). `void` and `refunded` are final: nothing leaves them.
 */
export type CheckEvent = 'print' | 'email' | 'eprint' | 'mail' | 'void' | 'refund';

export const TRANSITIONS: Readonly<
  Record<CheckEvent, { readonly from: readonly CheckStatusName[]; readonly to: CheckStatusName }>
> = {
  // Reprinting a printed check is allowed (a jammed printer); never a check already sent another way.
  print: { from: ['new', 'printed'], to: 'printed' },
  // Emailing again re-sends the same check.
  email: { from: ['new', 'emailed', 'eprinted'], to: 'emailed' },
  // The payee downloaded the emailed check to print it. Later downloads serve the same PDF and
  // are not moves (delivery.service.ts payeeDownload): one `eprinted` statement per email.
  eprint: { from: ['emailed'], to: 'eprinted' },
  // A mailing was dispatched by the print-and-mail operator.
  mail: { from: ['new'], to: 'mailed' },
  void: { from: ['new', 'printed', 'emailed', 'eprinted', 'mailed'], to: 'void' },
  // A mailing cancelled before dispatch: the check was never issued and its mailing is refunded.
  refund: { from: ['new'], to: 'refunded' },
};

/** Past-tense name of an event, as statements and webhooks call it. */
export const EVENT_STATEMENT: Readonly<Record<CheckEvent, string>> = {
  print: 'printed',
  email: 'emailed',
  eprint: 'eprinted',
  mail: 'mailed',
  void: 'void',
  refund: 'refunded',
};

export function canHappen(event: CheckEvent, code: number): boolean {
  return TRANSITIONS[event].from.includes(statusName(code));
}

/** The status code an event leads to. */
export function statusAfter(event: CheckEvent): number {
  return statusCode(TRANSITIONS[event].to);
}

export function canEmail(code: number): boolean {
  return canHappen('email', code);
}

export function canPrint(code: number): boolean {
  return canHappen('print', code);
}

/** Editing and deleting are only for checks that have not gone anywhere yet. */
export function isEditable(code: number): boolean {
  return statusName(code) === 'new';
}

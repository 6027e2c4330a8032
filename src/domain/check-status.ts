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

/** Statuses from which a check may be (re)sent by email: never once void, refunded or mailed. */
const EMAILABLE: ReadonlySet<CheckStatusName> = new Set(['new', 'printed', 'emailed', 'eprinted']);

export function canEmail(code: number): boolean {
  return EMAILABLE.has(statusName(code));
}

/**
 * Statuses from which a check may be printed on paper: a new one, or a printed one again (a jammed
 * printer). Never one already sent electronically or by mail — that would make two negotiable
 * copies — nor a void or refunded one.
 */
const PRINTABLE: ReadonlySet<CheckStatusName> = new Set(['new', 'printed']);

export function canPrint(code: number): boolean {
  return PRINTABLE.has(statusName(code));
}

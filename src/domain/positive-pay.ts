// Positive pay: the list of checks a business tells its bank it issued (and voided), so the bank
// pays only those. The layouts a file may take, the bounds of one export and a record's values;
// the files themselves are written by formats/positive-pay-file.ts (docs/positive-pay.md).

/** `bank`: each bank account's chosen layout (a preset or the company's custom layout). */
export const POSITIVE_PAY_FORMATS = ['csv', 'fixed', 'bank'] as const;
export type PositivePayFormat = (typeof POSITIVE_PAY_FORMATS)[number];

export function isPositivePayFormat(value: string): value is PositivePayFormat {
  return (POSITIVE_PAY_FORMATS as readonly string[]).includes(value);
}

/** The longest range one export covers (inclusive days): one year, leap day included. */
export const MAX_RANGE_DAYS = 366;
/** The most records one export writes; a longer list is refused (narrow the range). */
export const MAX_EXPORT_RECORDS = 20_000;

/** One line of the file: an issued check (`I`) or a void of an issued check (`V`). */
export interface PositivePayRecord {
  kind: 'I' | 'V';
  checkId: string;
  serialNumber: string;
  /** The date on the check (YYYY-MM-DD): the bank matches it, for voids too. */
  issueDate: string;
  amountCents: number;
  payeeName: string;
}

export interface PositivePayFile {
  name: string;
  contentType: string;
  content: string;
}

/** Days from `from` to `to`, both counted (calendar dates already checked). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

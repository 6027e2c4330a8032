// Positive pay files: the list of checks a business tells its bank it issued (and voided), so the
// bank pays only those. Each layout is a description in formats/positive-pay-layouts/ (our CSV,
// JPMorgan Chase's ARP Standard Input, …), all written by the one writer there; each is
// documented with its source in docs/positive-pay.md.
import type { PositivePayFile, PositivePayFormat, PositivePayRecord } from '../domain/positive-pay.ts';
import { CHASE_ARP } from './positive-pay-layouts/chase-arp.ts';
import type { PositivePayLayout } from './positive-pay-layouts/layout.ts';
import { OURS_CSV } from './positive-pay-layouts/ours-csv.ts';
import { presetNamed } from './positive-pay-layouts/presets.ts';
import { type LayoutAccount, type WriteOptions, writePositivePay } from './positive-pay-layouts/writer.ts';

/** Our documented CSV: every cell through `csvCell` (formula-looking payees written as text). */
export function positivePayCsv(accountNumber: string, records: readonly PositivePayRecord[]): string {
  return writePositivePay(OURS_CSV, { accountNumber }, records);
}

/** JPMorgan Chase ARP Standard Input, 94 characters a record. */
export function positivePayFixed(accountNumber: string, records: readonly PositivePayRecord[]): string {
  return writePositivePay(CHASE_ARP, { accountNumber }, records);
}

/**
 * `account` carries the routing number too: a layout may ask for it (a header's or a record's
 * field); `options` the day the file is written, for layouts that write it.
 */
export function positivePayLayoutFile(
  layout: PositivePayLayout,
  account: LayoutAccount,
  records: readonly PositivePayRecord[],
  baseName: string,
  options: WriteOptions = {},
): PositivePayFile {
  return {
    name: `${baseName}.${layout.extension}`,
    contentType: layout.contentType,
    content: writePositivePay(layout, account, records, options),
  };
}

export function positivePayFile(
  format: PositivePayFormat,
  accountNumber: string,
  records: readonly PositivePayRecord[],
  baseName: string,
): PositivePayFile {
  const layout = presetNamed(format);
  if (layout === undefined) throw new RangeError(`no positive pay layout named ${format}`);
  return positivePayLayoutFile(layout, { accountNumber }, records, baseName);
}

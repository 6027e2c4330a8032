// The bank's file of checks paid, read into check number, amount and paid date per row. Banks send
// it in one of a few shapes, each recognised here by its content, not by its name or content type:
// BAI2 (bank-files/bai2.ts), OFX or QFX (bank-files/ofx.ts), or CSV with or without a header
// (bank-files/bank-csv.ts). What each reads and where its layout comes from: docs/reconciliation.md.
// Everything here is pure — text in, plain data out, a refused file as data — so it runs in a
// worker thread; the service decides what a row matches.
import { readBai2, looksLikeBai2 } from './bank-files/bai2.ts';
import { readBankCsv } from './bank-files/bank-csv.ts';
import type { ClearedItemsResult } from './bank-files/bank-values.ts';
import { looksLikeOfx, readOfx } from './bank-files/ofx.ts';

export type { ClearedItemsResult } from './bank-files/bank-values.ts';
export { parseBankAmount, parseBankDate, serialOf } from './bank-files/bank-values.ts';

/**
 * Reads the file. `fallbackDate` is the cleared date of rows when a CSV has no date column.
 * `today` bounds the dates: a bank does not pay a check tomorrow. A file that cannot be read is
 * refused naming the line and what was missing: nothing is cleared from half a file.
 */
export function readClearedItems(text: string, fallbackDate: string, today: string): ClearedItemsResult {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (looksLikeBai2(body)) return readBai2(body, today);
  if (looksLikeOfx(body)) return readOfx(body, today);
  return readBankCsv(body, fallbackDate, today);
}

// Task: the bank's cleared-items file read within its bounds (formats/cleared-items-file.ts, csv-parse):
// rows of check number, amount and date, or the sentence that says why the file cannot be read.
// Matching against the register, which needs the database, stays on the main thread.
import { type ClearedItemsResult, readClearedItems } from '../../formats/cleared-items-file.ts';

export interface ReadClearedItemsInput {
  text: string;
  /** The cleared date of rows when the file has no date column (YYYY-MM-DD). */
  fallbackDate: string;
  /** The account's today: no row may clear after it. */
  today: string;
}

export async function run(input: ReadClearedItemsInput): Promise<ClearedItemsResult> {
  return readClearedItems(input.text, input.fallbackDate, input.today);
}

// The bank's cleared-items (paid-items) file as the service sees it: its bounds and the rows read
// from it (check number, amount, paid date). Reading the file itself is formats/cleared-items-file.ts;
// which check a row matches is the service's (services/checks/clearing.service.ts).

/** Largest file taken (API body and panel upload): a year of a busy account's paid checks. */
export const MAX_CLEARED_ITEMS_BYTES = 1024 * 1024;
/** Most data rows in one file: every matched check is cleared in one transaction. */
export const MAX_CLEARED_ITEMS_ROWS = 10_000;
/** Columns of one line: bank exports have about ten. */
export const MAX_CLEARED_ITEMS_COLUMNS = 100;
/** Characters of one cell: a bank's description is the longest, far below this. */
export const MAX_CLEARED_ITEMS_CELL_CHARS = 1_024;
/** Characters of one line, its cells together: what one record may make the parser buffer. */
export const MAX_CLEARED_ITEMS_LINE_CHARS = 16 * 1024;
/** Rows that did not clear listed in the API's answer (mismatchedCount counts them all). */
export const MAX_LISTED_MISMATCHES = 1_000;

/** One row of the file that names a check. */
export interface ClearedItem {
  /** 1-based line of the file, as a spreadsheet numbers it. */
  line: number;
  /** The check number as the bank wrote it (trimmed, at most 40 characters). */
  checkNumber: string;
  /** The serial number it names as we store serials (digits, no leading zeros); null if it names none. */
  serial: string | null;
  amountCents: number;
  clearedDate: string;
}

export interface ClearedItemsFile {
  items: ClearedItem[];
  /** Lines with no check number (deposits, fees, transfers) or nothing at all. */
  skippedLines: number;
  /** The header names that were used, for the answer: what we understood the file to say. */
  columns: { checkNumber: string; amount: string; date: string | null };
}

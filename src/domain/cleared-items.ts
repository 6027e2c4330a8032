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
/** BAI2: physical records (lines) in one file, 01 to 99, continuations included. */
export const MAX_BAI2_RECORDS = 60_000;
/** BAI2: characters of one physical record (banks send 80 or variable length). */
export const MAX_BAI2_RECORD_CHARS = 4_096;
/** BAI2: 88 continuation records after one record. */
export const MAX_BAI2_CONTINUATIONS = 100;
/** OFX: elements nested inside one another (a statement is about eight deep). */
export const MAX_OFX_DEPTH = 32;
/** OFX: characters of an element's name (the longest in the OFX specification has 18). */
export const MAX_OFX_NAME_CHARS = 32;

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

/**
 * Money into the account that carries a number (a deposit slip, a returned check): listed apart,
 * never matched, so a credit can never clear a check.
 */
export interface CreditItem {
  line: number;
  checkNumber: string;
  amountCents: number;
  date: string;
}

/** What the file was recognised as, by its shape (docs/reconciliation.md lists each). */
export const BANK_FILE_LAYOUTS = {
  csv: 'CSV with a header line',
  'csv-debit-credit': 'CSV with debit and credit columns',
  'csv-headerless': 'Wells Fargo CSV (no header line: date, amount, *, check number, description)',
  ofx: 'OFX/QFX download',
  bai2: 'BAI2 file',
} as const;
export type BankFileLayout = keyof typeof BANK_FILE_LAYOUTS;

export interface ClearedItemsFile {
  layout: BankFileLayout;
  /** Money out with a check number: the rows that may clear a check. */
  items: ClearedItem[];
  /** Money in with a number: shown apart, never cleared. */
  credits: CreditItem[];
  /** Lines with no check number (fees, transfers, deposits without a number) or nothing at all. */
  skippedLines: number;
  /** The header names that were used, for the answer: what we understood the file to say. */
  columns: { checkNumber: string; amount: string; date: string | null };
}

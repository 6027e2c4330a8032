// What a positive pay layout is, as data: one description per bank (the presets in this folder)
// or per office (a custom layout typed in from the bank's spec sheet). The writer (writer.ts) is
// the only code that turns a description and a list of checks into a file, so every layout gets
// the same checks on widths, digits and formula-looking text.

/** How a date is written. Letters stand for the digits of the date the field writes (the check's
 * issue date, or the day the file is written). */
export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYYMMDD',
  'MMDDYYYY',
  'MMDDYY',
  'YYMMDD',
  'MM/DD/YYYY',
  'MM/DD/YY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** `cents`: implied decimal, digits only (1234.56 → 123456); `decimal`: dollars with a point (1234.56). */
export const AMOUNT_FORMATS = ['cents', 'decimal'] as const;
export type AmountFormat = (typeof AMOUNT_FORMATS)[number];

/** Where a field's value comes from. */
export type FieldSource =
  | { kind: 'accountNumber' }
  | { kind: 'routingNumber' }
  | { kind: 'checkNumber' }
  | { kind: 'amount'; format: AmountFormat }
  | { kind: 'issueDate'; format: DateFormat }
  /** The day the file is written, in the company's time zone: any record (a header's processing
   * date, for one). */
  | { kind: 'fileDate'; format: DateFormat }
  /** Detail: the issue date on an issue, the file's date on a void (banks that date a void the day
   * they are told of it). */
  | { kind: 'issueOrFileDate'; format: DateFormat }
  | { kind: 'payee' }
  /** Detail: the payee over two fields. Line 1 holds what fits its width, broken at a space when
   * the name has one there (`splitPayee` in writer.ts); line 2 the rest, cut to its own width. */
  | { kind: 'payeeLine1' }
  | { kind: 'payeeLine2' }
  /** The layout's issue or void code for the record (`codes`). */
  | { kind: 'code' }
  | { kind: 'literal'; text: string }
  /** Blank: the pad character repeated over the width. */
  | { kind: 'filler' }
  /** Header and trailer fields: the number of detail records, and their total. */
  | { kind: 'recordCount' }
  | { kind: 'totalAmount'; format: AmountFormat }
  /** Header and trailer: the sum of the records' check numbers (a bank's "hash total"). */
  | { kind: 'checkNumberTotal' };

/** Sources written through a date format. */
export const DATE_SOURCES = ['issueDate', 'fileDate', 'issueOrFileDate'] as const;

export interface LayoutField {
  source: FieldSource;
  /** Fixed-width layouts: every field has a width. Delimited layouts: a maximum length, if any. */
  width?: number;
  /** Default: numbers to the right, text to the left. */
  align?: 'left' | 'right';
  /** Default: `0` for numbers right-aligned, a space otherwise. */
  pad?: ' ' | '0';
}

export type RecordKind =
  | { kind: 'fixed' }
  /** Cells are quoted as RFC 4180 says when they must be, and text that starts like a
   * spreadsheet formula is neutralized (formats/csv-writer.ts). */
  | { kind: 'delimited'; delimiter: ',' | '|' | '\t' | ';' };

/** Text fields (payee, literals) in a fixed-width layout are printable ASCII upper-cased, as
 * banks' mainframes read them; `asIs` keeps the text as given (delimited files are UTF-8). */
export type TextCase = 'asciiUpper' | 'asIs';

export interface PositivePayLayout {
  /** Stable name used over the API, the command line and in the database. */
  name: string;
  title: string;
  /** Where the layout was read: the bank's own published document. */
  source?: { url: string; document: string; sample: string };
  record: RecordKind;
  codes: { issue: string; void: string };
  /** Header lines written first: either literal column names (delimited) or fields. */
  headerColumns?: readonly string[];
  header?: readonly LayoutField[];
  detail: readonly LayoutField[];
  trailer?: readonly LayoutField[];
  lineEnding: '\r\n' | '\n';
  text: TextCase;
  /** File name extension and content type of the file answered. */
  extension: 'csv' | 'txt';
  contentType: string;
}

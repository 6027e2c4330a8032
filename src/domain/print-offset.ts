// Printer offsets: a bank account's correction for a printer that places the page a little off.
// Everything printed for that account (checks, the MICR test page) is shifted by it, so the MICR
// line lands where the standard puts it. Measured on the MICR test page (docs/printing.md).

/** Hundredths of an inch; positive x moves the print right, positive y moves it down. */
export interface PrintOffset {
  readonly x: number;
  readonly y: number;
}

/** Largest correction either way: ±0.50 in. A printer further off than that needs fixing, not an offset. */
export const MAX_PRINT_OFFSET = 50;

export const NO_PRINT_OFFSET: PrintOffset = { x: 0, y: 0 };

export function isValidPrintOffset(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) <= MAX_PRINT_OFFSET;
}

/** An offset as signed inches for people: -6 → "-0.06", 12 → "+0.12". */
export function formatOffset(hundredths: number): string {
  const sign = hundredths < 0 ? '-' : '+';
  return `${sign}${(Math.abs(hundredths) / 100).toFixed(2)}`;
}

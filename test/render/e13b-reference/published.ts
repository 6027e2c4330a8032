// Published facts about E-13B that the recognition test checks our printed characters against.
// Transcribed from the sources named at each entry (numbers as in the project's E-13B guide,
// docs/e13b.md "Sources"); nothing here is read from src/render.
//
// [2]  C. Katz, "A Concise Guide to MICR", printerm.com/micrdef2.htm
// [3]  burtonmicr.com/fonts.html
// [4]  Neodynamic help, "MICR E-13B"
// [7]  smartcheque.com.au, "MICR Character Tolerances and Waveforms"
// [8]  Xerox, Generic MICR Fundamentals Guide 701P22140, Table 6-1
// [11] morovia.com/manuals/micr4/ch03.php   [12] APCA specification via smartcheque.com.au
// [R]  real check scans and an independent E-13B OCR reader trained on ~11,000 of them
//      (guide, "Shapes seen on real checks")

/** Our names for the 14 characters (the reader's output alphabet). */
export type E13bName = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'transit' | 'amount' | 'onUs' | 'dash';

export const E13B_NAMES: readonly E13bName[] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'transit', 'amount', 'onUs', 'dash'];

/** How the tests write a read MICR line as text: digits as themselves, the symbols as T, A, U and -. */
export const MICR_LINE_LETTER: Readonly<Record<E13bName, string>> = {
  '0': '0',
  '1': '1',
  '2': '2',
  '3': '3',
  '4': '4',
  '5': '5',
  '6': '6',
  '7': '7',
  '8': '8',
  '9': '9',
  transit: 'T',
  amount: 'A',
  onUs: 'U',
  dash: '-',
};

/** One E-13B unit: 0.013 in [1][2]. Every vertical edge lies a whole number of units from the right edge [2]. */
export const UNIT_IN = 0.013;

/** Heights in units: 0.117 in for digits, transit and amount, 0.091 in for on-us, 0.052 in for dash [3][4]. */
export const PUBLISHED_HEIGHT_UNITS: Readonly<Record<E13bName, number>> = {
  '0': 9, '1': 9, '2': 9, '3': 9, '4': 9, '5': 9, '6': 9, '7': 9, '8': 9, '9': 9,
  transit: 9, amount: 9, onUs: 7, dash: 4,
};

/** Widths published per character: 1 and 2 are 4 units (0.052 in); 0, 8 and the symbols 7 (0.091 in) [4]. */
export const PUBLISHED_WIDTH_UNITS: Readonly<Partial<Record<E13bName, number>>> = {
  '1': 4, '2': 4, '0': 7, '8': 7, transit: 7, amount: 7, onUs: 7, dash: 7,
};

/**
 * The reference peak(s) each character's signal is measured on, and its nominal level (on-us = 100)
 * [7] = [8] Table 6-1. "1+5" and "3+5" are averages of two peaks. Peaks count from the right edge.
 */
export const REFERENCE_PEAKS: Readonly<Record<E13bName, { readonly peaks: readonly number[]; readonly nominal: number }>> = {
  '0': { peaks: [1], nominal: 130 },
  '1': { peaks: [1], nominal: 85 },
  '2': { peaks: [2], nominal: 105 },
  '3': { peaks: [1], nominal: 85 },
  '4': { peaks: [1], nominal: 105 },
  '5': { peaks: [3], nominal: 105 },
  '6': { peaks: [1], nominal: 105 },
  '7': { peaks: [5], nominal: 75 },
  '8': { peaks: [1], nominal: 105 },
  '9': { peaks: [4], nominal: 165 },
  transit: { peaks: [3], nominal: 105 },
  amount: { peaks: [1, 5], nominal: 70 },
  onUs: { peaks: [3, 5], nominal: 100 },
  dash: { peaks: [3, 5], nominal: 67 },
};

/** The 0: four peaks + − + −, from outer right, inner right, inner left, outer left edges: 130, 110, 110, 130 [2]. */
export const ZERO_PEAKS: readonly number[] = [130, -110, 110, -130];

/** Placement on a US check [8][11][12], inches. */
export const PLACEMENT = {
  /** Right boundary of position 1, from the check's right edge. */
  firstPositionIn: 5 / 16,
  /** Character pitch. */
  pitchIn: 1 / 8,
  /** The print band, above the check's bottom edge. */
  bandBottomIn: 3 / 16,
  bandTopIn: 7 / 16,
} as const;

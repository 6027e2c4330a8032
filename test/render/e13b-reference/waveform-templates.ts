// Waveform templates for the recognition test: what a single-gap read head sees of each E-13B
// character, as signed ink steps at the eight vertical-edge positions 0..7 units (0.013 in each)
// from the character's right edge, read right to left: + where ink height rises, − where it falls
// [2][8][15]. A step is the change of inked height, in units (9 = a full-height edge).
//
// Written from descriptions of the real characters, not from src/render (docs/e13b.md §1 says
// which source fixed what):
// - 0: the published peak pattern + − + −, outer edges full height, inner edges the counter [2].
// - 1, 4, transit, amount, on-us: the shapes seen on real check scans and read by an independent
//   E-13B OCR reader [R]; heights of the reference elements from the reference-peak table [7][8].
// - dash: three separate parts whose second and third rising edges are the reference pair "3+5" [7]
//   (as for on-us), 4 units high [3][4].
// - 2, 3, 5, 6, 7, 8, 9: the stroke structure of the digits as drawn before the real-scan fixes,
// which the independent OCR reader read correctly every time [R]; these guard the drawing path and
// against regressions, they do not prove the shapes (no free table of E-13B waveforms was found).
// Widths follow [4] where published (1, 2: 4 units; 0, 8, symbols: 7); the last falling edge is
// the character's left edge.

import type { E13bName } from './published.ts';

/** [position in units from the right edge, signed step in units]. */
export type Edge = readonly [number, number];

export const WAVEFORM_TEMPLATES: Readonly<Record<E13bName, readonly Edge[]>> = {
  // Outer right edge (full height), inner right edge (the counter's height, 7), inner left, outer left.
  '0': [[0, 9], [2, -7], [5, 7], [7, -9]],
  // The heavy foot's right edge (more than half the height: reference peak 1 is nominally 85 where a
  // full-height edge gives 130 [7]), the stem's right edge (the rest of the height), the stem's left
  // edge = the character's left edge (full height). Stem at the LEFT, foot to the right [R].
  '1': [[0, 5], [2, 4], [4, -9]],
  // Upper-right stroke with the top and bottom bars; past it only the three bars; the lower-left
  // stroke; the left edge.
  '2': [[0, 6], [1, -3], [2, 3], [4, -6]],
  // Heavy lower bowl's right edge, then the upper stroke's; the stroke ends; the bars to the left.
  '3': [[0, 5], [1, 4], [3, -5], [5, -1], [6, -3]],
  // The block below the crossbar (its right edge, about half the height); its left edge leaves only
  // the crossbar; the left stroke from the top down to the crossbar; the left edge. Top right open [R].
  '4': [[0, 5], [3, -4], [4, 4], [6, -5]],
  // Lower-right bowl; the bowl's left edge leaves the bars; the upper-left stroke; the left edge.
  '5': [[0, 4], [1, 2], [3, -3], [4, 3], [6, -6]],
  // Lower bowl's right side; the bars; the full-height left stroke.
  '6': [[0, 5], [2, -2], [4, 6], [6, -9]],
  // The top bar's right tick; the heavy stem; the stem's left edge; the top bar's left tick.
  '7': [[0, 4], [1, -2], [2, 5], [4, -6], [5, 2], [6, -3]],
  // Lower loop wider and heavier than the upper one: its right edge, then the upper loop's; the bars;
  // the upper loop's left side, then the lower loop's.
  '8': [[0, 5], [1, 4], [2, -6], [5, 6], [6, -4], [7, -5]],
  // Full-height right stroke; the upper loop's bars; the heavier lower end; the upper-left stroke.
  '9': [[0, 9], [2, -5], [3, -2], [4, 3], [6, -5]],
  // Two square blocks at the right, top and bottom (3 + 3 units); gap; the bar at the left, 7 of 9
  // units high (shorter than the character [R]; reference peak 3, nominal 105 [7]).
  transit: [[0, 6], [3, -6], [5, 7], [7, -7]],
  // Block high at the right; tall thin bar in the middle; short block low at the left [R]. The
  // blocks' rising edges are the reference peaks 1 and 5, nominally 70 against a full-height 130 [7]:
  // about 4 units.
  amount: [[0, 4], [2, -4], [3, 9], [4, -9], [5, 4], [7, -4]],
  // Heavy square block at the top right; two thin bars of equal height [R]. The bars' rising edges
  // are the reference peaks 3 and 5 [7].
  onUs: [[0, 3], [3, -3], [4, 7], [5, -7], [6, 7], [7, -7]],
  // A small part at the right; two bars the dash's full height (4) whose rising edges are 3 and 5 [7].
  dash: [[0, 2], [1, -2], [2, 4], [4, -4], [5, 4], [7, -4]],
};

/** The eight edge positions a waveform reader samples. */
export const EDGE_POSITIONS = 8;

/** A template as eight samples, positions 0..7. */
export function templateSamples(edges: readonly Edge[]): number[] {
  const samples = new Array<number>(EDGE_POSITIONS).fill(0);
  for (const [position, step] of edges) samples[position] = (samples[position] ?? 0) + step;
  return samples;
}

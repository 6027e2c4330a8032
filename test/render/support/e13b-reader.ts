// An E-13B waveform reader for bitmaps, built only from published reading principles and the
// reference templates in test/render/e13b-reference/ (never from src/render):
// - the line is read right to left; a single-gap head sees the change of inked height in each
//   vertical slice: + where it rises, − where it falls [2][8][15];
// - every vertical edge lies a whole number of 0.013-in units from the character's first (right)
//   edge [2], so the reader locks on that edge and samples the steps at eight unit positions;
// - a character is the nearest template after both are scaled to unit length (ink strength does
//   not matter, only the pattern), and its margin is how much nearer it is than the runner-up.

import { E13B_NAMES, UNIT_IN, type E13bName } from '../e13b-reference/published.ts';
import { EDGE_POSITIONS, templateSamples, WAVEFORM_TEMPLATES } from '../e13b-reference/waveform-templates.ts';
import { inkAt, type GreyBitmap } from './raster.ts';

/** A region of the page in inches from its top-left corner. */
export interface Region {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface Classification {
  readonly name: E13bName;
  /** Distance to the best template (0 = same pattern, 2 = opposite). */
  readonly distance: number;
  readonly runnerUp: E13bName;
  /** Distance to the second-best template minus the best one's. */
  readonly margin: number;
}

export interface ReadCharacter extends Classification {
  /** The character's first (right) edge, inches from the page's left edge. */
  readonly rightIn: number;
  /** The signed ink steps at edge positions 0..7, in units (9 = a full-height edge). */
  readonly samples: readonly number[];
}

function unitVector(values: readonly number[]): number[] {
  const length = Math.hypot(...values);
  return length === 0 ? values.map(() => 0) : values.map((v) => v / length);
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(...a.map((v, i) => v - (b[i] ?? 0)));
}

const TEMPLATE_VECTORS = E13B_NAMES.map((name) => ({
  name,
  vector: unitVector(templateSamples(WAVEFORM_TEMPLATES[name])),
}));

/** The nearest template to eight samples, and how clear the choice is. */
export function classify(samples: readonly number[]): Classification {
  const v = unitVector(samples);
  const ranked = TEMPLATE_VECTORS.map((t) => ({ name: t.name, d: distance(v, t.vector) })).sort((a, b) => a.d - b.d);
  const [best, second] = ranked;
  if (best === undefined || second === undefined) throw new Error('no templates');
  return { name: best.name, distance: best.d, runnerUp: second.name, margin: second.d - best.d };
}

/** Inked height of each pixel column inside the region, in E-13B units. */
function columnInk(bitmap: GreyBitmap, region: Region): { ink: Float64Array; x0: number; unitPx: number } {
  const x0 = Math.floor(region.left * bitmap.dpi);
  const x1 = Math.ceil(region.right * bitmap.dpi);
  const y0 = Math.floor(region.top * bitmap.dpi);
  const y1 = Math.ceil(region.bottom * bitmap.dpi);
  const unitPx = UNIT_IN * bitmap.dpi;
  const ink = new Float64Array(x1 - x0);
  for (let x = x0; x < x1; x += 1) {
    let sum = 0;
    for (let y = y0; y < y1; y += 1) sum += inkAt(bitmap, x, y);
    ink[x - x0] = sum / unitPx;
  }
  return { ink, x0, unitPx };
}

/** Columns with less ink than this (units of height) count as paper. */
const PAPER = 0.25;

/**
 * Reads every character in a region holding one MICR line (nothing else), right to left: finds
 * each character's first edge, samples its waveform at the eight edge positions and classifies it.
 */
export function readLine(bitmap: GreyBitmap, region: Region): ReadCharacter[] {
  const { ink, x0, unitPx } = columnInk(bitmap, region);
  const at = (i: number): number => (i >= 0 && i < ink.length ? (ink[i] ?? 0) : 0);
  // step(b): change of ink when the head moves left across boundary b (between columns b-1 and b).
  const step = (b: number): number => at(b - 1) - at(b);
  const out: ReadCharacter[] = [];
  let i = ink.length - 1;
  while (i >= 0) {
    if (at(i) <= PAPER) {
      i -= 1;
      continue;
    }
    // The first edge: the centroid of the rising steps within a little over half a unit.
    let weight = 0;
    let moment = 0;
    for (let b = i + 2; b >= i + 2 - Math.ceil(0.6 * unitPx); b -= 1) {
      const s = step(b);
      if (s > 0) {
        weight += s;
        moment += s * b;
      }
    }
    const right = moment / weight;
    const samples = new Array<number>(EDGE_POSITIONS).fill(0);
    const first = Math.floor(right - (EDGE_POSITIONS - 0.5) * unitPx);
    for (let b = Math.ceil(right + 0.5 * unitPx); b >= first; b -= 1) {
      const k = Math.round((right - b) / unitPx);
      if (k >= 0 && k < EDGE_POSITIONS) samples[k] = (samples[k] ?? 0) + step(b);
    }
    out.push({ ...classify(samples), rightIn: (x0 + right) / bitmap.dpi, samples });
    // Characters are at least 2.6 units apart (1/8-in pitch, at most 7 units wide).
    i = Math.floor(right - 8 * unitPx);
  }
  return out;
}

/**
 * The inked pixels of one character cell, for shape checks: ink(x, y) with x in units from the
 * ink's left edge and y in units from its bottom edge, and the ink box size in units.
 */
export interface CellShape {
  readonly widthUnits: number;
  readonly heightUnits: number;
  /** Fraction of the pixels inside the box [x1, x2) × [y1, y2) (units, from the ink's bottom-left) that are inked. */
  inkFraction(x1: number, x2: number, y1: number, y2: number): number;
  /** Inked column runs, left to right, each with its extent in units (x from the left, y from the bottom). */
  parts(): Array<{ left: number; right: number; bottom: number; top: number }>;
}

/** The shape of whatever is inked inside the region (one character and paper around it). */
export function cellShape(bitmap: GreyBitmap, region: Region): CellShape {
  const x0 = Math.floor(region.left * bitmap.dpi);
  const x1 = Math.ceil(region.right * bitmap.dpi);
  const y0 = Math.floor(region.top * bitmap.dpi);
  const y1 = Math.ceil(region.bottom * bitmap.dpi);
  const inked = (x: number, y: number): boolean => inkAt(bitmap, x, y) >= 0.5;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      if (!inked(x, y)) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  if (minX === Infinity) throw new Error('no ink in the cell');
  const unitPx = UNIT_IN * bitmap.dpi;
  // Pixel (x, y) of the bitmap in units from the ink's bottom-left corner: left = minX, bottom = maxY + 1.
  const toPx = (ux: number, uy: number): [number, number] => [minX + ux * unitPx, maxY + 1 - uy * unitPx];
  return {
    widthUnits: (maxX + 1 - minX) / unitPx,
    heightUnits: (maxY + 1 - minY) / unitPx,
    inkFraction(ux1, ux2, uy1, uy2) {
      const [px1, py2] = toPx(ux1, uy1);
      const [px2, py1] = toPx(ux2, uy2);
      let total = 0;
      let count = 0;
      for (let y = Math.round(py1); y < Math.round(py2); y += 1) {
        for (let x = Math.round(px1); x < Math.round(px2); x += 1) {
          total += 1;
          if (inked(x, y)) count += 1;
        }
      }
      return total === 0 ? 0 : count / total;
    },
    parts() {
      const runs: Array<{ left: number; right: number; bottom: number; top: number }> = [];
      let open: { left: number; right: number; bottom: number; top: number } | null = null;
      for (let x = minX; x <= maxX + 1; x += 1) {
        let top = Infinity;
        let bottom = -Infinity;
        for (let y = minY; y <= maxY; y += 1) {
          if (x <= maxX && inked(x, y)) {
            top = Math.min(top, y);
            bottom = Math.max(bottom, y);
          }
        }
        if (top === Infinity) {
          if (open !== null) runs.push(open);
          open = null;
          continue;
        }
        const ux = (x - minX) / unitPx;
        const uTop = (maxY + 1 - top) / unitPx;
        const uBottom = (maxY - bottom) / unitPx;
        if (open === null) open = { left: ux, right: ux + 1 / unitPx, bottom: uBottom, top: uTop };
        else
          open = {
            left: open.left,
            right: ux + 1 / unitPx,
            bottom: Math.min(open.bottom, uBottom),
            top: Math.max(open.top, uTop),
          };
      }
      return runs;
    },
  };
}

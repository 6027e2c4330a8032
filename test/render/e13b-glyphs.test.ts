// Self-test of our E-13B outlines against the public facts in docs/e13b.md (guide sources in
// brackets). The waveform a single-gap read head sees is the derivative of the ink in each vertical
// slice, read right to left [2][8][15]; we compute it from the rectangles, one unit column at a time.

import { describe, expect, it } from 'vitest';
import { E13B_GLYPHS, MICR_CHARS, type E13bGlyph, type MicrChar } from '../../src/render/e13b-glyphs.ts';

/** Inked units in each one-unit column, rightmost column first (the reading order). */
function inkProfile(glyph: E13bGlyph): number[] {
  const columns = new Array<number>(glyph.width).fill(0);
  for (const r of glyph.rects) {
    for (let x = r.x; x < r.x + r.width; x += 1) columns[x] = (columns[x] ?? 0) + r.height;
  }
  return columns.reverse();
}

/**
 * Signed peaks of the ink derivative, in reading order: consecutive steps of the same sign form one
 * peak (+ where ink rises, − where it falls [2]); a flat column separates peaks.
 */
function peaks(glyph: E13bGlyph): number[] {
  const profile = [0, ...inkProfile(glyph), 0];
  const out: number[] = [];
  let current = 0;
  for (let i = 1; i < profile.length; i += 1) {
    const step = (profile[i] ?? 0) - (profile[i - 1] ?? 0);
    if (step === 0 || (current !== 0 && Math.sign(step) !== Math.sign(current))) {
      if (current !== 0) out.push(current);
      current = step;
    } else {
      current += step;
    }
  }
  if (current !== 0) out.push(current);
  return out;
}

/** Reference peaks per character, "value/peak number" [7] = [8] Table 6-1. */
const REFERENCE_PEAKS: Readonly<Record<MicrChar, readonly number[]>> = {
  '0': [1],
  '1': [1],
  '2': [2],
  '3': [1],
  '4': [1],
  '5': [3],
  '6': [1],
  '7': [5],
  '8': [1],
  '9': [4],
  transit: [3],
  amount: [1, 5],
  onUs: [3, 5],
  dash: [3, 5],
};

const SYMBOLS: readonly MicrChar[] = ['transit', 'amount', 'onUs', 'dash'];

describe('E-13B glyph geometry', () => {
  it('has the published widths: 1 and 2 four units, 0, 8 and the symbols seven, all whole units 4–7', () => {
    for (const c of MICR_CHARS) {
      const g = E13B_GLYPHS[c];
      expect(Number.isInteger(g.width), c).toBe(true);
      expect(g.width, c).toBeGreaterThanOrEqual(4);
      expect(g.width, c).toBeLessThanOrEqual(7);
    }
    expect(E13B_GLYPHS['1'].width).toBe(4);
    expect(E13B_GLYPHS['2'].width).toBe(4);
    for (const c of ['0', '8', ...SYMBOLS] as const) expect(E13B_GLYPHS[c].width, c).toBe(7);
  });

  it('has the published heights: 9 units for digits, transit and amount, 7 for on-us, 4 for dash', () => {
    for (const c of MICR_CHARS) {
      const expected = c === 'onUs' ? 7 : c === 'dash' ? 4 : 9;
      expect(E13B_GLYPHS[c].height, c).toBe(expected);
    }
    expect(E13B_GLYPHS['0'].height * 0.013).toBeCloseTo(0.117, 6);
    expect(E13B_GLYPHS.onUs.height * 0.013).toBeCloseTo(0.091, 6);
    expect(E13B_GLYPHS.dash.height * 0.013).toBeCloseTo(0.052, 6);
  });

  it('puts every edge on the 0.013-in lattice and fills its box exactly (ink touches all four sides)', () => {
    for (const c of MICR_CHARS) {
      const g = E13B_GLYPHS[c];
      const cells = new Set<string>();
      for (const r of g.rects) {
        for (const v of [r.x, r.y, r.width, r.height]) expect(Number.isInteger(v), c).toBe(true);
        expect(r.x, c).toBeGreaterThanOrEqual(0);
        expect(r.y, c).toBeGreaterThanOrEqual(0);
        expect(r.x + r.width, c).toBeLessThanOrEqual(g.width);
        expect(r.y + r.height, c).toBeLessThanOrEqual(g.height);
        for (let x = r.x; x < r.x + r.width; x += 1) {
          for (let y = r.y; y < r.y + r.height; y += 1) {
            const key = `${x},${y}`;
            expect(cells.has(key), `${c}: rectangles overlap at ${key}`).toBe(false);
            cells.add(key);
          }
        }
      }
      const xs = [...cells].map((k) => Number(k.split(',')[0]));
      const ys = [...cells].map((k) => Number(k.split(',')[1]));
      expect([Math.min(...xs), Math.max(...xs) + 1], c).toEqual([0, g.width]);
      expect([Math.min(...ys), Math.max(...ys) + 1], c).toEqual([0, g.height]);
    }
  });

  it('keeps symbols and digits inside the 9-unit character height once raised', () => {
    for (const c of MICR_CHARS) {
      const g = E13B_GLYPHS[c];
      expect(g.raise + g.height, c).toBeLessThanOrEqual(9);
    }
  });

  it('gives 1, 3 and 8 heavy bottoms: more ink in the lowest third than in the top third [10]', () => {
    for (const c of ['1', '3', '8'] as const) {
      const g = E13B_GLYPHS[c];
      const inRows = (from: number, to: number): number =>
        g.rects.reduce((sum, r) => {
          const overlap = Math.max(0, Math.min(r.y + r.height, to) - Math.max(r.y, from));
          return sum + overlap * r.width;
        }, 0);
      expect(inRows(0, 3), c).toBeGreaterThan(inRows(6, 9));
    }
  });
});

describe('E-13B waveform facts from the ink profile', () => {
  it('0 gives four peaks + − + −, outer edges stronger than inner ones (130, 110, 110, 130 [2])', () => {
    const p = peaks(E13B_GLYPHS['0']);
    expect(p.map(Math.sign)).toEqual([1, -1, 1, -1]);
    const [outerRight = 0, innerRight = 0, innerLeft = 0, outerLeft = 0] = p.map(Math.abs);
    expect(outerRight).toBeGreaterThan(innerRight);
    expect(outerLeft).toBeGreaterThan(innerLeft);
    expect(outerRight).toBe(outerLeft);
    expect(innerRight).toBe(innerLeft);
  });

  it('7, amount, on-us and dash give at least 5 peaks, 9 at least 4, 5 at least 3 [7]', () => {
    const minimum: Array<[MicrChar, number]> = [
      ['7', 5],
      ['amount', 5],
      ['onUs', 5],
      ['dash', 5],
      ['9', 4],
      ['5', 3],
    ];
    for (const [c, n] of minimum) expect(peaks(E13B_GLYPHS[c]).length, c).toBeGreaterThanOrEqual(n);
  });

  it('has every reference peak the tolerance table names [7][8]', () => {
    for (const c of MICR_CHARS) {
      const p = peaks(E13B_GLYPHS[c]);
      for (const ref of REFERENCE_PEAKS[c]) expect(p.length, `${c} needs peak ${ref}`).toBeGreaterThanOrEqual(ref);
    }
  });

  it('makes the summed references of amount, on-us and dash rising edges of separate elements', () => {
    // "1+5" and "3+5" add two peaks of the same kind; separate inked elements each start with a rise.
    for (const c of ['amount', 'onUs', 'dash'] as const) {
      const p = peaks(E13B_GLYPHS[c]);
      for (const ref of REFERENCE_PEAKS[c]) expect(p[ref - 1] ?? 0, `${c} peak ${ref}`).toBeGreaterThan(0);
    }
  });

  it('starts every waveform with a rise and ends it with a fall (ink begins and ends on paper)', () => {
    for (const c of MICR_CHARS) {
      const p = peaks(E13B_GLYPHS[c]);
      expect(p[0] ?? 0, c).toBeGreaterThan(0);
      expect(p[p.length - 1] ?? 0, c).toBeLessThan(0);
    }
  });

  it('gives all 14 characters different ink profiles, so a waveform reader can tell them apart', () => {
    const seen = new Map<string, MicrChar>();
    for (const c of MICR_CHARS) {
      const g = E13B_GLYPHS[c];
      const key = `${g.raise}:${inkProfile(g).join(',')}`;
      expect(seen.get(key), `${c} has the same profile as ${seen.get(key) ?? ''}`).toBeUndefined();
      seen.set(key, c);
    }
  });
});

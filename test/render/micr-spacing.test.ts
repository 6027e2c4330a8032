// Character pitch and the clear gap around the MICR symbols, measured on real PDF bytes rasterised by
// poppler (200 and 300 dpi) and read back by the independent waveform reader
// (support/e13b-reader.ts, which knows E-13B only from e13b-reference/).
//
// An independent E-13B OCR reader dropped one `1` just before a transit symbol at
// 300 dpi. Here every digit stands on each side of every symbol: routing numbers that start and
// end with each digit (valid ABA checksums), account numbers `d-d` (the digit beside the on-us
// symbol at 14 and on both sides of the dash), serials `d0d` (the digit inside both auxiliary on-us
// symbols), and the amount field with the digit beside both amount symbols. Each line must read
// whole (nothing dropped or merged), every right-edge-to-right-edge pitch must be 0.125 ± 0.010 in
// and no character may drift off its cell (accumulated error) [8], and every gap between a symbol
// and its neighbouring digit must leave at least MIN_GAP_IN of clear paper (docs/e13b.md §2).

import PDFDocument from 'pdfkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderChecksPdf } from '../../src/render/check-pdf.ts';
import { drawMicrLine, layoutMicrLine } from '../../src/render/micr-line.ts';
import { E13B_NAMES, PLACEMENT, type E13bName } from './e13b-reference/published.ts';
import { readLine, type ReadCharacter, type Region } from './support/e13b-reader.ts';
import { sampleCheck } from './support/fixtures.ts';
import { inkAt, pdftoppmAvailable, rasterisePdf, type GreyBitmap } from './support/raster.ts';

const PAGE_WIDTH_IN = 8.5;
const CHECK_HEIGHT_IN = 3.5;
const DPIS = [200, 300] as const;
/** Spacing tolerance between adjacent characters, right edge to right edge [8]. */
const PITCH_TOLERANCE_IN = 0.01;
/**
 * Clear paper a segmenting reader needs between two characters: 0.020 in (6 px at 300 dpi, 4 at
 * 200). Why: the standard lets each edge wander ±0.0035 in (edge irregularity [6]), so two facing
 * edges can close a gap by 0.007 in (2 px at 300 dpi); anti-aliasing greys one more column on each
 * side; and 2 clear columns must remain for a binarised column profile to split the characters.
 */
const MIN_GAP_IN = 0.02;

interface LineSpec {
  readonly routingNumber: string;
  readonly accountNumber: string;
  readonly serialNumber: string;
  /** Filled on the drawn lines (as on the MICR test page); absent on checks, where the bank encodes it. */
  readonly amountCents?: number;
}

/** ABA checksum, weights 3 7 1 repeating (the public definition, written here again on purpose). */
function abaValid(routing: string): boolean {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return [...routing].reduce((sum, c, i) => sum + Number(c) * (weights[i] ?? 0), 0) % 10 === 0;
}

/** A routing number that starts and ends with digit d: d 000000 x d, x chosen for the checksum. */
function routingFor(d: number): string {
  for (let x = 0; x <= 9; x += 1) {
    const candidate = `${d}000000${x}${d}`;
    if (abaValid(candidate)) return candidate;
  }
  throw new Error(`no routing number for ${d}`);
}

const DIGITS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

/** Line d puts digit d on each side of every symbol that has a neighbour. */
const LINES: readonly LineSpec[] = DIGITS.map((d) => ({
  routingNumber: routingFor(d),
  accountNumber: `${d}-${d}`,
  serialNumber: `${d}0${d}`,
  // Ten digits between the amount symbols: d at 11 (beside the symbol at 12) and d at 2 (beside 1).
  amountCents: d * 1_000_000_000 + d,
}));

/** The line the standard prescribes, by position (1..65 from the right) [8 Table 4-1][13]. */
function expectedLine(spec: LineSpec): Map<number, E13bName> {
  const name = (c: string): E13bName => {
    const n = E13B_NAMES.find((x) => x === c);
    if (n === undefined) throw new Error(`not a digit: ${c}`);
    return n;
  };
  const out = new Map<number, E13bName>();
  if (spec.amountCents !== undefined) {
    out.set(1, 'amount');
    [...String(spec.amountCents).padStart(10, '0')].reverse().forEach((c, i) => {
      out.set(2 + i, name(c));
    });
    out.set(12, 'amount');
  }
  out.set(14, 'onUs');
  [...spec.accountNumber].reverse().forEach((c, i) => {
    out.set(15 + i, c === '-' ? 'dash' : name(c));
  });
  out.set(33, 'transit');
  [...spec.routingNumber].reverse().forEach((c, i) => {
    out.set(34 + i, name(c));
  });
  out.set(43, 'transit');
  out.set(45, 'onUs');
  [...spec.serialNumber].reverse().forEach((c, i) => {
    out.set(46 + i, name(c));
  });
  out.set(46 + spec.serialNumber.length, 'onUs');
  return out;
}

/** Offset of a right edge from its nominal cell boundary, and the position it stands in. */
function positionOf(rightIn: number): { position: number; errorIn: number } {
  const fromRight = PAGE_WIDTH_IN - rightIn - PLACEMENT.firstPositionIn;
  const position = Math.round(fromRight / PLACEMENT.pitchIn) + 1;
  return { position, errorIn: fromRight - (position - 1) * PLACEMENT.pitchIn };
}

async function linesPdf(specs: readonly LineSpec[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: [PAGE_WIDTH_IN * 72, specs.length * CHECK_HEIGHT_IN * 72], margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  specs.forEach((spec, i) => {
    drawMicrLine(doc, layoutMicrLine(spec), 0, i * CHECK_HEIGHT_IN * 72);
  });
  doc.end();
  return done;
}

interface Band {
  readonly top: number;
  readonly bottom: number;
}

/** The MICR band of the check-sized area whose bottom edge is bottomIn from the page top, in inches. */
function bandRegion(bottomIn: number): Region {
  const baseline = bottomIn - PLACEMENT.bandBottomIn;
  return { left: 0.2, right: PAGE_WIDTH_IN - 0.05, top: baseline - 0.16, bottom: baseline + 0.03 };
}

/** A pixel column counts as ink when any of its pixels in the band is at least half dark (binarised). */
function columnInked(bitmap: GreyBitmap, band: Band, x: number): boolean {
  for (let y = band.top; y < band.bottom; y += 1) if (inkAt(bitmap, x, y) >= 0.5) return true;
  return false;
}

/**
 * Clear (paper) pixel columns between the left character, whose right edge the reader found at
 * leftEdgeIn, and the first ink of the character to its right.
 */
function clearGapPx(bitmap: GreyBitmap, band: Band, leftEdgeIn: number, rightEdgeIn: number): number {
  let x = Math.floor(leftEdgeIn * bitmap.dpi) - 1;
  const stop = Math.ceil(rightEdgeIn * bitmap.dpi);
  while (x < stop && columnInked(bitmap, band, x)) x += 1;
  let gap = 0;
  while (x < stop && !columnInked(bitmap, band, x)) {
    gap += 1;
    x += 1;
  }
  return gap;
}

interface GapFigure {
  readonly line: number;
  readonly left: E13bName;
  readonly right: E13bName;
  readonly leftPosition: number;
  readonly px: number;
}

const isSymbol = (n: E13bName): boolean => n === 'transit' || n === 'amount' || n === 'onUs' || n === 'dash';

/**
 * The line reads whole: one read per printed character (none dropped, none merged into another),
 * each the character the standard puts at that position, and in particular the digit on each side
 * of each symbol.
 */
function expectWholeLine(read: readonly ReadCharacter[], spec: LineSpec, label: string): void {
  const expected = expectedLine(spec);
  const got = new Map<number, E13bName>();
  for (const c of read) got.set(positionOf(c.rightIn).position, c.name);
  const asText = (m: Map<number, E13bName>): string =>
    Array.from({ length: 65 }, (_, k) => m.get(65 - k) ?? '_')
      .map((n) => (n.length > 1 ? `[${n}]` : n))
      .join('');
  expect(read, `${label}: one read per printed character`).toHaveLength(expected.size);
  expect(asText(got), label).toBe(asText(expected));
  for (const [position, name] of expected) {
    if (!isSymbol(name)) continue;
    for (const neighbour of [position - 1, position + 1]) {
      const want = expected.get(neighbour);
      if (want === undefined) continue;
      expect(got.get(neighbour), `${label}: ${want} at ${neighbour}, beside ${name} at ${position}`).toBe(want);
    }
  }
}

describe.runIf(pdftoppmAvailable()).each(DPIS)('MICR spacing read back from pdftoppm bitmaps at %i dpi', (dpi) => {
  let bitmap: GreyBitmap;
  const reads: ReadCharacter[][] = [];

  beforeAll(async () => {
    bitmap = rasterisePdf(await linesPdf(LINES), dpi);
    LINES.forEach((_, i) => {
      reads.push(readLine(bitmap, bandRegion((i + 1) * CHECK_HEIGHT_IN)));
    });
  });

  it('builds lines with valid routing numbers that put every digit beside every symbol', () => {
    for (const [d, spec] of LINES.entries()) {
      expect(abaValid(spec.routingNumber), spec.routingNumber).toBe(true);
      expect(spec.routingNumber.startsWith(String(d)) && spec.routingNumber.endsWith(String(d))).toBe(true);
    }
  });

  it('reads every character of every line at its position: no digit beside a symbol dropped or merged', () => {
    LINES.forEach((spec, i) => {
      expectWholeLine(reads[i] ?? [], spec, `line ${i}`);
    });
  });

  it('keeps every pitch within 0.125 ± 0.010 in and every character on its cell (no accumulated error)', () => {
    let worstPitch = 0;
    let worstDrift = 0;
    reads.forEach((read, i) => {
      // The reader returns characters right to left.
      for (const [k, c] of read.entries()) {
        const { position, errorIn } = positionOf(c.rightIn);
        worstDrift = Math.max(worstDrift, Math.abs(errorIn));
        expect(Math.abs(errorIn), `line ${i}: position ${position} off its cell`).toBeLessThanOrEqual(
          PITCH_TOLERANCE_IN,
        );
        const next = read[k + 1];
        if (next === undefined) continue;
        const steps = positionOf(next.rightIn).position - position;
        const pitch = (c.rightIn - next.rightIn) / steps;
        worstPitch = Math.max(worstPitch, Math.abs(pitch - PLACEMENT.pitchIn));
        expect(
          Math.abs(pitch - PLACEMENT.pitchIn),
          `line ${i}: pitch ${position}→${position + steps}`,
        ).toBeLessThanOrEqual(PITCH_TOLERANCE_IN);
      }
    });
    if (process.env.MICR_SPACING_REPORT) {
      console.log(
        `${dpi} dpi: worst pitch error ${worstPitch.toFixed(4)} in, worst cell offset ${worstDrift.toFixed(4)} in`,
      );
    }
  });

  it(`leaves at least ${MIN_GAP_IN} in of clear paper between each symbol and the digit beside it`, () => {
    const minPx = Math.floor(MIN_GAP_IN * dpi);
    const gaps: GapFigure[] = [];
    reads.forEach((read, i) => {
      const region = bandRegion((i + 1) * CHECK_HEIGHT_IN);
      const band = { top: Math.floor(region.top * dpi), bottom: Math.ceil(region.bottom * dpi) };
      // Left to right; compare each character with its right-hand neighbour one position over.
      const ltr = [...read].reverse();
      for (const [k, left] of ltr.entries()) {
        const right = ltr[k + 1];
        if (right === undefined) continue;
        const leftPosition = positionOf(left.rightIn).position;
        if (positionOf(right.rightIn).position !== leftPosition - 1) continue;
        if (!isSymbol(left.name) && !isSymbol(right.name)) continue;
        gaps.push({
          line: i,
          left: left.name,
          right: right.name,
          leftPosition,
          px: clearGapPx(bitmap, band, left.rightIn, right.rightIn),
        });
      }
    });
    // Every symbol-digit pair of every line was measured: 9 per line (the symbols with neighbours).
    expect(gaps).toHaveLength(LINES.length * 9);
    for (const g of gaps) {
      expect(g.px, `line ${g.line}: ${g.left} at ${g.leftPosition} | ${g.right}`).toBeGreaterThanOrEqual(minPx);
    }
    if (process.env.MICR_SPACING_REPORT) {
      const byPair = new Map<string, number>();
      for (const g of gaps) {
        const key = `${isSymbol(g.left) ? g.left : 'digit'}|${isSymbol(g.right) ? g.right : 'digit'}`;
        const narrow = !isSymbol(g.left) ? g.left : g.right;
        const k = `${key} (${narrow})`;
        byPair.set(k, Math.min(byPair.get(k) ?? Infinity, g.px));
      }
      console.log(`${dpi} dpi gaps (px):`, JSON.stringify(Object.fromEntries(byPair)));
      console.log(`${dpi} dpi min gap ${Math.min(...gaps.map((g) => g.px))} px`);
    }
  });
});

describe.runIf(pdftoppmAvailable()).each(DPIS)(
  'MICR line of real check PDFs at %i dpi, every digit beside every symbol',
  (dpi) => {
    it('reads the digit on each side of each symbol on ten checks (one per digit)', async () => {
      const specs = LINES.map(({ routingNumber, accountNumber, serialNumber }) => ({
        routingNumber,
        accountNumber,
        serialNumber,
      }));
      const pdf = await renderChecksPdf(
        specs.map((s) =>
          sampleCheck({ routingNumber: s.routingNumber, accountNumber: s.accountNumber, checkNumber: s.serialNumber }),
        ),
      );
      specs.forEach((spec, i) => {
        const read = readLine(rasterisePdf(pdf, dpi, i + 1), bandRegion(CHECK_HEIGHT_IN));
        expectWholeLine(read, spec, `check ${i} (${spec.routingNumber})`);
      });
    });
  },
);

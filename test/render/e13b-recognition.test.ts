// Do our printed MICR characters read as E-13B? Real PDF bytes (checks, the MICR test page, extra
// lines) are rasterised by poppler at 200 and 300 dpi, and read by a waveform reader whose only
// knowledge of E-13B is the published material in test/render/e13b-reference/ (never src/render's
// glyph table): it locks on each character's first edge, samples the ink steps at the eight
// 0.013-in edge positions and picks the nearest template. Shape checks then measure, on the bitmap,
// the facts of the real characters that real scans found our glyphs breaking.
// Margins are reported in docs/e13b.md §1.

import PDFDocument from 'pdfkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderChecksPdf } from '../../src/render/check-pdf.ts';
import { drawMicrLine, layoutMicrLine } from '../../src/render/micr-line.ts';
import { MICR_TEST_PAGE_LAYOUT, renderMicrTestPagePdf } from '../../src/render/micr-test-page.ts';
import {
  E13B_NAMES,
  PLACEMENT,
  PUBLISHED_HEIGHT_UNITS,
  PUBLISHED_WIDTH_UNITS,
  REFERENCE_PEAKS,
  UNIT_IN,
  ZERO_PEAKS,
  type E13bName,
} from './e13b-reference/published.ts';
import { templateSamples, WAVEFORM_TEMPLATES } from './e13b-reference/waveform-templates.ts';
import { cellShape, classify, readLine, type CellShape, type ReadCharacter } from './support/e13b-reader.ts';
import { pdftoppmAvailable, rasterisePdf, type GreyBitmap } from './support/raster.ts';
import { sampleCheck } from './support/fixtures.ts';

const PAGE_WIDTH_IN = 8.5;
const CHECK_HEIGHT_IN = 3.5;
/** Every character must beat the runner-up template by at least this much (distances of unit vectors, 0..2). */
const MIN_MARGIN = 0.25;
/** No two templates may be closer than this, or the reader could not tell them apart reliably. */
const MIN_TEMPLATE_DISTANCE = 0.3;
/** Placement read from the bitmap: within 1/64 in of the standard's position. */
const PLACEMENT_TOLERANCE_IN = 1 / 64;
const DPIS = [200, 300] as const;

interface LineSpec {
  readonly routingNumber: string;
  readonly accountNumber: string;
  readonly serialNumber: string;
  readonly amountCents?: number;
}

/** The line the standard prescribes, by position (1..65 from the right); blank positions absent. */
function expectedLine(spec: LineSpec): Map<number, E13bName> {
  const out = new Map<number, E13bName>();
  const digit = (c: string): E13bName => {
    const name = E13B_NAMES.find((n) => n === c);
    if (name === undefined) throw new Error(`not a digit: ${c}`);
    return name;
  };
  if (spec.amountCents !== undefined) {
    out.set(1, 'amount');
    [...String(spec.amountCents).padStart(10, '0')].reverse().forEach((c, i) => {
      out.set(2 + i, digit(c));
    });
    out.set(12, 'amount');
  }
  out.set(14, 'onUs');
  [...spec.accountNumber].reverse().forEach((c, i) => {
    if (c !== ' ') out.set(15 + i, c === '-' ? 'dash' : digit(c));
  });
  out.set(33, 'transit');
  [...spec.routingNumber].reverse().forEach((c, i) => {
    out.set(34 + i, digit(c));
  });
  out.set(43, 'transit');
  out.set(45, 'onUs');
  [...spec.serialNumber].reverse().forEach((c, i) => {
    out.set(46 + i, digit(c));
  });
  out.set(46 + spec.serialNumber.length, 'onUs');
  return out;
}

/** The MICR position a character whose first edge is at rightIn stands in, and how far off it is. */
function positionOf(rightIn: number): { position: number; errorIn: number } {
  const fromRight = PAGE_WIDTH_IN - rightIn - PLACEMENT.firstPositionIn;
  const position = Math.round(fromRight / PLACEMENT.pitchIn) + 1;
  return { position, errorIn: fromRight - (position - 1) * PLACEMENT.pitchIn };
}

/** Reads the MICR band of a check-sized area whose bottom edge is bottomIn from the page top. */
function readBand(bitmap: GreyBitmap, baselineIn: number): ReadCharacter[] {
  return readLine(bitmap, {
    left: 0.2,
    right: PAGE_WIDTH_IN - 0.05,
    top: baselineIn - 0.16,
    bottom: baselineIn + 0.03,
  });
}

function expectLineRead(read: readonly ReadCharacter[], spec: LineSpec, label: string): void {
  const expected = expectedLine(spec);
  const got = new Map<number, E13bName>();
  for (const c of read) {
    const { position, errorIn } = positionOf(c.rightIn);
    expect(Math.abs(errorIn), `${label}: position ${position} placement`).toBeLessThanOrEqual(PLACEMENT_TOLERANCE_IN);
    expect(c.margin, `${label}: position ${position} (${c.name}) margin over ${c.runnerUp}`).toBeGreaterThanOrEqual(
      MIN_MARGIN,
    );
    got.set(position, c.name);
  }
  const asText = (m: Map<number, E13bName>): string =>
    Array.from({ length: 65 }, (_, i) => m.get(65 - i) ?? '_')
      .map((n) => (n.length > 1 ? `[${n}]` : n))
      .join('');
  expect(asText(got), label).toBe(asText(expected));
}

/** A PDF with the given lines, each on its own check-sized area (3.5 in high), one after another. */
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

const TEST_PAGE_ACCOUNT = {
  environment: 'live' as const,
  bankAccountName: 'Operating',
  bankName: 'First Prairie Community Bank',
  routingNumber: '123456780',
  accountNumber: '90-12345678',
  serialNumber: '10001',
  printOffset: { x: 0, y: 0 },
  createdAt: new Date('2026-11-21T00:00:00Z'),
};

/** Lines covering every digit in every field, and the dash. Routing numbers pass the ABA checksum. */
const LINES: readonly LineSpec[] = [
  { routingNumber: '123456780', accountNumber: '90-12345678', serialNumber: '1234567890', amountCents: 9_876_543_210 },
  { routingNumber: '091000019', accountNumber: '5555 4444-9', serialNumber: '9087', amountCents: 1 },
  { routingNumber: '500000005', accountNumber: '0012345678', serialNumber: '10001', amountCents: 4_400_000_099 },
];

describe('E-13B: templates from published descriptions', () => {
  it(`keeps every pair of the 14 templates at least ${MIN_TEMPLATE_DISTANCE} apart`, () => {
    for (const a of E13B_NAMES) {
      const own = classify(templateSamples(WAVEFORM_TEMPLATES[a]));
      expect(own.name).toBe(a);
      expect(own.distance).toBeCloseTo(0, 9);
      expect(own.margin, `${a} vs ${own.runnerUp}`).toBeGreaterThanOrEqual(MIN_TEMPLATE_DISTANCE);
    }
  });

  it('agrees with the published facts: widths, the 0 pattern, and every reference peak', () => {
    for (const name of E13B_NAMES) {
      const edges = WAVEFORM_TEMPLATES[name];
      const last = edges[edges.length - 1];
      const width = PUBLISHED_WIDTH_UNITS[name];
      if (width !== undefined) expect(last?.[0], `${name} width`).toBe(width);
      // Ink starts and ends on paper: the steps add up to nothing, the first rises, the last falls.
      expect(
        edges.reduce((sum, [, step]) => sum + step, 0),
        name,
      ).toBe(0);
      expect(edges[0]?.[1] ?? 0, name).toBeGreaterThan(0);
      expect(last?.[1] ?? 0, name).toBeLessThan(0);
      expect(edges.length, `${name} has its reference peaks`).toBeGreaterThanOrEqual(
        Math.max(...REFERENCE_PEAKS[name].peaks),
      );
      for (const [, step] of edges) expect(Math.abs(step), name).toBeLessThanOrEqual(PUBLISHED_HEIGHT_UNITS[name]);
    }
    expect(WAVEFORM_TEMPLATES['0'].map(([, step]) => Math.sign(step))).toEqual(ZERO_PEAKS.map(Math.sign));
  });
});

describe.runIf(pdftoppmAvailable()).each(DPIS)('E-13B read back from pdftoppm bitmaps at %i dpi', (dpi) => {
  let testPage: GreyBitmap;

  beforeAll(async () => {
    testPage = rasterisePdf(await renderMicrTestPagePdf(TEST_PAGE_ACCOUNT), dpi);
  });

  it("reads each of the 14 characters alone (the test page's true-size set) with its margin", () => {
    const read = readBand(testPage, MICR_TEST_PAGE_LAYOUT.characterSet.baseline / 72).reverse();
    expect(read.map((c) => c.name)).toEqual([...E13B_NAMES]);
    for (const c of read) expect(c.margin, `${c.name} over ${c.runnerUp}`).toBeGreaterThanOrEqual(MIN_MARGIN);
  });

  it('reads whole MICR lines with every field (amount, on-us, transit, auxiliary on-us), every digit, at their positions', async () => {
    const pdf = await linesPdf(LINES);
    const bitmap = rasterisePdf(pdf, dpi);
    LINES.forEach((spec, i) => {
      expectLineRead(readBand(bitmap, (i + 1) * CHECK_HEIGHT_IN - PLACEMENT.bandBottomIn), spec, `line ${i + 1}`);
    });
    // The test page's full line and the account's own line, as an operator prints them.
    const page = {
      routingNumber: TEST_PAGE_ACCOUNT.routingNumber,
      accountNumber: TEST_PAGE_ACCOUNT.accountNumber,
      serialNumber: TEST_PAGE_ACCOUNT.serialNumber,
    };
    expectLineRead(
      readBand(testPage, MICR_TEST_PAGE_LAYOUT.fullLine.baseline / 72),
      { ...page, amountCents: 123456 },
      'test page, full line',
    );
    expectLineRead(readBand(testPage, CHECK_HEIGHT_IN - PLACEMENT.bandBottomIn), page, 'test page, account line');
  });

  it('reads the MICR line of real check PDFs, one check a page', async () => {
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
      const bitmap = rasterisePdf(pdf, dpi, i + 1);
      expectLineRead(readBand(bitmap, CHECK_HEIGHT_IN - PLACEMENT.bandBottomIn), spec, `check ${i + 1}`);
    });
  });
});

describe.runIf(pdftoppmAvailable())('E-13B shapes measured on the bitmap (test page, 4 × set, 300 dpi)', () => {
  const shapes = new Map<E13bName, CellShape>();

  beforeAll(async () => {
    const bitmap = rasterisePdf(await renderMicrTestPagePdf(TEST_PAGE_ACCOUNT), 300);
    const big = MICR_TEST_PAGE_LAYOUT.enlarged;
    // The enlarged set: one character every `pitch`, each right-aligned in a 7-unit cell. The
    // shapes are measured in enlarged units, so sizes read as true-size units.
    const scale = big.unitPt / (UNIT_IN * 72);
    const scaled: GreyBitmap = { ...bitmap, dpi: bitmap.dpi * scale };
    E13B_NAMES.forEach((name, i) => {
      const cellLeft = (big.left + i * big.pitch) / 72;
      const baseline = big.baseline / 72;
      const unit = big.unitPt / 72;
      const region = {
        left: cellLeft - unit,
        right: cellLeft + 8 * unit,
        top: baseline - 10 * unit,
        bottom: baseline + unit / 2,
      };
      shapes.set(
        name,
        cellShape(scaled, {
          left: region.left / scale,
          right: region.right / scale,
          top: region.top / scale,
          bottom: region.bottom / scale,
        }),
      );
    });
  });

  const shape = (name: E13bName): CellShape => {
    const s = shapes.get(name);
    if (s === undefined) throw new Error(`no shape for ${name}`);
    return s;
  };

  it('has the published sizes: heights 9 (7 on-us, 4 dash) units; 1 and 2 four units wide; 0, 8 and symbols seven', () => {
    for (const name of E13B_NAMES) {
      expect(shape(name).heightUnits, `${name} height`).toBeCloseTo(PUBLISHED_HEIGHT_UNITS[name], 0);
      const width = PUBLISHED_WIDTH_UNITS[name];
      if (width !== undefined) expect(shape(name).widthUnits, `${name} width`).toBeCloseTo(width, 0);
    }
  });

  it('1: a narrow stroke at the LEFT above, the heavy bottom block extending RIGHT across the full width', () => {
    const one = shape('1');
    const w = one.widthUnits;
    expect(one.inkFraction(0, w / 2, 6, 9), 'upper left: the stem').toBeGreaterThan(0.9);
    expect(one.inkFraction(w / 2, w, 6, 9), 'upper right: paper').toBeLessThan(0.05);
    expect(one.inkFraction(0, w, 0, 3), 'bottom: the block across the full width').toBeGreaterThan(0.9);
    expect(one.inkFraction(0, w, 0, 3)).toBeGreaterThan(one.inkFraction(0, w, 6, 9));
  });

  it('4: the top right is open; the right-hand block stands only below the crossbar', () => {
    const four = shape('4');
    const w = four.widthUnits;
    expect(four.inkFraction(w / 2, w, 5, 9), 'top right: open').toBeLessThan(0.05);
    expect(four.inkFraction(0, 2, 5, 9), 'top left: the left stroke').toBeGreaterThan(0.9);
    expect(four.inkFraction(w - 3, w, 0, 4), 'bottom right: the block').toBeGreaterThan(0.9);
  });

  it('amount: three parts rising from bottom-left to top-right', () => {
    const parts = shape('amount').parts();
    expect(parts).toHaveLength(3);
    const middles = parts.map((p) => (p.bottom + p.top) / 2);
    expect(middles[0] ?? 0).toBeLessThan(middles[1] ?? 0);
    expect(middles[1] ?? 0).toBeLessThan(middles[2] ?? 0);
    const [left, bar, right] = parts;
    expect((left?.top ?? 9) - (left?.bottom ?? 0), 'left block short').toBeLessThan(4.5);
    expect(left?.top ?? 9, 'left block low').toBeLessThan(4.5);
    expect(right?.bottom ?? 0, 'right block high').toBeGreaterThan(4.5);
    expect((bar?.top ?? 0) - (bar?.bottom ?? 0), 'middle bar taller than the blocks').toBeGreaterThan(
      (right?.top ?? 0) - (right?.bottom ?? 0),
    );
  });

  it('on-us: two thin bars of equal height and a heavy square block at the top right', () => {
    const parts = shape('onUs').parts();
    expect(parts).toHaveLength(3);
    const [bar1, bar2, block] = parts;
    const width = (p: typeof bar1): number => (p?.right ?? 0) - (p?.left ?? 0);
    const height = (p: typeof bar1): number => (p?.top ?? 0) - (p?.bottom ?? 0);
    expect(width(bar1), 'left bar thin').toBeLessThan(1.5);
    expect(width(bar2), 'middle bar thin').toBeLessThan(1.5);
    expect(Math.abs(height(bar1) - height(bar2)), 'bars equal').toBeLessThan(0.5);
    expect(width(block), 'block heavier than a bar').toBeGreaterThan(2 * Math.max(width(bar1), width(bar2)));
    expect(Math.abs(width(block) - height(block)), 'block square').toBeLessThan(0.5);
    expect(Math.abs((block?.top ?? 0) - (bar1?.top ?? 0)), 'block at the top').toBeLessThan(0.5);
    expect(block?.bottom ?? 0, "block above the bars' middle").toBeGreaterThan(
      ((bar1?.bottom ?? 0) + (bar1?.top ?? 0)) / 2,
    );
  });

  it('transit: a left bar shorter than the character, two square blocks at the right, top and bottom', () => {
    const transit = shape('transit');
    const [bar, blocks] = transit.parts();
    expect(transit.parts()).toHaveLength(2);
    expect((bar?.top ?? 9) - (bar?.bottom ?? 0), 'bar shorter than 9 units').toBeLessThan(8.5);
    expect(blocks?.top ?? 0).toBeCloseTo(9, 0);
    expect(blocks?.bottom ?? 9).toBeCloseTo(0, 0);
    const x = blocks?.left ?? 0;
    expect(transit.inkFraction(x, x + 2.5, 3.5, 5.5), 'gap between the two blocks').toBeLessThan(0.05);
  });

  it('dash: three separate parts, the two at the left the full 4 units high (the reference pair 3+5 [7])', () => {
    const parts = shape('dash').parts();
    expect(parts).toHaveLength(3);
    for (const p of parts.slice(0, 2)) expect(p.top - p.bottom).toBeCloseTo(4, 0);
    const right = parts[2];
    expect((right?.top ?? 4) - (right?.bottom ?? 0)).toBeLessThan(4);
  });
});

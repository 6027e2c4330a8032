// Stock and page layout, read back from real PDF bytes: pdf.js for text runs and drawing
// operations, and poppler's pdftoppm bitmaps read by the E-13B waveform reader (which knows E-13B
// only from the published material, never from src/render's glyph table). Expected places are
// written here in inches, from docs/printing.md, not taken from the renderer's layout table.

import { describe, expect, it } from 'vitest';
import type { CheckDocument } from '../../src/render/check-document.ts';
import { renderChecksPdf } from '../../src/render/check-pdf.ts';
import type { PageLayout, PrintOptions } from '../../src/render/print-layout.ts';
import { MICR_LINE_LETTER } from './e13b-reference/published.ts';
import { readLine } from './support/e13b-reader.ts';
import { sampleCheck } from './support/fixtures.ts';
import { type PageText, type ParsedPage, pageText, parsePdf, clearBandFills } from './support/pdf.ts';
import { signaturePng } from './support/png.ts';
import { type GreyBitmap, pdftoppmAvailable, rasterisePdf } from './support/raster.ts';

const IN = 72;
const PAGE_HEIGHT = 11 * IN;
/** A position the two renderings must agree on: 1/100 pt (pdf.js reads back what pdfkit wrote). */
const SAME_PLACE = 0.01;

/** The check's top edge on the page for each layout, in inches from the paper's top (docs/printing.md). */
const CHECK_TOP_IN: Readonly<Record<Exclude<PageLayout, 'three-per-page'>, number>> = {
  top: 0,
  middle: 3.5,
  bottom: 7.5,
};

async function pagesOf(docs: CheckDocument[], options: PrintOptions): Promise<ParsedPage[]> {
  return parsePdf(await renderChecksPdf(docs, options));
}

async function onlyPage(doc: CheckDocument, options: PrintOptions): Promise<ParsedPage> {
  const [page, ...rest] = await pagesOf([doc], options);
  if (page === undefined || rest.length > 0) throw new Error('expected exactly one page');
  return page;
}

/** Inches below the paper's top edge of a PDF y coordinate (PDF's y grows upwards). */
function fromTopIn(y: number): number {
  return (PAGE_HEIGHT - y) / IN;
}

function runs(page: ParsedPage, str: string | RegExp): PageText[] {
  return page.texts.filter((t) => (typeof str === 'string' ? t.str === str : str.test(t.str)));
}

/** The MICR line read from the bitmap, left to right, within the print band of a check whose top edge is given. */
function micrRead(bitmap: GreyBitmap, checkTopIn: number): string {
  const baseline = checkTopIn + 3.5 - 3 / 16;
  return readLine(bitmap, { left: 0.2, right: 8.45, top: baseline - 0.16, bottom: baseline + 0.03 })
    .sort((a, b) => a.rightIn - b.rightIn)
    .map((c) => MICR_LINE_LETTER[c.name])
    .join('');
}

/** The sample check's line as ANSI X9.13 orders it, written by hand: serial, routing, account. */
function expectedMicr(checkNumber: string): string {
  return `U${checkNumber}UT500000005T0012345678U`;
}

/** A check with every variable field filled, signed, with a voucher so the stubs have content. */
function fullCheck(overrides: Partial<CheckDocument> = {}): CheckDocument {
  return sampleCheck({
    signature: { data: signaturePng() },
    customElements: { element1: 'Custom one', element5: 'Custom five', element8: 'Custom eight' },
    ...overrides,
  });
}

/** The texts the variable fields print, each with the words that identify it on the face. */
const FIELDS = [
  ['payee name on the pay line and in the window', 'Harper & Lowe Irrigation Co.'],
  ['payee address', '88 Riverside Drive'],
  ['payee city', 'Peoria, IL 61602'],
  ['amount with its protective fill', /^\*{2,}1,234\.56$/],
  ['amount in words', /^One Thousand Two Hundred Thirty-Four and 56\/100 \*{3,}$/],
  ['date', '11/21/2026'],
  ['memo', 'October irrigation repairs'],
] as const;

describe('pre-printed stock', () => {
  it('prints the variable fields at exactly the coordinates of blank stock, and the signature in the same box', async () => {
    for (const layout of ['top', 'middle', 'bottom'] as const) {
      const blank = await onlyPage(fullCheck(), { stock: 'blank', layout });
      const pre = await onlyPage(fullCheck(), { stock: 'preprinted', layout });
      const top = CHECK_TOP_IN[layout];
      const onFace = (t: PageText): boolean => fromTopIn(t.y) > top && fromTopIn(t.y) < top + 3.5;
      for (const [what, str] of FIELDS) {
        const a = runs(blank, str).filter(onFace);
        const b = runs(pre, str).filter(onFace);
        expect(a.length, `${layout}: ${what} on blank stock`).toBeGreaterThanOrEqual(1);
        expect(b.length, `${layout}: ${what} on pre-printed stock`).toBe(a.length);
        a.forEach((run, i) => {
          expect(Math.abs((b[i]?.x ?? Infinity) - run.x), `${layout}: ${what} x`).toBeLessThan(SAME_PLACE);
          expect(Math.abs((b[i]?.y ?? Infinity) - run.y), `${layout}: ${what} y`).toBeLessThan(SAME_PLACE);
          expect(b[i]?.str).toBe(run.str);
        });
      }
      expect(blank.images).toHaveLength(1);
      expect(pre.images).toEqual(blank.images);
    }
  });

  it.runIf(pdftoppmAvailable())(
    'draws no MICR line: no fills in the clear band, and the E-13B reader finds nothing on the bitmap',
    async () => {
      for (const layout of ['top', 'middle', 'bottom'] as const) {
        const top = CHECK_TOP_IN[layout];
        const blankBytes = await renderChecksPdf([fullCheck()], { stock: 'blank', layout });
        const preBytes = await renderChecksPdf([fullCheck()], { stock: 'preprinted', layout });
        // Blank stock, same layout: the reader reads the whole line, so the reader does work here.
        expect(micrRead(rasterisePdf(blankBytes, 300), top), `${layout} blank`).toBe(expectedMicr('10001'));
        expect(micrRead(rasterisePdf(preBytes, 300), top), `${layout} pre-printed`).toBe('');
        const [pre] = await parsePdf(preBytes);
        if (pre === undefined) throw new Error('no page');
        expect(clearBandFills(pre, top)).toEqual([]);
        // Nothing at all drawn in the clear band: no text, image or path.
        const bandBottom = PAGE_HEIGHT - (top + 3.5) * IN;
        const inBand = (b: { y1: number; y2: number }): boolean =>
          b.y2 > bandBottom + 0.01 && b.y1 < bandBottom + (5 / 8) * IN;
        expect(pre.paths.filter((p) => inBand(p.box))).toEqual([]);
        expect(pre.texts.filter((t) => inBand(t.box))).toEqual([]);
      }
    },
  );

  it('leaves the check number, bank name, drawer, captions, lines, boxes and face custom elements to the paper', async () => {
    const blank = await onlyPage(fullCheck(), { stock: 'blank', layout: 'top' });
    const pre = await onlyPage(fullCheck(), { stock: 'preprinted', layout: 'top' });
    const absent = [
      '10001',
      'Check No. 10001',
      'First Prairie Community Bank',
      'PAY TO THE',
      'ORDER OF',
      'DATE',
      'Dollars',
      'MEMO',
      'AUTHORIZED SIGNATURE',
      'Custom one',
      'Custom five',
      '$',
    ];
    for (const str of absent) {
      expect(runs(blank, str).length, `${str} on blank`).toBeGreaterThanOrEqual(1);
      expect(runs(pre, str), `${str} on pre-printed`).toEqual([]);
    }
    // The drawer's name stays on the stubs (plain paper) but not on the face.
    const onFace = (t: PageText): boolean => fromTopIn(t.y) < 3.5;
    expect(runs(blank, 'Bluebird Garden Supply LLC').filter(onFace)).toHaveLength(1);
    expect(runs(pre, 'Bluebird Garden Supply LLC').filter(onFace)).toEqual([]);
    expect(pageText(pre)).not.toContain('1200 Orchard Lane');
    // No rule, box or dashed guide is stroked on the face, nor perforation guides anywhere: the paper has them.
    const faceStrokes = (page: ParsedPage): ParsedPage['paths'] =>
      page.paths.filter((p) => p.paint === 'stroke' && p.box.y1 > PAGE_HEIGHT - 3.5 * IN - 2);
    expect(faceStrokes(blank).length).toBeGreaterThan(5);
    expect(faceStrokes(pre)).toEqual([]);
    // The stubs keep their details (stub custom elements included), without the number.
    expect(runs(pre, 'Custom eight')).toHaveLength(2);
    expect(runs(pre, 'INV-2026-0415')).toHaveLength(2);
  });

  it('still marks test checks VOID — TEST on the face and the stubs', async () => {
    const pre = await onlyPage(fullCheck({ environment: 'test' }), { stock: 'preprinted', layout: 'top' });
    expect(runs(pre, 'VOID — TEST')).toHaveLength(3);
  });
});

describe('check on top, middle or bottom of the page', () => {
  it.runIf(pdftoppmAvailable())(
    'moves the whole face down by the layout offset; the MICR line reads 3/16 in above its bottom edge',
    async () => {
      const reference = await onlyPage(fullCheck(), { stock: 'blank', layout: 'top' });
      for (const layout of ['top', 'middle', 'bottom'] as const) {
        const top = CHECK_TOP_IN[layout];
        const bytes = await renderChecksPdf([fullCheck()], { stock: 'blank', layout });
        const [page] = await parsePdf(bytes);
        if (page === undefined) throw new Error('no page');
        for (const [what, str] of FIELDS) {
          // On the check-on-top page the face's runs are those in the top 3.5 in.
          const expected = runs(reference, str).filter((t) => fromTopIn(t.y) < 3.5);
          const got = runs(page, str).filter((t) => fromTopIn(t.y) > top && fromTopIn(t.y) < top + 3.5);
          expect(got.length, `${layout}: ${what}`).toBe(expected.length);
          expected.forEach((run, i) => {
            expect(Math.abs((got[i]?.x ?? Infinity) - run.x), `${layout}: ${what} x`).toBeLessThan(SAME_PLACE);
            expect(
              Math.abs(fromTopIn(got[i]?.y ?? Infinity) - fromTopIn(run.y) - top),
              `${layout}: ${what} y`,
            ).toBeLessThan(SAME_PLACE / IN);
          });
        }
        const dateRun = runs(page, '11/21/2026').find((t) => fromTopIn(t.y) > top && fromTopIn(t.y) < top + 3.5);
        // The date's baseline stands about 1 in below the check's top edge on every layout.
        expect(fromTopIn(dateRun?.y ?? 0) - top).toBeGreaterThan(0.9);
        expect(fromTopIn(dateRun?.y ?? 0) - top).toBeLessThan(1.1);
        expect(micrRead(rasterisePdf(bytes, 300), top), layout).toBe(expectedMicr('10001'));
        // Nothing but the MICR line in this check's clear band.
        expect(clearBandFills(page, top).length).toBe(expectedMicr('10001').length);
      }
    },
  );

  it('keeps both stubs, with their details, where the layout puts them (never over the check)', async () => {
    const stubs: Record<'top' | 'middle' | 'bottom', [number, number][]> = {
      top: [
        [3.5, 7],
        [7, 11],
      ],
      middle: [
        [0, 3.5],
        [7, 11],
      ],
      bottom: [
        [0, 3.5],
        [3.5, 7.5],
      ],
    };
    for (const layout of ['top', 'middle', 'bottom'] as const) {
      const page = await onlyPage(fullCheck(), { stock: 'blank', layout });
      const headers = runs(page, 'Check No. 10001').map((t) => fromTopIn(t.y));
      expect(headers, layout).toHaveLength(2);
      headers.sort((a, b) => a - b);
      stubs[layout].forEach(([from, to], i) => {
        expect(headers[i], `${layout} stub ${i + 1}`).toBeGreaterThan(from);
        expect(headers[i], `${layout} stub ${i + 1}`).toBeLessThan(to);
      });
      const top = CHECK_TOP_IN[layout];
      const invoices = runs(page, 'INV-2026-0415').map((t) => fromTopIn(t.y));
      expect(invoices).toHaveLength(2);
      for (const y of invoices) expect(y < top || y > top + 3.5, `${layout}: stub text off the check`).toBe(true);
    }
  });
});

describe('three checks a page', () => {
  it.runIf(pdftoppmAvailable())(
    '20 checks make 7 pages, each check whole in its own third, with its own MICR line',
    async () => {
      const checks = Array.from({ length: 20 }, (_, i) =>
        fullCheck({ checkNumber: String(10001 + i), memo: `Memo of check ${10001 + i}` }),
      );
      const bytes = await renderChecksPdf(checks, { stock: 'blank', layout: 'three-per-page' });
      const pages = await parsePdf(bytes);
      expect(pages).toHaveLength(7);
      pages.forEach((page, p) => {
        const onPage = p < 6 ? 3 : 2;
        for (let slot = 0; slot < onPage; slot += 1) {
          const number = String(10001 + p * 3 + slot);
          const top = slot * 3.5;
          const inThird = (t: PageText): boolean => fromTopIn(t.y) > top && fromTopIn(t.y) < top + 3.5;
          const numberRuns = runs(page, number);
          expect(numberRuns, `check ${number}`).toHaveLength(1);
          expect(numberRuns.every(inThird), `check ${number} number`).toBe(true);
          const memo = runs(page, `Memo of check ${number}`);
          expect(memo, `check ${number} memo`).toHaveLength(1);
          expect(memo.every(inThird)).toBe(true);
          for (const [what, str] of FIELDS.filter(([w]) => w !== 'memo')) {
            expect(runs(page, str).filter(inThird).length, `check ${number}: ${what}`).toBeGreaterThanOrEqual(1);
          }
          expect(clearBandFills(page, top).length, `check ${number} MICR`).toBe(expectedMicr(number).length);
        }
        // No stubs on this stock: no "Check No." header, and nothing below the last check.
        expect(runs(page, /^Check No\./)).toEqual([]);
        expect(page.texts.filter((t) => fromTopIn(t.y) > onPage * 3.5)).toEqual([]);
      });
      // The bitmap of the first page: three MICR lines, each 3/16 in above its third's bottom edge.
      const first = rasterisePdf(bytes, 300, 1);
      expect([0, 3.5, 7].map((top) => micrRead(first, top))).toEqual(['10001', '10002', '10003'].map(expectedMicr));
    },
  );

  it.runIf(pdftoppmAvailable())(
    'on pre-printed stock: the same fields at the same places, and no MICR line in any third',
    async () => {
      const checks = ['10001', '10002', '10003'].map((checkNumber) => fullCheck({ checkNumber }));
      const blank = await pagesOf(checks, { stock: 'blank', layout: 'three-per-page' });
      const preBytes = await renderChecksPdf(checks, { stock: 'preprinted', layout: 'three-per-page' });
      const [pre] = await parsePdf(preBytes);
      const [ref] = blank;
      if (pre === undefined || ref === undefined) throw new Error('no page');
      for (const [what, str] of FIELDS) {
        const a = runs(ref, str);
        const b = runs(pre, str);
        expect(b.length, what).toBe(a.length);
        expect(b.length, what).toBeGreaterThanOrEqual(3);
        a.forEach((run, i) => {
          expect(Math.abs((b[i]?.x ?? Infinity) - run.x), what).toBeLessThan(SAME_PLACE);
          expect(Math.abs((b[i]?.y ?? Infinity) - run.y), what).toBeLessThan(SAME_PLACE);
        });
      }
      for (const top of [0, 3.5, 7]) {
        expect(clearBandFills(pre, top)).toEqual([]);
        expect(micrRead(rasterisePdf(preBytes, 300, 1), top)).toBe('');
      }
      expect(runs(pre, /^1000[123]$/)).toEqual([]);
    },
  );
});

describe('the default is unchanged', () => {
  it('renderChecksPdf without options prints what blank stock, check on top prints, byte for byte', async () => {
    const a = await renderChecksPdf([fullCheck()]);
    const b = await renderChecksPdf([fullCheck()], { stock: 'blank', layout: 'top' });
    expect(a.equals(b)).toBe(true);
  });
});

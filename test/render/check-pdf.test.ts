// Renders real check PDFs and reads them back with pdf.js: text runs for the printed content and
// the drawing operations for the MICR line. No mocks; expected MICR positions come from the
// standard's numbers (ANSI X9.13 via docs/e13b.md), not from the renderer.

import { describe, expect, it } from 'vitest';
import type { CheckDocument } from '../../src/render/check-document.ts';
import { renderCheckPdf, renderChecksPdf } from '../../src/render/check-pdf.ts';
import { E13B_GLYPHS, type MicrChar } from '../../src/render/e13b-glyphs.ts';
import { RenderInputError } from '../../src/render/render-error.ts';
import { sampleCheck } from './support/fixtures.ts';
import { pageText, parsePdf, type ParsedPage, type PagePath } from './support/pdf.ts';
import { signaturePng } from './support/png.ts';

const IN = 72;
const PAGE_HEIGHT = 11 * IN;
const CHECK_WIDTH = 8.5 * IN;
/** The check is the top 3.5 in of the page; in PDF coordinates (y up) its bottom edge is here. */
const CHECK_BOTTOM = PAGE_HEIGHT - 3.5 * IN;
const UNIT = 0.013 * IN;
const TOLERANCE = IN / 64;

async function renderPage(check: CheckDocument): Promise<ParsedPage> {
  const [page] = await parsePdf(await renderCheckPdf(check));
  if (page === undefined) throw new Error('no page');
  return page;
}

/** Distance of a PDF y coordinate below the top of the page, in inches. */
function inchesFromTop(y: number): number {
  return (PAGE_HEIGHT - y) / IN;
}

function textsMatching(page: ParsedPage, pattern: RegExp | string): ParsedPage['texts'] {
  return page.texts.filter((t) => (typeof pattern === 'string' ? t.str === pattern : pattern.test(t.str)));
}

async function renderError(check: CheckDocument): Promise<RenderInputError> {
  try {
    await renderCheckPdf(check);
  } catch (error) {
    if (error instanceof RenderInputError) return error;
    throw error;
  }
  throw new Error('expected a RenderInputError');
}

/** The MICR line the standard prescribes for the sample check, as [position, character], right to left. */
function expectedMicr(routing: string, account: string, serial: string): Array<[number, MicrChar]> {
  const out: Array<[number, MicrChar]> = [[14, 'onUs']];
  const digitsOf = (s: string): MicrChar[] =>
    [...s].map((c): MicrChar => {
      const d = '0123456789'.indexOf(c);
      const digits: MicrChar[] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
      const m = digits[d];
      if (m === undefined) throw new Error(`not a digit: ${c}`);
      return m;
    });
  digitsOf(account)
    .reverse()
    .forEach((c, i) => {
      out.push([15 + i, c]);
    });
  out.push([33, 'transit']);
  digitsOf(routing)
    .reverse()
    .forEach((c, i) => {
      out.push([34 + i, c]);
    });
  out.push([43, 'transit'], [45, 'onUs']);
  digitsOf(serial)
    .reverse()
    .forEach((c, i) => {
      out.push([46 + i, c]);
    });
  out.push([46 + serial.length, 'onUs']);
  return out;
}

/** Fills drawn in the check's bottom 5/8 in (the MICR clear band). */
function clearBandPaths(page: ParsedPage): PagePath[] {
  return page.paths.filter((p) => p.box.y2 > CHECK_BOTTOM + 0.01 && p.box.y1 < CHECK_BOTTOM + (5 / 8) * IN);
}

describe('renderCheckPdf: printed content', () => {
  it('prints payee, numeric amount with fill, legal line with fill and "Dollars", memo, date and check number', async () => {
    const page = await renderPage(sampleCheck());
    const text = pageText(page);
    expect(textsMatching(page, 'Harper & Lowe Irrigation Co.').length).toBeGreaterThanOrEqual(2);
    expect(textsMatching(page, /^\*{2,}1,234\.56$/)).toHaveLength(1);
    const legal = textsMatching(page, /^One Thousand Two Hundred Thirty-Four and 56\/100 \*{3,}$/);
    expect(legal).toHaveLength(1);
    expect(text).toContain('Dollars');
    // The fill runs to "Dollars": the legal line text ends close to where "Dollars" starts.
    const dollars = textsMatching(page, 'Dollars')[0];
    expect(dollars).toBeDefined();
    expect((dollars?.x ?? 0) - (legal[0]?.box.x2 ?? 0)).toBeLessThan(12);
    expect(text).toContain('October irrigation repairs');
    expect(textsMatching(page, '11/21/2026').length).toBeGreaterThanOrEqual(1);
    expect(textsMatching(page, '10001')).toHaveLength(1);
    expect(text).toContain('Bluebird Garden Supply LLC');
    expect(text).toContain('First Prairie Community Bank');
    expect(text).not.toMatch(/VOID/);
  });

  it('marks test-environment checks "VOID — TEST" on the check and both stubs', async () => {
    const page = await renderPage(sampleCheck({ environment: 'test' }));
    const marks = textsMatching(page, 'VOID — TEST');
    expect(marks).toHaveLength(3);
    expect(marks.some((m) => m.y > CHECK_BOTTOM)).toBe(true);
    expect(pageText(page)).toContain('NOT NEGOTIABLE');
  });

  it('places the payee name and address where a folded page always shows them in a #10 window envelope', async () => {
    // #10 envelope 4.125 in high, window 4.5 × 1.125 in, 7/8 in from the left, 1/2 in from the bottom.
    // The check panel (11/3 in) rests on the envelope bottom and can slide up by 4.125 − 11/3 in and
    // sideways by 9.5 − 8.5 in; the window shows this band of the page in every position:
    const panel = 11 / 3;
    const slack = 4.125 - panel;
    const top = panel - 0.5 - 1.125;
    const bottom = panel - 0.5 - slack;
    const left = 7 / 8;
    const right = 7 / 8 + 4.5 - 1;
    const short = ['Harper & Lowe Irrigation Co.', '88 Riverside Drive', 'Peoria, IL 61602'];
    const long = [
      'Harper & Lowe Irrigation Co.',
      'Attn: Accounts Receivable',
      '88 Riverside Drive, Unit 12',
      'Peoria, IL 61602',
      'Canada',
    ];
    for (const [name, ...addressLines] of [short, long]) {
      const page = await renderPage(sampleCheck({ payee: { name: name ?? '', addressLines } }));
      for (const s of [name ?? '', ...addressLines]) {
        const found = textsMatching(page, s).filter((t) => inchesFromTop(t.y) > 1.8 && inchesFromTop(t.y) < 3);
        expect(found, s).toHaveLength(1);
        const [line] = found;
        expect(line?.box.x1 ?? 0, s).toBeGreaterThanOrEqual(left * IN);
        expect(line?.box.x2 ?? Infinity, s).toBeLessThanOrEqual(right * IN);
        expect(inchesFromTop(line?.box.y2 ?? 0), s).toBeGreaterThanOrEqual(top);
        expect(inchesFromTop(line?.box.y1 ?? Infinity), s).toBeLessThanOrEqual(bottom);
      }
    }
  });

  it('prints custom elements in their documented places', async () => {
    const customElements = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`element${i + 1}`, `Custom value ${i + 1}`]),
    );
    const page = await renderPage(sampleCheck({ customElements }));
    const at = (n: number): ParsedPage['texts'] => textsMatching(page, `Custom value ${n}`);
    for (const n of [1, 2]) {
      const [t] = at(n);
      const centre = ((t?.box.x1 ?? 0) + (t?.box.x2 ?? 0)) / 2;
      expect(centre / IN, `element${n} centre`).toBeCloseTo(4.35, 1);
      expect(inchesFromTop(t?.y ?? 0), `element${n} height`).toBeLessThan(0.8);
    }
    for (const n of [3, 4]) {
      const [t] = at(n);
      expect(t?.box.x2 ?? 0, `element${n} right-aligned`).toBeCloseTo(8 * IN, 0);
      expect(inchesFromTop(t?.y ?? 0)).toBeLessThan(0.8);
    }
    for (const n of [5, 6]) {
      const [t] = at(n);
      expect(t?.box.x2 ?? 0).toBeCloseTo(8 * IN, 0);
      expect(inchesFromTop(t?.y ?? 0)).toBeGreaterThan(1.75);
      expect(inchesFromTop(t?.y ?? 0)).toBeLessThan(2.1);
    }
    for (const n of [7, 8, 9, 10]) {
      const onStubs = at(n);
      expect(onStubs, `element${n} on both stubs`).toHaveLength(2);
      for (const t of onStubs) expect(t.y).toBeLessThan(CHECK_BOTTOM);
    }
  });

  it('shortens an over-long custom element instead of running off the check', async () => {
    const page = await renderPage(sampleCheck({ customElements: { element1: 'W'.repeat(100) } }));
    const [t] = textsMatching(page, /^W+…$/);
    expect(t).toBeDefined();
    expect((t?.box.x2 ?? 0) - (t?.box.x1 ?? 0)).toBeLessThanOrEqual(2.5 * IN + 1);
  });
});

describe('renderCheckPdf: MICR line from the drawing operations', () => {
  it('draws each character as a filled path within ±1/64 in of its standard position', async () => {
    const check = sampleCheck();
    const page = await renderPage(check);
    const expected = expectedMicr(check.routingNumber, check.accountNumber, check.checkNumber);
    const glyphs = clearBandPaths(page).sort((a, b) => b.box.x2 - a.box.x2);
    expect(glyphs.every((g) => g.paint === 'fill')).toBe(true);
    expect(glyphs).toHaveLength(expected.length);
    expected.forEach(([position, char], i) => {
      const path = glyphs[i];
      if (path === undefined) throw new Error(`missing glyph for position ${position}`);
      const glyph = E13B_GLYPHS[char];
      // Right edge: 5/16 in from the check's right edge for position 1, then 1/8 in per position.
      const right = CHECK_WIDTH - (5 / 16) * IN - (position - 1) * (IN / 8);
      expect(Math.abs(path.box.x2 - right), `position ${position} right edge`).toBeLessThanOrEqual(TOLERANCE);
      // Characters stand on the baseline 3/16 in above the bottom edge (on-us and dash raised).
      const bottom = CHECK_BOTTOM + (3 / 16) * IN + glyph.raise * UNIT;
      expect(Math.abs(path.box.y1 - bottom), `position ${position} bottom`).toBeLessThanOrEqual(TOLERANCE);
      // The ink box identifies the character: its size in E-13B units.
      expect((path.box.x2 - path.box.x1) / UNIT, `position ${position} width`).toBeCloseTo(glyph.width, 1);
      expect((path.box.y2 - path.box.y1) / UNIT, `position ${position} height`).toBeCloseTo(glyph.height, 1);
      // Inside the print band, 3/16 to 7/16 in above the bottom edge.
      expect(path.box.y1).toBeGreaterThanOrEqual(CHECK_BOTTOM + (3 / 16) * IN - TOLERANCE);
      expect(path.box.y2).toBeLessThanOrEqual(CHECK_BOTTOM + (7 / 16) * IN + TOLERANCE);
    });
  });

  it('keeps the clear band free of everything but the MICR line (no text there)', async () => {
    const check = sampleCheck({
      environment: 'test',
      signature: { data: signaturePng() },
      customElements: { element5: 'x', element6: 'y' },
    });
    const page = await renderPage(check);
    const bandTop = CHECK_BOTTOM + (5 / 8) * IN;
    expect(page.texts.filter((t) => t.box.y1 < bandTop && t.box.y2 > CHECK_BOTTOM)).toEqual([]);
    expect(page.images.filter((b) => b.y1 < bandTop && b.y2 > CHECK_BOTTOM)).toEqual([]);
    // Exactly the MICR glyphs are in the band (so the `every` below cannot pass on an empty band).
    const expectedGlyphs = expectedMicr(check.routingNumber, check.accountNumber, check.checkNumber).length;
    expect(expectedGlyphs).toBeGreaterThan(0);
    expect(clearBandPaths(page)).toHaveLength(expectedGlyphs);
    expect(
      clearBandPaths(page).every((p) => p.paint === 'fill' && p.box.y1 >= CHECK_BOTTOM + (3 / 16) * IN - TOLERANCE),
    ).toBe(true);
  });
});

describe('renderCheckPdf: printer offset', () => {
  it('moves everything on the page, MICR line included, by the offset in hundredths of an inch', async () => {
    const plain = await renderPage(sampleCheck());
    // +0.12 in to the right, 0.07 in up (negative y moves the print up; PDF y grows upwards).
    const shifted = await renderPage(sampleCheck({ printOffset: { x: 12, y: -7 } }));
    const dx = 0.12 * IN;
    const dy = 0.07 * IN;
    expect(shifted.paths).toHaveLength(plain.paths.length);
    expect(shifted.texts).toHaveLength(plain.texts.length);
    plain.paths.forEach((p, i) => {
      const q = shifted.paths[i];
      expect(q?.box.x1 ?? Infinity).toBeCloseTo(p.box.x1 + dx, 3);
      expect(q?.box.y1 ?? Infinity).toBeCloseTo(p.box.y1 + dy, 3);
      expect(q?.box.x2 ?? Infinity).toBeCloseTo(p.box.x2 + dx, 3);
      expect(q?.box.y2 ?? Infinity).toBeCloseTo(p.box.y2 + dy, 3);
    });
    plain.texts.forEach((t, i) => {
      expect(shifted.texts[i]?.x ?? Infinity).toBeCloseTo(t.x + dx, 3);
      expect(shifted.texts[i]?.y ?? Infinity).toBeCloseTo(t.y + dy, 3);
    });
    // The MICR line in particular: position 14's on-us symbol now ends 0.12 in further right.
    const micr = shifted.paths
      .filter(
        (p) => p.paint === 'fill' && p.box.y1 > CHECK_BOTTOM + dy + 0.1 * IN && p.box.y2 < CHECK_BOTTOM + dy + 0.5 * IN,
      )
      .sort((a, b) => b.box.x2 - a.box.x2);
    expect(micr).toHaveLength(clearBandPaths(plain).length);
    const right14 = CHECK_WIDTH - (5 / 16) * IN - 13 * (IN / 8);
    expect(micr[0]?.box.x2 ?? 0).toBeCloseTo(right14 + dx, 3);
  });

  it('refuses offsets beyond ±0.50 in or not in whole hundredths', async () => {
    for (const printOffset of [
      { x: 51, y: 0 },
      { x: 0, y: -51 },
      { x: 1.5, y: 0 },
    ]) {
      const error = await renderError(sampleCheck({ printOffset }));
      expect(error.code).toBe('invalid_print_offset');
      expect(error.field).toMatch(/^printOffset\.[xy]$/);
    }
  });
});

describe('renderCheckPdf: stubs', () => {
  it('prints payee, date, amount, memo and invoice number on both stubs when there is no voucher', async () => {
    const page = await renderPage(sampleCheck());
    const stubs = page.texts.filter((t) => t.y < CHECK_BOTTOM);
    const count = (s: string): number => stubs.filter((t) => t.str === s).length;
    expect(count('Check No. 10001')).toBe(2);
    expect(count('Harper & Lowe Irrigation Co.')).toBe(2);
    expect(count('11/21/2026')).toBe(2);
    expect(count('$1,234.56')).toBe(4); // header and details row on each stub
    expect(count('October irrigation repairs')).toBe(2);
    expect(count('INV-2026-0415')).toBe(2);
    expect(count('Invoice number')).toBe(2);
  });

  it('prints the voucher items table on both stubs when a voucher exists', async () => {
    const page = await renderPage(
      sampleCheck({
        voucher: {
          voucherNumber: 'V-7781',
          date: '2026-11-20',
          memo: 'Net 30',
          items: [
            {
              invoiceNumber: 'INV-1',
              name: 'Drip line repair',
              description: 'Zone 3',
              quantity: 1,
              unitCostCents: 84000,
              totalCents: 84000,
            },
            {
              invoiceNumber: 'INV-2',
              name: 'Controller',
              description: '',
              quantity: 2,
              unitCostCents: 19728,
              totalCents: 39456,
            },
          ],
        },
      }),
    );
    const stubs = page.texts.filter((t) => t.y < CHECK_BOTTOM);
    const count = (s: string): number => stubs.filter((t) => t.str === s).length;
    for (const header of ['Invoice', 'Description', 'Qty', 'Unit cost', 'Total'])
      expect(count(header), header).toBe(4 - (header === 'Total' ? 0 : 2));
    expect(count('INV-1')).toBe(2);
    expect(count('Drip line repair — Zone 3')).toBe(2);
    expect(count('Controller')).toBe(2);
    expect(count('840.00')).toBe(4); // unit cost and total
    expect(count('197.28')).toBe(2);
    expect(count('394.56')).toBe(2);
    expect(count('$1,234.56')).toBe(4); // stub header amount and items total
    expect(count('Check No. 10001')).toBe(2);
    expect(stubs.filter((t) => /Voucher V-7781/.test(t.str))).toHaveLength(2);
  });

  it('summarises voucher items that do not fit and still totals them all', async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      invoiceNumber: `INV-${i + 1}`,
      name: `Item ${i + 1}`,
      description: '',
      quantity: 1,
      unitCostCents: 100,
      totalCents: 100,
    }));
    const page = await renderPage(
      sampleCheck({ amountCents: 4000, voucher: { voucherNumber: null, date: null, memo: null, items } }),
    );
    const stubs = page.texts.filter((t) => t.y < CHECK_BOTTOM);
    expect(stubs.filter((t) => /^… and \d+ more items$/.test(t.str))).toHaveLength(2);
    expect(stubs.filter((t) => t.str === '$40.00')).toHaveLength(4);
  });

  it("prints an imported bill's lines (a description and a total, no name or unit cost) as they are: no stray dash, no 0.00", async () => {
    // What an accounting export's bill lines become (the import gives each line a description and
    // its amount): the stub must read "Copy paper, 40 cases … 1,000.00", not "— Copy paper" at 0.00 each.
    const line = (description: string, totalCents: number) => ({
      invoiceNumber: '',
      name: '',
      description,
      quantity: 1,
      unitCostCents: 0,
      totalCents,
    });
    const page = await renderPage(
      sampleCheck({
        amountCents: 123450,
        voucher: {
          voucherNumber: 'BILL-301',
          date: null,
          memo: null,
          items: [line('Copy paper, 40 cases', 100000), line('Stamps', 23450)],
        },
      }),
    );
    const stubs = page.texts.filter((t) => t.y < CHECK_BOTTOM).map((t) => t.str.trim());
    const count = (s: string): number => stubs.filter((t) => t === s).length;
    expect(count('Copy paper, 40 cases')).toBe(2);
    expect(count('Stamps')).toBe(2);
    expect(count('1,000.00')).toBe(2);
    expect(count('234.50')).toBe(2);
    expect(stubs.filter((t) => t.startsWith('—'))).toEqual([]);
    expect(count('0.00')).toBe(0);
  });
});

describe('renderCheckPdf: no* flags leave their parts blank', () => {
  it('noPayee: no payee name or address anywhere', async () => {
    const text = pageText(await renderPage(sampleCheck({ noPayee: true, payee: null })));
    expect(text).not.toContain('Harper');
    expect(text).not.toContain('Riverside');
    expect(text).toContain('ORDER OF');
  });

  it('noAmount: no figures, no legal line, but the box label and "Dollars" stay', async () => {
    const text = pageText(await renderPage(sampleCheck({ noAmount: true, amountCents: null })));
    expect(text).not.toContain('1,234.56');
    expect(text).not.toContain('Thousand');
    expect(text).not.toMatch(/\*\*/);
    expect(text).toContain('Dollars');
  });

  it('noDate: no date on the check or the stubs', async () => {
    const text = pageText(await renderPage(sampleCheck({ noDate: true })));
    expect(text).not.toContain('11/21/2026');
    expect(text).toContain('DATE');
  });

  it('noSign: the signature image is not drawn even when given', async () => {
    const signed = await renderPage(sampleCheck({ signature: { data: signaturePng() } }));
    expect(signed.images).toHaveLength(1);
    const [box] = signed.images;
    expect((box?.x1 ?? 0) / IN).toBeGreaterThanOrEqual(5);
    expect(inchesFromTop(box?.y1 ?? 0)).toBeLessThanOrEqual(2.6);
    const unsigned = await renderPage(sampleCheck({ signature: { data: signaturePng() }, noSign: true }));
    expect(unsigned.images).toHaveLength(0);
    expect(pageText(unsigned)).toContain('AUTHORIZED SIGNATURE');
  });
});

describe('renderCheckPdf: refused input', () => {
  it('throws the typed error for an invalid routing number', async () => {
    const error = await renderError(sampleCheck({ routingNumber: '011000016' }));
    expect(error.code).toBe('invalid_routing_number');
    expect(error.field).toBe('routingNumber');
  });

  it('refuses account numbers and check numbers that do not fit their MICR fields', async () => {
    expect((await renderError(sampleCheck({ accountNumber: '1'.repeat(19) }))).code).toBe('account_number_too_long');
    expect((await renderError(sampleCheck({ checkNumber: '9'.repeat(20) }))).code).toBe('serial_number_too_long');
  });

  it('refuses a payee name that cannot fit the pay line, and too many address lines', async () => {
    const longName = await renderError(
      sampleCheck({ payee: { name: 'Very Long Payee Name '.repeat(10), addressLines: [] } }),
    );
    expect(longName.code).toBe('text_too_long');
    expect(longName.field).toBe('payee.name');
    const lines = await renderError(sampleCheck({ payee: { name: 'A', addressLines: ['1', '2', '3', '4', '5'] } }));
    expect(lines.field).toBe('payee.addressLines');
  });

  it('refuses bad dates, missing or out-of-range amounts, a missing payee and non-image signatures', async () => {
    expect((await renderError(sampleCheck({ issueDate: '2026-02-30' }))).code).toBe('invalid_date');
    expect((await renderError(sampleCheck({ issueDate: '11/21/2026' }))).code).toBe('invalid_date');
    expect((await renderError(sampleCheck({ amountCents: null }))).code).toBe('amount_required');
    expect((await renderError(sampleCheck({ amountCents: 0 }))).code).toBe('invalid_amount');
    expect((await renderError(sampleCheck({ amountCents: 10_000_000_000 }))).code).toBe('invalid_amount');
    expect((await renderError(sampleCheck({ amountCents: 12.5 }))).code).toBe('invalid_amount');
    expect((await renderError(sampleCheck({ payee: null }))).code).toBe('payee_required');
    const notImage = await renderError(
      sampleCheck({ signature: { data: new TextEncoder().encode('GIF89a not an image') } }),
    );
    expect(notImage.code).toBe('invalid_signature_image');
  });

  it('fits the longest legal line the amount field allows', async () => {
    // 77,777,777.77 has the longest words of any amount up to 99,999,999.99.
    const page = await renderPage(sampleCheck({ amountCents: 7_777_777_777 }));
    const legal = textsMatching(page, /^Seventy-Seven Million .* and 77\/100 \*{3,}$/);
    expect(legal).toHaveLength(1);
    expect(legal[0]?.box.x2 ?? Infinity).toBeLessThan(7.35 * IN);
  });
});

describe('renderChecksPdf', () => {
  it('renders one check per page, each with its own MICR line', async () => {
    const checks = ['10001', '10002', '10003'].map((checkNumber) => sampleCheck({ checkNumber }));
    const pages = await parsePdf(await renderChecksPdf(checks));
    expect(pages).toHaveLength(3);
    pages.forEach((page, i) => {
      expect(textsMatching(page, `Check No. 1000${i + 1}`)).toHaveLength(2);
      expect(page.width).toBe(612);
      expect(page.height).toBe(792);
      expect(clearBandPaths(page)).toHaveLength(
        expectedMicr(sampleCheck().routingNumber, '0012345678', '10001').length,
      );
    });
  });

  it('produces identical bytes for identical input', async () => {
    const a = await renderCheckPdf(sampleCheck({ signature: { data: signaturePng() } }));
    const b = await renderCheckPdf(sampleCheck({ signature: { data: signaturePng() } }));
    expect(a.equals(b)).toBe(true);
  });

  it('refuses an empty batch and names the failing check of a batch by its field', async () => {
    await expect(renderChecksPdf([])).rejects.toMatchObject({ code: 'empty_batch' });
    const batch = renderChecksPdf([sampleCheck(), sampleCheck({ routingNumber: '123456789' })]);
    await expect(batch).rejects.toBeInstanceOf(RenderInputError);
    await expect(batch).rejects.toMatchObject({ code: 'invalid_routing_number', field: 'routingNumber', index: 1 });
  });
});

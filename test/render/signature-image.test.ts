// The signature image preparation: our PNG un-filtering must give back exactly the pixels that were
// encoded (all five PNG filter types), the cache must return the same preparation for the same
// bytes, and a batch must embed one image for many pages.

import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderChecksPdf } from '../../src/render/check-pdf.ts';
import { prepareImage } from '../../src/render/signature-image.ts';
import { sampleCheck } from './support/fixtures.ts';
import { TINY_JPEG } from './support/jpeg.ts';
import { parsePdf } from './support/pdf.ts';
import { encodePng, pngClaiming, signaturePng } from './support/png.ts';

function pixel(x: number, y: number): [number, number, number, number] {
  return [(x * 37 + y * 11) & 0xff, (x * 5 + y * 91) & 0xff, (x * y * 3) & 0xff, (x * 17 + y * 29 + 7) & 0xff];
}

describe('prepareImage', () => {
  it('refuses a PNG whose header claims more pixels than a signature needs, before decoding it', () => {
    expect(() => prepareImage(pngClaiming(20_000, 20_000, deflateSync(Buffer.alloc(16))))).toThrow(
      /20000x20000 pixels is more than a signature needs/,
    );
  });

  it('never inflates more than the header says (a small file that inflates to 50 MB is refused)', () => {
    const bomb = pngClaiming(500, 500, deflateSync(Buffer.alloc(50_000_000)));
    expect(bomb.length).toBeLessThan(100_000);
    expect(() => prepareImage(bomb)).toThrow();
  });

  it('splits an RGBA PNG into the exact colour and alpha planes, whatever the row filters', () => {
    const width = 23;
    const height = 10;
    const png = encodePng(width, height, pixel, (y) => y % 5);
    const prepared = prepareImage(png);
    if (prepared.kind !== 'split') throw new Error('expected the RGBA PNG to be split');
    expect([prepared.width, prepared.height, prepared.colorSpace]).toEqual([width, height, 'DeviceRGB']);
    const color = inflateSync(prepared.color);
    const alpha = inflateSync(prepared.alpha);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const [r, g, b, a] = pixel(x, y);
        const p = y * width + x;
        expect([color[p * 3], color[p * 3 + 1], color[p * 3 + 2], alpha[p]], `pixel ${x},${y}`).toEqual([r, g, b, a]);
      }
    }
  });

  it('returns the cached preparation for the same bytes', () => {
    const a = prepareImage(signaturePng());
    const b = prepareImage(signaturePng());
    expect(b).toBe(a);
  });

  it('hands JPEG bytes to pdfkit unchanged', () => {
    const prepared = prepareImage(TINY_JPEG);
    expect(prepared.kind).toBe('pdfkit');
  });
});

describe('signatures in rendered PDFs', () => {
  it('embeds one image for a whole batch and draws it on every page', async () => {
    const signature = { data: signaturePng() };
    const checks = ['201', '202', '203'].map((checkNumber) => sampleCheck({ checkNumber, signature }));
    const pdf = await renderChecksPdf(checks);
    // Image and soft-mask dictionaries are written uncompressed: one of each for three pages.
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(2);
    const pages = await parsePdf(pdf);
    expect(pages.map((p) => p.images.length)).toEqual([1, 1, 1]);
  });

  it('draws a JPEG signature', async () => {
    const [page] = await parsePdf(await renderChecksPdf([sampleCheck({ signature: { data: TINY_JPEG } })]));
    expect(page?.images).toHaveLength(1);
  });

  it('embeds a JPEG signature once for a whole batch too', async () => {
    const signature = { data: TINY_JPEG };
    const pdf = await renderChecksPdf(
      ['301', '302', '303'].map((checkNumber) => sampleCheck({ checkNumber, signature })),
    );
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(1);
    const pages = await parsePdf(pdf);
    expect(pages.map((p) => p.images.length)).toEqual([1, 1, 1]);
  });
});

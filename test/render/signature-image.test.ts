// The signature image preparation: split once by pdfkit's own PNG reader, it must give back exactly
// the pixels that were encoded (all five PNG filter types), the cache must return the same
// preparation for the same bytes, and a batch must embed one image for many pages. The renderer
// must never need sharp (PDFs are drawn in worker threads, where sharp is unsafe to load).

import { inflateSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderChecksPdf } from '../../src/render/check-pdf.ts';
import { prepareImage } from '../../src/render/signature-image.ts';
import { sampleCheck } from './support/fixtures.ts';
import { TINY_JPEG } from './support/jpeg.ts';
import { parsePdf } from './support/pdf.ts';
import { plainPng } from '../support/hostile-images.ts';
import { encodePng, signaturePng } from './support/png.ts';

function pixel(x: number, y: number): [number, number, number, number] {
  return [(x * 37 + y * 11) & 0xff, (x * 5 + y * 91) & 0xff, (x * y * 3) & 0xff, (x * 17 + y * 29 + 7) & 0xff];
}

describe('prepareImage', () => {
  it('splits an RGBA PNG into the exact colour and alpha planes, whatever the row filters', async () => {
    const width = 23;
    const height = 10;
    const png = encodePng(width, height, pixel, (y) => y % 5);
    const prepared = await prepareImage(png);
    if (prepared.kind !== 'split') throw new Error('expected the RGBA PNG to be split');
    expect([prepared.width, prepared.height]).toEqual([width, height]);
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

  it('returns the cached preparation for the same bytes', async () => {
    const a = await prepareImage(signaturePng());
    const b = await prepareImage(signaturePng());
    expect(b).toBe(a);
  });

  it('hands JPEG bytes and PNGs without alpha to pdfkit unchanged', async () => {
    expect((await prepareImage(TINY_JPEG)).kind).toBe('pdfkit');
    expect((await prepareImage(plainPng(8, 4, 8, 2))).kind).toBe('pdfkit');
  });

  it('refuses bytes that are no image it can read, and keeps no failure in the cache', async () => {
    const broken = Buffer.concat([signaturePng().subarray(0, 40)]);
    await expect(prepareImage(broken)).rejects.toThrow();
    await expect(prepareImage(broken)).rejects.toThrow();
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

describe('the renderer and sharp', () => {
  it('no module the PDF renderer imports, however indirectly, imports sharp', () => {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)) {
        const target = match[1] ?? '';
        if (target.startsWith('.')) visit(resolve(dirname(file), target));
        else bare.add(target);
      }
    };
    for (const entry of ['check-pdf.ts', 'micr-test-page.ts'])
      visit(fileURLToPath(new URL(`../../src/render/${entry}`, import.meta.url)));
    expect(seen.size).toBeGreaterThan(5);
    expect(bare.has('pdfkit')).toBe(true);
    expect([...bare].filter((name) => name.includes('sharp'))).toEqual([]);
  });
});

// normalizeImage (services/normalize-image.ts) against the shapes that hurt image parsers, each
// written byte by byte in test/support/hostile-images.ts. Every upload either comes back as a
// PNG that sharp wrote (print-sized, 8-bit, no metadata) or is refused with the reason the API and
// the panel show. Timing bounds here are generous (the "refused fast"); speed itself is in
// the bench.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  type ImageRefusal,
  isRefusal,
  MAX_IMAGE_BYTES,
  MAX_INPUT_PIXELS,
  type NormalizedImage,
  normalizeImage,
  PRINT_SIZE,
} from '../../src/services/normalize-image.ts';
import { TINY_JPEG } from '../render/support/jpeg.ts';
import { encodePng, signaturePng } from '../render/support/png.ts';
import {
  animatedGif,
  apng,
  bombPng,
  chunksNotWritten,
  ihdr,
  jpegClaiming,
  lyingIdatLengthPng,
  lyingIhdrLengthPng,
  PNG_SIGNATURE,
  plainPng,
  pngChunk,
  pngChunkTypes,
  pngHeaderSize,
  pngWithMetadata,
  twoIhdrPng,
  twoPageTiff,
  withExifOrientation,
  zeroIdat,
} from '../support/hostile-images.ts';

async function normalized(bytes: Uint8Array, purpose: 'signature' | 'logo' = 'signature'): Promise<NormalizedImage> {
  const result = await normalizeImage(bytes, purpose);
  if (isRefusal(result)) throw new Error(`refused: ${result.refused} (${result.rule})`);
  return result;
}

async function refusal(bytes: Uint8Array, purpose: 'signature' | 'logo' = 'signature'): Promise<ImageRefusal> {
  const result = await normalizeImage(bytes, purpose);
  if (!isRefusal(result)) throw new Error(`normalized to ${result.width}x${result.height}, expected a refusal`);
  return result;
}

/** A PNG as normalizeImage promises it: written anew, 8-bit RGB(A), no metadata, within the print size. */
function expectWritten(image: NormalizedImage, upload: Uint8Array, purpose: 'signature' | 'logo'): void {
  const png = image.png;
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(Buffer.from(upload).equals(png)).toBe(false);
  const types = pngChunkTypes(png);
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  expect(chunksNotWritten(png)).toEqual([]);
  expect(types.filter((t) => t === 'IHDR')).toHaveLength(1);
  expect(pngHeaderSize(png)).toEqual({ width: image.width, height: image.height });
  expect(png[24]).toBe(8); // bit depth
  expect([2, 6]).toContain(png[25]); // RGB or RGBA
  expect(image.width).toBeLessThanOrEqual(PRINT_SIZE[purpose].width);
  expect(image.height).toBeLessThanOrEqual(PRINT_SIZE[purpose].height);
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await run();
  return { result, ms: performance.now() - start };
}

/**
 * The same machine's figure for ordinary work: the fastest of three normalisations of a plain
 * 720 × 200 signature (144,000 pixels). A shape that must be "quick" is compared with it, never with
 * an absolute time: on a loaded machine both are slower. What the comparison catches is the shape
 * that does far more work than an ordinary image — inflating a bomb, or an extreme ratio that
 * resamples pixel by pixel — which takes seconds, hundreds of times the ordinary figure.
 */
let ordinary: number | undefined;
async function ordinaryMs(): Promise<number> {
  if (ordinary === undefined) {
    const times: number[] = [];
    for (let i = 0; i < 3; i += 1)
      times.push((await timed(() => normalizeImage(signaturePng(720, 200), 'signature'))).ms);
    ordinary = Math.min(...times);
  }
  return ordinary;
}
const QUICK_FACTOR = 10;
const QUICK_SLACK_MS = 200;
async function expectQuick(ms: number, what: string): Promise<void> {
  const base = await ordinaryMs();
  expect(ms, `${what}: ${Math.round(ms)} ms against an ordinary signature's ${Math.round(base)} ms`).toBeLessThan(
    QUICK_FACTOR * base + QUICK_SLACK_MS,
  );
}

describe('print sizes', () => {
  it('are the boxes on the check at 300 dpi: signature 2.4 × 0.536 in, logo 0.8 × 0.55 in', () => {
    expect(PRINT_SIZE.signature).toEqual({ width: 720, height: 161 });
    expect(PRINT_SIZE.logo).toEqual({ width: 240, height: 165 });
  });
});

describe('normalizeImage: what is kept', () => {
  it('writes a signature anew as a PNG without metadata, scaled down to its print size, aspect kept', async () => {
    const upload = signaturePng(3000, 750);
    const image = await normalized(upload);
    expectWritten(image, upload, 'signature');
    expect([image.width, image.height]).toEqual([644, 161]);
  });

  it('never enlarges a small image, and keeps its transparency', async () => {
    const upload = signaturePng(120, 40);
    const image = await normalized(upload);
    expectWritten(image, upload, 'signature');
    expect([image.width, image.height]).toEqual([120, 40]);
    expect(image.png[25]).toBe(6);
    // The same pixels, read back: ink where the scribble is, transparent elsewhere.
    const [back, original] = await Promise.all([sharp(image.png).raw().toBuffer(), sharp(upload).raw().toBuffer()]);
    expect(back.equals(original)).toBe(true);
  });

  it('scales a logo to the logo box', async () => {
    const upload = signaturePng(1200, 300);
    const image = await normalized(upload, 'logo');
    expectWritten(image, upload, 'logo');
    expect([image.width, image.height]).toEqual([240, 60]);
  });

  it('drops text and EXIF chunks', async () => {
    const upload = pngWithMetadata();
    expect(pngChunkTypes(upload)).toContain('tEXt');
    const image = await normalized(upload);
    expectWritten(image, upload, 'signature');
    expect(image.png.includes(Buffer.from('<script>'))).toBe(false);
  });

  it('writes a 16-bit PNG as an 8-bit one', async () => {
    const upload = plainPng(100, 50, 16, 6);
    const image = await normalized(upload);
    expectWritten(image, upload, 'signature');
    expect([image.width, image.height]).toEqual([100, 50]);
  });

  it('turns a JPEG upright by its EXIF orientation, then leaves the EXIF out', async () => {
    const upright = await normalized(TINY_JPEG);
    const turned = await normalized(withExifOrientation(TINY_JPEG, 6));
    expectWritten(turned, TINY_JPEG, 'signature');
    expect([upright.width, upright.height]).toEqual([56, 6]);
    // Orientation 6: the stored picture is the camera's turned 90° clockwise.
    expect([turned.width, turned.height]).toEqual([6, 56]);
    const [a, b] = await Promise.all([
      sharp(upright.png).raw().toBuffer({ resolveWithObject: true }),
      sharp(turned.png).raw().toBuffer({ resolveWithObject: true }),
    ]);
    const channels = a.info.channels;
    for (let y = 0; y < 56; y += 1) {
      for (let x = 0; x < 6; x += 1) {
        // Turned (x, y) is upright (y, 5 - x).
        const at = (y * 6 + x) * channels;
        const from = ((5 - x) * 56 + y) * channels;
        expect(b.data[at], `pixel ${x},${y}`).toBe(a.data[from]);
      }
    }
    expect(chunksNotWritten(turned.png)).toEqual([]);
  });

  it('keeps an APNG as its still default image, the animation chunks gone', async () => {
    const upload = apng();
    expect(pngChunkTypes(upload)).toEqual(expect.arrayContaining(['acTL', 'fcTL', 'fdAT']));
    const image = await normalized(upload);
    expectWritten(image, upload, 'signature');
  });

  it('takes a 1 × 100,000 image (extreme ratio) down to its box quickly', async () => {
    const upload = plainPng(1, 100_000);
    const { result, ms } = await timed(() => normalizeImage(upload, 'signature'));
    if (isRefusal(result)) throw new Error(result.rule);
    expectWritten(result, upload, 'signature');
    expect([result.width, result.height]).toEqual([1, 161]);
    await expectQuick(ms, '1 × 100,000');
  });

  it('decodes the largest PNG allowed that a small file can claim (5000 × 5000 RGBA from 97 KB) and scales it', async () => {
    const upload = await bombPng(5000, 5000, 8, 6);
    expect(upload.length).toBeLessThan(MAX_IMAGE_BYTES.logo);
    // Within the caps, so decoded whole (off the event loop) and within the 10 s deadline.
    const result = await normalizeImage(upload, 'logo');
    if (isRefusal(result)) throw new Error(result.rule);
    expectWritten(result, upload, 'logo');
    expect([result.width, result.height]).toEqual([165, 165]);
  });
});

describe('normalizeImage: what is refused', () => {
  it("issue 22's row: a 93-byte PNG with two IHDR chunks (1×1, then 12000×12000 RGBA)", async () => {
    const upload = twoIhdrPng();
    expect(upload.length).toBe(93);
    const { result, ms } = await timed(() => refusal(upload));
    expect(result.refused).toBe('unreadable');
    await expectQuick(ms, 'two IHDR chunks');
  });

  it('the same with 16-bit samples', async () => {
    const upload = twoIhdrPng(12000, 12000, 16);
    expect((await refusal(upload)).refused).toBe('unreadable');
  });

  it("issue 22's row: a 41-byte JPEG declaring 65535×65535", async () => {
    const upload = jpegClaiming();
    expect(upload.length).toBe(41);
    expect((await refusal(upload)).refused).toBe('unreadable');
  });

  it('a JPEG header claiming 65500×65500 (libjpeg’s own maximum) is over the pixel cap, read from the header', async () => {
    const result = await refusal(jpegClaiming(65500, 65500));
    expect(result).toEqual({
      refused: 'too_many_pixels',
      rule: `must be at most ${MAX_INPUT_PIXELS.toLocaleString('en-US')} pixels (this one is 65500x65500)`,
    });
  });

  it('a decompression bomb: 1.6 gigapixels in about 200 KB, refused from its header before inflating', async () => {
    const upload = await bombPng(40_000, 40_000);
    expect(upload.length).toBeLessThan(MAX_IMAGE_BYTES.signature);
    const { result, ms } = await timed(() => refusal(upload));
    expect(result.refused).toBe('too_many_pixels');
    await expectQuick(ms, '1.6 gigapixel bomb');
  });

  it('truncated data (PNG and JPEG)', async () => {
    const png = signaturePng(720, 200);
    expect((await refusal(png.subarray(0, png.length >> 1))).refused).toBe('unreadable');
    expect((await refusal(TINY_JPEG.subarray(0, Math.floor(TINY_JPEG.length * 0.6)))).refused).toBe('unreadable');
  });

  it('a lying IDAT length and a lying IHDR length', async () => {
    expect((await refusal(lyingIdatLengthPng())).refused).toBe('unreadable');
    expect((await refusal(lyingIhdrLengthPng())).refused).toBe('unreadable');
  });

  it('a damaged CRC on the header', async () => {
    const png = Buffer.from(signaturePng());
    png[29] = (png[29] ?? 0) ^ 0xff; // IHDR's CRC
    expect((await refusal(png)).refused).toBe('unreadable');
  });

  it('pixel data shorter than the header says', async () => {
    const short = Buffer.concat([
      PNG_SIGNATURE,
      pngChunk('IHDR', ihdr(200, 200)),
      pngChunk('IDAT', zeroIdat(200, 20)),
      pngChunk('IEND'),
    ]);
    expect((await refusal(short)).refused).toBe('unreadable');
  });

  it('anything but PNG and JPEG: an animated GIF, a two-page TIFF, SVG, text', async () => {
    for (const upload of [
      animatedGif(),
      twoPageTiff(),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      Buffer.from('not an image'),
      Buffer.alloc(0),
    ]) {
      expect(await refusal(upload)).toEqual({ refused: 'not_png_or_jpeg', rule: 'must be a PNG or JPEG image' });
    }
  });

  it('more bytes than the purpose allows, before anything is decoded (8 MB of the worst shape: two IHDRs and junk)', async () => {
    const upload = Buffer.concat([twoIhdrPng(), Buffer.alloc(8 * 1024 * 1024 - 93, 0xff)]);
    expect(await refusal(upload)).toEqual({ refused: 'too_large', rule: 'must not be larger than 512 KB' });
    // Noise does not compress: 300 × 300 RGBA is 360 KB whatever deflate does.
    const noise = randomBytes(300 * 300 * 3);
    const at = (x: number, y: number, k: number): number => noise[(y * 300 + x) * 3 + k] ?? 0;
    const logo = encodePng(300, 300, (x, y) => [at(x, y, 0), at(x, y, 1), at(x, y, 2), 255]);
    expect(logo.length).toBeGreaterThan(MAX_IMAGE_BYTES.logo);
    expect(await refusal(logo, 'logo')).toEqual({ refused: 'too_large', rule: 'must not be larger than 256 KB' });
  });
});

/// <reference types="pdfkit" />
// Signature images, prepared once and reused. A bank account's signature is the same bytes on
// every check it prints, but pdfkit decodes a PNG with an alpha channel, splits the alpha and
// deflates both planes again for every document — measured at about half the render time of a
// signed check. Here that work is done once per distinct image (cached by content hash), and a
// batch PDF embeds each image once and references it from every page.
//
// Handled here: 8-bit, non-interlaced PNG with alpha (grey+alpha, RGBA) — what signature pads and
// editors export. Everything else (JPEG, PNG without alpha, 16-bit or interlaced PNG) goes to
// pdfkit unchanged: JPEG and alpha-less PNG data pass through pdfkit without decoding anyway.

import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { isPng, MAX_IMAGE_PIXELS, pngSize } from '../domain/file-types.ts';

type Pdf = PDFKit.PDFDocument;

interface SplitImage {
  readonly kind: 'split';
  readonly key: string;
  readonly width: number;
  readonly height: number;
  readonly colorSpace: 'DeviceGray' | 'DeviceRGB';
  /** Deflated colour samples, 8 bits per component, no PNG filter bytes. */
  readonly color: Buffer;
  /** Deflated 8-bit alpha plane, used as the image's soft mask. */
  readonly alpha: Buffer;
}

interface PassThroughImage {
  readonly kind: 'pdfkit';
  readonly data: Buffer;
}

export type PreparedImage = SplitImage | PassThroughImage;

const CACHE_LIMIT = 256;
const cache = new Map<string, PreparedImage>();

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Reverses the PNG scanline filters (PNG spec §9) for 8-bit samples, bpp bytes per pixel. */
function unfilter(data: Buffer, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  let src = 0;
  for (let y = 0; y < height; y += 1) {
    const filter = data[src] ?? 0;
    src += 1;
    const row = y * stride;
    const prev = row - stride;
    for (let i = 0; i < stride; i += 1) {
      const raw = data[src + i] ?? 0;
      const a = i >= bpp ? (out[row + i - bpp] ?? 0) : 0;
      const b = y > 0 ? (out[prev + i] ?? 0) : 0;
      const c = y > 0 && i >= bpp ? (out[prev + i - bpp] ?? 0) : 0;
      let value: number;
      if (filter === 0) value = raw;
      else if (filter === 1) value = raw + a;
      else if (filter === 2) value = raw + b;
      else if (filter === 3) value = raw + ((a + b) >> 1);
      else if (filter === 4) value = raw + paeth(a, b, c);
      else throw new Error(`bad PNG filter type ${filter}`);
      out[row + i] = value & 0xff;
    }
    src += stride;
  }
  return out;
}

/** Splits an 8-bit grey+alpha or RGBA PNG into deflated colour and alpha planes, or null if not that kind. */
function splitAlphaPng(data: Buffer, key: string): SplitImage | null {
  let offset = 8;
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colorType = -1;
  let interlace = 0;
  const idat: Buffer[] = [];
  while (offset + 8 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitDepth = body[8] ?? 0;
      colorType = body[9] ?? -1;
      interlace = body[12] ?? 0;
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  if (bitDepth !== 8 || interlace !== 0 || (colorType !== 4 && colorType !== 6) || width === 0 || height === 0) {
    return null;
  }
  const colors = colorType === 6 ? 3 : 1;
  // Never inflate more than the header's size needs (a decompression bomb stops here).
  const expected = (width * (colors + 1) + 1) * height;
  const pixels = unfilter(inflateSync(Buffer.concat(idat), { maxOutputLength: expected }), width, height, colors + 1);
  const color = new Uint8Array(width * height * colors);
  const alpha = new Uint8Array(width * height);
  for (let p = 0, i = 0, c = 0; p < alpha.length; p += 1) {
    for (let k = 0; k < colors; k += 1) color[c++] = pixels[i++] ?? 0;
    alpha[p] = pixels[i++] ?? 0;
  }
  return {
    kind: 'split',
    key,
    width,
    height,
    colorSpace: colors === 3 ? 'DeviceRGB' : 'DeviceGray',
    color: deflateSync(color),
    alpha: deflateSync(alpha),
  };
}

/**
 * Prepares PNG or JPEG bytes for drawing, reusing earlier work for the same bytes.
 * Throws if a PNG that claims to be 8-bit with alpha cannot be decoded.
 */
export function prepareImage(bytes: Uint8Array): PreparedImage {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const key = createHash('sha1').update(data).digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const size = pngSize(data);
  if (size !== null && size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new Error(
      `${size.width}x${size.height} pixels is more than a signature needs (at most ${MAX_IMAGE_PIXELS.toLocaleString('en-US')} pixels)`,
    );
  }
  const prepared: PreparedImage = (isPng(data) ? splitAlphaPng(data, key) : null) ?? { kind: 'pdfkit', data };
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(key, prepared);
  return prepared;
}

/**
 * pdfkit re-reads and re-embeds a Buffer on every doc.image() call; an image it has opened (its
 * `openImage`, untyped in @types/pdfkit) is embedded on first use and referenced after that. Kept
 * per document, so a batch PDF carries a JPEG or alpha-less PNG signature once, not once a page.
 */
const opened = new WeakMap<Pdf, Map<Buffer, PDFKit.Mixins.ImageSrc>>();

function openedOnce(doc: Pdf, data: Buffer): PDFKit.Mixins.ImageSrc {
  let perDoc = opened.get(doc);
  if (perDoc === undefined) {
    perDoc = new Map();
    opened.set(doc, perDoc);
  }
  let image = perDoc.get(data);
  if (image === undefined) {
    image = (doc as unknown as { openImage(src: Buffer): PDFKit.Mixins.ImageSrc }).openImage(data);
    perDoc.set(data, image);
  }
  return image;
}

/** Image XObjects already written into each open document, so a batch embeds an image once. */
const embedded = new WeakMap<Pdf, Map<string, { label: string; ref: PDFKit.PDFKitReference }>>();

function embed(doc: Pdf, image: SplitImage): { label: string; ref: PDFKit.PDFKitReference } {
  let perDoc = embedded.get(doc);
  if (perDoc === undefined) {
    perDoc = new Map();
    embedded.set(doc, perDoc);
  }
  const existing = perDoc.get(image.key);
  if (existing !== undefined) return existing;
  const mask = doc.ref({
    Type: 'XObject',
    Subtype: 'Image',
    Width: image.width,
    Height: image.height,
    BitsPerComponent: 8,
    ColorSpace: 'DeviceGray',
    Filter: 'FlateDecode',
  });
  mask.end(image.alpha);
  const ref = doc.ref({
    Type: 'XObject',
    Subtype: 'Image',
    Width: image.width,
    Height: image.height,
    BitsPerComponent: 8,
    ColorSpace: image.colorSpace,
    Filter: 'FlateDecode',
    SMask: mask,
  });
  ref.end(image.color);
  // A label of our own, so it cannot collide with pdfkit's I1, I2, ... image names.
  const entry = { label: `Sig${perDoc.size + 1}`, ref };
  perDoc.set(image.key, entry);
  return entry;
}

/** Draws the image as large as fits the box, keeping its aspect ratio, centred and resting on the box's bottom. */
export function drawImageInBox(
  doc: Pdf,
  image: PreparedImage,
  box: { x: number; y: number; width: number; height: number },
): void {
  if (image.kind === 'pdfkit') {
    doc.image(openedOnce(doc, image.data), box.x, box.y, {
      fit: [box.width, box.height],
      align: 'center',
      valign: 'bottom',
    });
    return;
  }
  const scale = Math.min(box.width / image.width, box.height / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  const x = box.x + (box.width - w) / 2;
  const y = box.y + box.height - h;
  const { label, ref } = embed(doc, image);
  doc.page.xobjects[label] = ref;
  // pdfkit's page space is y-down; an image fills the unit square, so flip it as pdfkit itself does.
  doc.save();
  doc.transform(w, 0, 0, -h, x, y + h);
  doc.addContent(`/${label} Do`);
  doc.restore();
}

/// <reference types="pdfkit" />
// Drawing a signature or logo. What reaches the renderer is an image the server wrote itself
// (services/normalize-image.ts: decoded by libvips, scaled to the size it prints at, re-encoded
// as an 8-bit sRGB PNG without metadata), so nothing here checks pixels. This module must not
// need sharp: PDFs are drawn in worker threads, where sharp is not safe to load.
//
// Why a cache: pdfkit embeds a PNG without transparency (and a JPEG) as it is, but one with an
// alpha channel it decodes (png-js, in JavaScript), splits and deflates again for every document
// — about 20 ms for a print-sized signature, four times a signed check's whole render. That work
// is done here once per distinct image (pdfkit's own PNG reader, its result kept by content
// hash), and a batch PDF embeds each image once and references it from every page.

import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';

type Pdf = PDFKit.PDFDocument;

/** An 8-bit RGBA PNG, split into colour and soft-mask planes ready to embed. */
interface SplitImage {
  readonly kind: 'split';
  readonly key: string;
  readonly width: number;
  readonly height: number;
  /** Deflated RGB samples, 8 bits per component. */
  readonly color: Buffer;
  /** Deflated 8-bit alpha plane, used as the image's soft mask. */
  readonly alpha: Buffer;
}

/** A JPEG or a PNG without alpha: pdfkit embeds its data without decoding it. */
interface PassThroughImage {
  readonly kind: 'pdfkit';
  readonly data: Buffer;
}

export type PreparedImage = SplitImage | PassThroughImage;

/** What pdfkit's PNG reader (png-js) tells of an image; untyped in @types/pdfkit. */
interface PngReader {
  readonly width: number;
  readonly height: number;
  readonly bits: number;
  readonly colors: number;
  readonly hasAlphaChannel: boolean;
  readonly interlaceMethod: number;
  /** The PNG's compressed data (its IDAT chunks, joined). */
  readonly imgData: Uint8Array;
  decodePixels(done: (pixels: Uint8Array) => void): void;
}

interface OpenedImage {
  /** Set for PNGs only. */
  readonly image?: PngReader;
}

type ImageOpener = { openImage(src: Buffer): PDFKit.Mixins.ImageSrc & OpenedImage };

const CACHE_LIMIT = 256;
const cache = new Map<string, Promise<PreparedImage>>();

let reader: ImageOpener | null = null;

/**
 * pdfkit's image reader, from a document that is never written (opening an image does not touch it).
 * pdfkit is loaded here, at the first image, not when the module is: the server imports this file
 * (through the check face's box sizes) but draws its PDFs in worker threads.
 */
async function openImage(data: Buffer): Promise<OpenedImage> {
  if (reader === null) {
    const { default: PDFDocument } = await import('pdfkit');
    reader ??= new PDFDocument({ autoFirstPage: false }) as unknown as ImageOpener;
  }
  return reader.openImage(data);
}

function decodePixels(png: PngReader): Promise<Uint8Array> {
  // png-js reports an inflate failure by throwing inside zlib's callback, where nothing can catch
  // it and the process would end. The images here are the server's own PNGs; still, the data is
  // inflated once first (bounded by the size the header gives), so a damaged one is refused here.
  inflateSync(png.imgData, { maxOutputLength: (png.width * 4 + 1) * png.height });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the PNG data could not be decoded')), 5_000);
    png.decodePixels((pixels) => {
      clearTimeout(timer);
      resolve(pixels);
    });
  });
}

async function prepare(data: Buffer, key: string): Promise<PreparedImage> {
  const png = (await openImage(data)).image;
  // What the server writes with transparency: 8-bit RGBA, not interlaced. Anything else
  // (JPEG, a PNG without alpha) pdfkit embeds without decoding.
  if (png === undefined || !png.hasAlphaChannel || png.bits !== 8 || png.colors !== 3 || png.interlaceMethod !== 0)
    return { kind: 'pdfkit', data };
  const pixels = await decodePixels(png);
  const count = png.width * png.height;
  if (pixels.length < count * 4) throw new Error('the PNG holds fewer pixels than its size says');
  const color = new Uint8Array(count * 3);
  const alpha = new Uint8Array(count);
  for (let p = 0; p < count; p += 1) {
    color[p * 3] = pixels[p * 4] ?? 0;
    color[p * 3 + 1] = pixels[p * 4 + 1] ?? 0;
    color[p * 3 + 2] = pixels[p * 4 + 2] ?? 0;
    alpha[p] = pixels[p * 4 + 3] ?? 0;
  }
  return {
    kind: 'split',
    key,
    width: png.width,
    height: png.height,
    color: deflateSync(color),
    alpha: deflateSync(alpha),
  };
}

/** Prepares PNG or JPEG bytes for drawing, reusing earlier work for the same bytes. */
export function prepareImage(bytes: Uint8Array): Promise<PreparedImage> {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const key = createHash('sha1').update(data).digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const prepared = prepare(data, key);
  // A failure is not kept: the same bytes are tried again next time.
  prepared.catch(() => cache.delete(key));
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(key, prepared);
  return prepared;
}

/**
 * pdfkit re-reads and re-embeds a Buffer on every doc.image() call; an image it has opened is
 * embedded on first use and referenced after that. Kept per document, so a batch PDF carries a
 * JPEG or alpha-less PNG once, not once a page.
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
    image = (doc as unknown as ImageOpener).openImage(data);
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
    ColorSpace: 'DeviceRGB',
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

// Every uploaded signature and logo passes here once, before it is stored, so that only images this
// server wrote are kept and printed: an upload is untrusted bytes, and an image parser is the first
// thing that meets them. libvips (sharp) decodes it with a pixel cap read from the header before
// any pixel is decoded, strict about corrupt data and with a deadline; the image is turned upright
// (EXIF orientation), scaled down to the size it prints at, and written again as a plain 8-bit sRGB
// PNG without metadata. What is stored, and so what every PDF embeds, is always an image this
// function wrote.
//
// sharp's work runs on libuv's threads, off the event loop. The PDF renderer never loads this
// module (render/ must not need sharp: PDFs are drawn in worker threads, where sharp is unsafe).
import type { Metadata, default as Sharp } from 'sharp';
import { isJpeg, isPng } from '../domain/file-types.ts';
import { unavailable } from '../errors.ts';
import { CallerGone, FairQueue, type FairQueueCounts, QueueFull, WaitedTooLong } from '../heavy-work/fair-queue.ts';
import { requestSignal } from '../heavy-work/request-signal.ts';
import { LOGO_BOX, SIGNATURE_BOX } from '../render/check-face.ts';

let loading: Promise<typeof Sharp> | null = null;

/**
 * sharp (libvips, a native module) is loaded by the first upload, not at start-up: most starts
 * never decode an image, and loading it costs a tenth of a second. A sharp that cannot load fails
 * that upload with its own error (a 500), never as a refused image.
 */
function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips keeps recent operations and their pixels in a cache (50 MB by default) for pipelines
    // that read the same file again; uploads never do, so nothing is kept between them.
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

export type ImagePurpose = 'signature' | 'logo';

/** Largest upload accepted for each purpose (a signature is a small picture, not a scan of a page). */
export const MAX_IMAGE_BYTES: Readonly<Record<ImagePurpose, number>> = { signature: 512 * 1024, logo: 256 * 1024 };

/**
 * Most pixels an upload may declare, checked from its header before decoding: 25 MP takes a
 * photo from a 24-megapixel camera (a phone's picture of a signature on paper) and no more. The
 * worst case within it, a 5000×5000 PNG, decodes in about a quarter of a second.
 */
export const MAX_INPUT_PIXELS = 25_000_000;

// Formatted once here: the first number formatting in a process sets up ICU's formatter, which
// measured 100–250 ms on the event loop of a loaded machine, inside the request that refused.
const MAX_INPUT_PIXELS_TEXT = MAX_INPUT_PIXELS.toLocaleString('en-US');

/** Printers and check stock need no more than 300 dots per inch; more only makes every PDF larger. */
export const PRINT_DPI = 300;

/**
 * A decode that takes longer than this is stopped (libvips' own deadline, per image, on the clock).
 * The slowest image within the caps takes ~0.25 s on an idle core and 1–5 s on a machine loaded
 * twenty-fold; past 10 s something is wrong with the file or the machine.
 */
const DEADLINE_SECONDS = 10;

/**
 * Decodes at once, and one account's share of them. libuv's four threads run sharp's work first
 * come, first served: 200 large uploads from one account queued there put another account's small
 * signature 8.9 s into its 10 s deadline. Here an account decodes one image at a time and keeps at
 * most four waiting, the two slots go to the accounts in turn, and a caller that waited
 * DECODE_WAIT_MS is answered 503 with Retry-After; a 5000x5000 PNG decodes in ~0.25 s idle.
 */
const decodes = new FairQueue({ slots: 2, perTenant: 1, perTenantWaiting: 4, waiting: 64 });
const DECODE_WAIT_MS = 5_000;

/** The decode queue's counts (tests and the bench read them). */
export function decodeCounts(): FairQueueCounts {
  return decodes.counts;
}

const POINTS_PER_INCH = 72;
const pixelsFor = (points: number): number => Math.ceil((points / POINTS_PER_INCH) * PRINT_DPI);

/** The most pixels each kind of image is stored at: its box on the check at PRINT_DPI. */
export const PRINT_SIZE: Readonly<Record<ImagePurpose, { width: number; height: number }>> = {
  signature: { width: pixelsFor(SIGNATURE_BOX.width), height: pixelsFor(SIGNATURE_BOX.height) },
  logo: { width: pixelsFor(LOGO_BOX.width), height: pixelsFor(LOGO_BOX.height) },
};

export interface NormalizedImage {
  /** An 8-bit sRGB PNG (RGB, or RGBA when the upload had transparency), no metadata chunks. */
  readonly png: Buffer;
  readonly width: number;
  readonly height: number;
}

export interface ImageRefusal {
  /** too_large → 413; the others → 422. */
  readonly refused: 'too_large' | 'not_png_or_jpeg' | 'too_many_pixels' | 'unreadable';
  /** Completes "The <field> field …" (the spec's validation message shape). */
  readonly rule: string;
}

export function isRefusal(result: NormalizedImage | ImageRefusal): result is ImageRefusal {
  return 'refused' in result;
}

/**
 * Decodes, checks, scales and re-encodes an uploaded image; answers why not when it cannot.
 * `accountId`: whose upload, for the account's share of decodes (one key for the command line).
 * A 503 with Retry-After when the account has its share waiting already, or waited too long.
 */
export async function normalizeImage(
  bytes: Uint8Array,
  purpose: ImagePurpose,
  accountId = '',
): Promise<NormalizedImage | ImageRefusal> {
  const maxBytes = MAX_IMAGE_BYTES[purpose];
  if (bytes.byteLength > maxBytes)
    return { refused: 'too_large', rule: `must not be larger than ${Math.round(maxBytes / 1024)} KB` };
  // Only the PNG and JPEG loaders ever see an upload: libvips would otherwise pick a loader by
  // the first bytes (GIF, TIFF, WebP, HEIF, SVG, ...), each one more parser facing the upload.
  if (!isPng(bytes) && !isJpeg(bytes)) return { refused: 'not_png_or_jpeg', rule: 'must be a PNG or JPEG image' };

  let release: () => void;
  try {
    release = await decodes.enter(accountId, { signal: requestSignal(), maxWaitMs: DECODE_WAIT_MS });
  } catch (error) {
    if (error instanceof QueueFull || error instanceof WaitedTooLong) {
      // Each image ahead of this account's next one takes a quarter of a second idle, a few loaded.
      const seconds = Math.min(60, Math.max(1, Math.ceil(error.ahead / 2)));
      throw unavailable(
        `Reading the ${purpose} image has to wait: your account has other images being read; try again in ${seconds} s.`,
        seconds,
      );
    }
    if (error instanceof CallerGone)
      throw unavailable(`Reading the ${purpose} image was stopped: the request was closed.`, 1);
    throw error;
  }
  try {
    return await decode(bytes, purpose);
  } finally {
    release();
  }
}

async function decode(bytes: Uint8Array, purpose: ImagePurpose): Promise<NormalizedImage | ImageRefusal> {
  const unreadable: ImageRefusal = {
    refused: 'unreadable',
    rule: 'must be an image that can be read (this one is damaged)',
  };
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // 'error' refuses corrupt or truncated data; libpng's and libjpeg's warnings (an odd colour
  // profile, a stray byte) do not refuse a picture that decodes whole.
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true } as const;
  const sharp = await loadSharp();
  let header: Metadata;
  try {
    // The header alone, without the cap (sharp would refuse without saying the size): nothing is
    // decoded here, and the size it reads is held to the cap just below.
    header = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch {
    return unreadable;
  }
  const width = header.width ?? 0;
  const height = header.height ?? 0;
  if ((header.format !== 'png' && header.format !== 'jpeg') || width < 1 || height < 1) return unreadable;
  if (width * height > MAX_INPUT_PIXELS)
    return {
      refused: 'too_many_pixels',
      rule: `must be at most ${MAX_INPUT_PIXELS_TEXT} pixels (this one is ${width}x${height})`,
    };
  const box = PRINT_SIZE[purpose];
  try {
    const { data, info } = await sharp(input, options)
      .timeout({ seconds: DEADLINE_SECONDS })
      .autoOrient()
      .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof Error && /timeout/i.test(error.message))
      return { refused: 'unreadable', rule: `must be an image that can be read within ${DEADLINE_SECONDS} seconds` };
    return unreadable;
  }
}

// What a file is, judged by its first bytes (a file name or a Content-Type header can lie).
// Shared by signature uploads, attachments and the renderer.

export type KnownFileType = 'application/pdf' | 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(b: Uint8Array): boolean {
  return b.length > 8 && PNG_SIGNATURE.every((byte, i) => b[i] === byte);
}

/** Width and height from a PNG's header (IHDR, always the first chunk), or null when it has none. */
export function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (!isPng(b) || b.length < 24) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Most pixels a signature PNG may have. A PNG's size is claimed by its header and decompressed
 * from a small file (512 KB can inflate to hundreds of MB), so it is bounded before decoding.
 */
export const MAX_IMAGE_PIXELS = 4_000_000;

export function isJpeg(b: Uint8Array): boolean {
  return b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

export function isPdf(b: Uint8Array): boolean {
  return b.length >= 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d;
}

export function sniffFileType(b: Uint8Array): KnownFileType | null {
  if (isPdf(b)) return 'application/pdf';
  if (isPng(b)) return 'image/png';
  if (isJpeg(b)) return 'image/jpeg';
  return null;
}

// What a file is, judged by its first bytes (a file name or a Content-Type header can lie).
// Shared by attachments, the renderer, and image uploads, where it only chooses which of libvips'
// loaders may look at the bytes (services/normalize-image.ts): the image itself is judged there.

export type KnownFileType = 'application/pdf' | 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(b: Uint8Array): boolean {
  return b.length > 8 && PNG_SIGNATURE.every((byte, i) => b[i] === byte);
}

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

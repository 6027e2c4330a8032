// A minimal PNG encoder (8-bit RGBA, no filtering) so tests and the sample script can make real
// signature images without an image library or binary fixtures.

import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Encodes a width × height RGBA image; pixel(x, y) returns [r, g, b, a] in 0..255. Row y uses PNG
 * filter type filterFor(y) (0 none, 1 sub, 2 up, 3 average, 4 Paeth), so decoders can be tested
 * on all five.
 */
export function encodePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => readonly [number, number, number, number],
  filterFor: (y: number) => number = () => 0,
): Buffer {
  const stride = width * 4;
  const plain = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) plain.set(pixel(x, y), y * stride + x * 4);
  }
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const filter = filterFor(y);
    const out = y * (stride + 1);
    raw[out] = filter;
    for (let i = 0; i < stride; i += 1) {
      const here = plain[y * stride + i] ?? 0;
      const a = i >= 4 ? (plain[y * stride + i - 4] ?? 0) : 0;
      const b = y > 0 ? (plain[(y - 1) * stride + i] ?? 0) : 0;
      const c = y > 0 && i >= 4 ? (plain[(y - 1) * stride + i - 4] ?? 0) : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter] ?? 0;
      raw[out + 1 + i] = (here - predictor) & 0xff;
    }
  }
  return pngClaiming(width, height, deflateSync(raw));
}

/** A handwriting-like scribble in dark blue ink on a transparent background. */
export function signaturePng(width = 360, height = 90): Buffer {
  const ink = new Uint8Array(width * height);
  const stroke = (fx: (t: number) => number, fy: (t: number) => number, steps: number): void => {
    for (let i = 0; i <= steps; i += 1) {
      const t = i / steps;
      const cx = fx(t);
      const cy = fy(t);
      for (let dy = -2; dy <= 2; dy += 1) {
        for (let dx = -2; dx <= 2; dx += 1) {
          const x = Math.round(cx + dx);
          const y = Math.round(cy + dy);
          if (x >= 0 && y >= 0 && x < width && y < height && dx * dx + dy * dy <= 4) ink[y * width + x] = 1;
        }
      }
    }
  };
  // A looping cursive line and an underline flourish.
  stroke(
    (t) => 20 + t * (width - 60),
    (t) => height * 0.5 + Math.sin(t * 26) * height * 0.28 * (1 - t * 0.4) + Math.sin(t * 5) * 6,
    4000,
  );
  stroke(
    (t) => 30 + t * (width - 50),
    (t) => height * 0.82 - Math.sin(t * Math.PI) * 8,
    1500,
  );
  stroke(
    (t) => 40 + Math.sin(t * Math.PI * 2) * 18 + t * 10,
    (t) => height * 0.2 + t * height * 0.6,
    800,
  );
  return encodePng(width, height, (x, y) => (ink[y * width + x] === 1 ? [20, 30, 110, 255] : [255, 255, 255, 0]));
}

/** An 8-bit RGBA PNG whose header claims `width` × `height`, carrying `idat` as its compressed data (for hostile-input tests). */
export function pngClaiming(width: number, height: number, idat: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

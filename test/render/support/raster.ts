// Rasterises real PDF bytes with poppler's pdftoppm (Debian package poppler-utils), the way a
// printer driver or a scanner would see the page: an 8-bit grey bitmap, 255 = paper, 0 = ink.
// The recognition tests read MICR characters from these bitmaps, so the drawing path (pdfkit's
// path operators, fill rules, page transforms) is tested along with the glyphs.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredInCiElseSkipped } from '../../support/optional-tool.ts';

export interface GreyBitmap {
  readonly width: number;
  readonly height: number;
  /** Pixels per inch. */
  readonly dpi: number;
  /** Row-major, one byte per pixel, 255 = white. */
  readonly pixels: Uint8Array;
}

let available: boolean | undefined;

/** Whether poppler's pdftoppm can be run (asked once a test file); see requiredInCiElseSkipped. */
export function pdftoppmAvailable(): boolean {
  available ??= requiredInCiElseSkipped(
    spawnSync('pdftoppm', ['-v'], { stdio: 'ignore' }).error === undefined,
    "poppler's pdftoppm (MICR recognition)",
    'apt-get install -y poppler-utils',
  );
  return available;
}

/** Parses a binary PGM (P5) with maxval 255, as pdftoppm -gray writes it. */
export function parsePgm(bytes: Buffer, dpi: number): GreyBitmap {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (header === null) throw new Error('not an 8-bit binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  const pixels = new Uint8Array(bytes.subarray(start, start + width * height));
  if (pixels.length !== width * height) throw new Error('truncated PGM');
  return { width, height, dpi, pixels };
}

/** Rasterises page `page` (1-based) of a PDF at `dpi` with pdftoppm, anti-aliased, in grey. */
export function rasterisePdf(pdf: Uint8Array, dpi: number, page = 1): GreyBitmap {
  const dir = mkdtempSync(join(tmpdir(), 'raster-'));
  try {
    const input = join(dir, 'in.pdf');
    writeFileSync(input, pdf);
    try {
      execFileSync(
        'pdftoppm',
        ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', input, join(dir, 'out')],
        { stdio: 'pipe' },
      );
    } catch (error) {
      const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
      throw new Error(
        missing ? 'pdftoppm is not installed: apt-get install poppler-utils' : `pdftoppm failed: ${String(error)}`,
      );
    }
    return parsePgm(readFileSync(join(dir, 'out.pgm')), dpi);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Darkness of one pixel, 0 (paper) .. 1 (full ink). */
export function inkAt(bitmap: GreyBitmap, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= bitmap.width || y >= bitmap.height) return 0;
  return (255 - (bitmap.pixels[y * bitmap.width + x] ?? 255)) / 255;
}

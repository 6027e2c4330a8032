// Frozen in time: never edit a migration that has shipped; add a new file instead.
// What is stored and embedded in PDFs is always an image the server wrote.
import type sharpModule from 'sharp';
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';

export const id = 18;
export const name = 'normalize-images';

/**
 * Until now an uploaded signature or logo was stored as it was sent, after checks of our own that
 * a hostile file could pass (a PNG with two headers, a 16-bit PNG, a JPEG that only claims a
 * size). From now on an upload is decoded by libvips and written again before it is stored
 * (services/normalize-image.ts); here every image stored before that is put through the same
 * treatment, with the rules of this day written out below (a migration imports no app code):
 * PNG or JPEG only, at most 25 megapixels by its header, decoded strictly, turned upright by its
 * EXIF orientation, scaled down to its box on the check at 300 dpi (signature 720 × 161, logo
 * 240 × 165 pixels) and written as an 8-bit sRGB PNG without metadata. An image that cannot be
 * so normalized is removed (the column set to NULL): it must never reach a PDF, and the panel
 * then shows "None" for it, asking for a new upload. Deleted bank accounts are included: their
 * checks can still be printed.
 */
export function up(_t: ColumnTypes): string[] {
  return [];
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_PIXELS = 25_000_000;
const BOXES = { signature: { width: 720, height: 161 }, logo: { width: 240, height: 165 } } as const;

/** The columns holding images, and the box each prints in. */
const COLUMNS = [
  { table: 'bank_accounts', column: 'signature', box: BOXES.signature },
  { table: 'bank_accounts', column: 'logo', box: BOXES.logo },
  { table: 'accounts', column: 'logo', box: BOXES.logo },
] as const;

/** Rows are read a few at a time, so a database of many large images is never held at once. */
const BATCH = 20;

type Sharp = typeof sharpModule;

async function normalized(sharp: Sharp, bytes: Buffer, box: { width: number; height: number }): Promise<Buffer | null> {
  const isPng = bytes.length > 8 && PNG.every((b, i) => bytes[i] === b);
  const isJpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!isPng && !isJpeg) return null;
  const options = { limitInputPixels: MAX_PIXELS, failOn: 'error', sequentialRead: true } as const;
  try {
    const header = await sharp(bytes, options).metadata();
    if (header.format !== 'png' && header.format !== 'jpeg') return null;
    return await sharp(bytes, options)
      // Generous: a timeout here removes the image, and an upgrade may run on a busy machine.
      .timeout({ seconds: 30 })
      .autoOrient()
      .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    return null;
  }
}

export async function data(tx: Queryable): Promise<void> {
  // Loaded only when there is work: sharp is a native library that nothing else at start-up needs.
  let sharp: Sharp | null = null;
  for (const { table, column, box } of COLUMNS) {
    let after = '';
    for (;;) {
      const rows = await tx.all<{ id: string; image: Uint8Array }>(
        `SELECT id, ${column} AS image FROM ${table} WHERE ${column} IS NOT NULL AND id > ? ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      for (const row of rows) {
        sharp ??= (await import('sharp')).default;
        const image = await normalized(sharp, Buffer.from(row.image), box);
        await tx.run(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [image, row.id]);
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < BATCH) break;
      after = last.id;
    }
  }
}

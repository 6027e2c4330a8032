// Pictures of our E-13B glyphs for docs/e13b/: every character enlarged on its 0.013-in unit grid,
// and a whole MICR line cut from a rendered check at 600 dpi. Both are drawn through the real
// renderer (pdfkit) and rasterised by poppler, so they show what a printer gets.
// Run: node --import tsx test/render/render-e13b-pictures.ts <name>   (e.g. before, after)
// Writes docs/e13b/<name>-glyphs.png and docs/e13b/<name>-micr-line.png. Needs pdftoppm.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import { renderCheckPdf } from '../../src/render/check-pdf.ts';
import { E13B_GLYPHS, MICR_CHARS } from '../../src/render/e13b-glyphs.ts';
import { fillMicrChar } from '../../src/render/micr-line.ts';
import { sampleCheck } from './support/fixtures.ts';

const name = process.argv[2];
if (name === undefined || !/^[a-z0-9-]+$/.test(name)) throw new Error('usage: render-e13b-pictures.ts <name>');

/** Every character at 8 pt per unit, on a faint grid of its 7 × 9 unit matrix, labelled. */
async function glyphSheet(): Promise<Buffer> {
  const unit = 8;
  const cell = 9 * unit;
  const doc = new PDFDocument({ size: [MICR_CHARS.length * cell + unit * 2, 11 * unit + 14], margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  MICR_CHARS.forEach((char, i) => {
    const left = unit + i * cell;
    const bottom = unit + 9 * unit;
    const glyph = E13B_GLYPHS[char];
    // The 7-wide matrix, right-aligned like the characters in their MICR cells.
    const gridLeft = left;
    doc.save().lineWidth(0.3).strokeColor('#b0c4de');
    for (let x = 0; x <= 7; x += 1)
      doc.moveTo(gridLeft + x * unit, bottom).lineTo(gridLeft + x * unit, bottom - 9 * unit);
    for (let y = 0; y <= 9; y += 1)
      doc.moveTo(gridLeft, bottom - y * unit).lineTo(gridLeft + 7 * unit, bottom - y * unit);
    doc.stroke().restore();
    fillMicrChar(doc, char, left + (7 - glyph.width) * unit, bottom - glyph.raise * unit, unit);
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#000000')
      .text(char, left, bottom + 4, { width: 7 * unit, align: 'center', lineBreak: false });
  });
  doc.end();
  return done;
}

const dir = mkdtempSync(join(tmpdir(), 'e13b-pictures-'));
try {
  mkdirSync('docs/e13b', { recursive: true });
  const sheet = join(dir, 'glyphs.pdf');
  writeFileSync(sheet, await glyphSheet());
  execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', sheet, `docs/e13b/${name}-glyphs`]);

  // Every digit in every printed field, and a dash in the account number.
  const check = sampleCheck({ routingNumber: '123456780', accountNumber: '90-12345678', checkNumber: '4567' });
  const checkPdf = join(dir, 'check.pdf');
  writeFileSync(checkPdf, await renderCheckPdf(check));
  // The print band, 3/16–7/16 in above the check's bottom edge (3.5 in from the page top), and the
  // used positions 13–52 from the right edge, at 600 dpi.
  const dpi = 600;
  const crop = {
    x: Math.round(1.6 * dpi),
    y: Math.round((3.5 - 0.5) * dpi),
    w: Math.round(5.2 * dpi),
    h: Math.round(0.375 * dpi),
  };
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    String(dpi),
    '-singlefile',
    '-x',
    String(crop.x),
    '-y',
    String(crop.y),
    '-W',
    String(crop.w),
    '-H',
    String(crop.h),
    checkPdf,
    `docs/e13b/${name}-micr-line`,
  ]);
  console.log(`wrote docs/e13b/${name}-glyphs.png and docs/e13b/${name}-micr-line.png`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Parses real PDF bytes back with pdf.js: the text runs of each page and the boxes of every path,
// image and paint operation, in page coordinates (points, origin bottom-left, as PDF defines them).
// The render tests assert on these, never on the renderer's own data structures.

import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface Box {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface PageText {
  readonly str: string;
  /** Start of the baseline. */
  readonly x: number;
  readonly y: number;
  /** Approximate extent of the run (baseline to font size above), rotation ignored. */
  readonly box: Box;
}

export interface PagePath {
  readonly paint: 'fill' | 'stroke' | 'other';
  readonly box: Box;
}

export interface ParsedPage {
  readonly width: number;
  readonly height: number;
  readonly texts: readonly PageText[];
  readonly paths: readonly PagePath[];
  readonly images: readonly Box[];
}

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  // Result = m applied first, then n (PDF's row-vector convention: [x y 1] · m · n).
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function transformBox(m: Matrix, x1: number, y1: number, x2: number, y2: number): Box {
  const corners = [apply(m, x1, y1), apply(m, x2, y1), apply(m, x1, y2), apply(m, x2, y2)];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}

function numbers(value: unknown): number[] {
  if (value instanceof Float32Array || value instanceof Float64Array) return Array.from(value);
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    return items.map((v) => {
      if (typeof v !== 'number') throw new Error(`expected a number, got ${String(v)}`);
      return v;
    });
  }
  throw new Error(`expected numbers, got ${String(value)}`);
}

function asMatrix(value: unknown): Matrix {
  const n = numbers(value);
  if (n.length !== 6) throw new Error('expected a 6-number matrix');
  return [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, n[3] ?? 0, n[4] ?? 0, n[5] ?? 0];
}

export async function parsePdf(bytes: Uint8Array): Promise<ParsedPage[]> {
  // pdf.js takes ownership of the array it is given, so it gets a copy.
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  const pages: ParsedPage[] = [];
  try {
    for (let n = 1; n <= pdf.numPages; n += 1) {
      const page = await pdf.getPage(n);
      const [, , width = 0, height = 0] = page.view;
      const content = await page.getTextContent();
      const texts: PageText[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str === '') continue;
        const m = asMatrix(item.transform);
        const size = Math.hypot(m[2], m[3]);
        texts.push({
          str: item.str,
          x: m[4],
          y: m[5],
          box: { x1: m[4], y1: m[5] - size * 0.25, x2: m[4] + item.width, y2: m[5] + size },
        });
      }

      const list = await page.getOperatorList();
      const paths: PagePath[] = [];
      const images: Box[] = [];
      let ctm: Matrix = IDENTITY;
      const stack: Matrix[] = [];
      list.fnArray.forEach((fn, i) => {
        const args: unknown = list.argsArray[i];
        if (fn === OPS.save) stack.push(ctm);
        else if (fn === OPS.restore) ctm = stack.pop() ?? IDENTITY;
        else if (fn === OPS.transform) ctm = multiply(asMatrix(args), ctm);
        else if (fn === OPS.constructPath && Array.isArray(args)) {
          // pdf.js 5: [paint operator, [path data], [minX, minY, maxX, maxY] in user space].
          const parts: unknown[] = args;
          const op = parts[0];
          const mm = numbers(parts[2]);
          const paint =
            op === OPS.fill || op === OPS.eoFill
              ? 'fill'
              : op === OPS.stroke || op === OPS.closeStroke
                ? 'stroke'
                : 'other';
          paths.push({ paint, box: transformBox(ctm, mm[0] ?? 0, mm[1] ?? 0, mm[2] ?? 0, mm[3] ?? 0) });
        } else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
          images.push(transformBox(ctm, 0, 0, 1, 1));
        }
      });
      pages.push({ width, height, texts, paths, images });
    }
  } finally {
    await pdf.destroy();
  }
  return pages;
}

/** All text runs of a page joined with newlines, for "contains" assertions. */
export function pageText(page: ParsedPage): string {
  return page.texts.map((t) => t.str).join('\n');
}

/**
 * Fills inside a check's MICR clear band (its bottom 5/8 in) on a letter page, the check's top
 * edge given in inches from the paper's top: on pre-printed stock the band must stay blank.
 */
export function clearBandFills(page: ParsedPage, checkTopIn: number): ParsedPage['paths'] {
  const bottom = 11 * 72 - (checkTopIn + 3.5) * 72;
  return page.paths.filter((p) => p.paint === 'fill' && p.box.y2 > bottom + 0.01 && p.box.y1 < bottom + (5 / 8) * 72);
}

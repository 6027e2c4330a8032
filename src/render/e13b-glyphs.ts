// Our own vector outlines for the 14 E-13B MICR characters.
//
// Built only from the public facts collected in docs/e13b.md (guide sources [1]–[20]); no font file
// was opened or copied. The standard's drawings place every nominal edge on a lattice of
// 0.013-in units ([7]: 0.010-in squares with 0.003-in gaps, edges mid-gap), so each glyph is drawn
// here as a bitmap of whole units and turned into rectangles once, at module load. The exact cell
// maps of ANSI X9.100-160-1 / ISO 1004-1 were not available: the shapes below are our design inside
// the published constraints (sizes, widths, heavy bottoms, peak counts), and a bank test decides.

export type MicrDigit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
export type MicrSymbol = 'transit' | 'amount' | 'onUs' | 'dash';
/** The 14 E-13B characters: ten digits and four symbols. */
export type MicrChar = MicrDigit | MicrSymbol;

export function isMicrDigit(value: string): value is MicrDigit {
  return value.length === 1 && value >= '0' && value <= '9';
}

export const MICR_CHARS: readonly MicrChar[] = [
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  'transit',
  'amount',
  'onUs',
  'dash',
];

/**
 * Text form of each character: the digit itself, or the Unicode code point of the symbol (guide
 * "Unicode"). U+2448 is the on-us symbol and U+2449 the dash, as the corrected aliases say: their
 * formal names are swapped by mistake [16].
 */
export const MICR_CHAR_TEXT: Readonly<Record<MicrChar, string>> = {
  '0': '0',
  '1': '1',
  '2': '2',
  '3': '3',
  '4': '4',
  '5': '5',
  '6': '6',
  '7': '7',
  '8': '8',
  '9': '9',
  transit: '\u2446',
  amount: '\u2447',
  onUs: '\u2448',
  dash: '\u2449',
};

/** One E-13B unit: 0.013 in [1][2], in PDF points. */
export const E13B_UNIT_PT = 0.013 * 72;

/** A filled rectangle in units; x grows rightwards from the glyph's left edge, y upwards from its bottom. */
export interface UnitRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface E13bGlyph {
  readonly char: MicrChar;
  /** Ink width in whole units (4–7 [2][4]). */
  readonly width: number;
  /** Ink height in whole units (9, 7 for on-us, 4 for dash [3][4]). */
  readonly height: number;
  /** Units between the MICR baseline and the glyph's bottom edge (0 except on-us and dash). */
  readonly raise: number;
  /** Disjoint rectangles whose union is the glyph. */
  readonly rects: readonly UnitRect[];
}

// '#' = one inked 0.013-in square, '.' = paper. Top row first. Every row has the glyph's width.
//
// Design notes (why the shapes look as they do; docs/e13b.md says which source fixed each shape):
// - Vertical strokes are often 2 units: waveform readers only see vertical edges [8 p.6-24] and
//   the bulges exist to shape the signal of each vertical slice [9]. Horizontal bars are 1 unit [6].
// - 1, 3 and 8 get heavy bottoms [10]: a 5-unit foot across the 1 (its right edge is the reference
//   peak, nominal 85 against the 0's full-height 130 [7]), a 2-unit bottom bar and wider
//   lower bowl on 3, a lower loop wider and heavier than the upper one on 8.
// - 1, 4 and the four symbols follow the shapes seen on real checks and read by an independent
//   E-13B reader (guide "Shapes seen on real checks"); the comments at each say what.
// - 0 gives + − + − with outer edges stronger than inner ones (130/110/110/130 [2]); 7 has at least
//   5 peaks (reference peak 5 [7]), so its top bar carries a left tick; 9 has at least 4 and 5 at
//   least 3. test/render/e13b-glyphs.test.ts recomputes these from the rectangles.
const BITMAPS: Readonly<Record<MicrChar, readonly string[]>> = {
  // 0: straight full-height sides, so the outer edges give the single strong first and last peaks
  // (130) and the counter's edges the inner ones (110) [2].
  '0': ['#######', '##...##', '##...##', '##...##', '##...##', '##...##', '##...##', '##...##', '#######'],
  // 1: a narrow stem at the LEFT, and a heavy block at the bottom that extends to the right across
  // the full width (guide "Shapes seen on real checks"; a stem on the right with the foot to the left
  // is a J and is read as 3). The block is 5 of 9 units high: its right edge is reference peak 1,
  // nominal 85 where the 0's full-height edge is 130 [7].
  '1': ['##..', '##..', '##..', '##..', '####', '####', '####', '####', '####'],
  '2': ['####', '...#', '...#', '...#', '####', '##..', '##..', '##..', '####'],
  '3': ['#####.', '...##.', '...##.', '...##.', '.#####', '...###', '...###', '######', '######'],
  // 4: the left stroke runs from the top down to the crossbar; the right-hand block stands only
  // below it, so the top right is open (a right stroke starting near the top closes the shape: a 9).
  '4': ['##....', '##....', '##....', '##....', '######', '...###', '...###', '...###', '...###'],
  '5': ['######', '##....', '##....', '##....', '#####.', '...###', '...###', '...###', '#####.'],
  '6': ['####..', '##....', '##....', '##....', '######', '##..##', '##..##', '##..##', '######'],
  '7': ['######', '#....#', '#....#', '..####', '..##..', '..##..', '..##..', '..##..', '..##..'],
  '8': ['.#####.', '.#...#.', '.#...#.', '.#...#.', '#######', '##...##', '##...##', '##...##', '#######'],
  '9': ['######', '##..##', '##..##', '##..##', '######', '....##', '....##', '...###', '...###'],
  // Transit: a bar at the left, shorter than the character (7 of 9 units), and two square blocks at
  // the right, one at the top and one at the bottom. The bar's rising edge is reference peak 3 [7].
  transit: ['....###', '##..###', '##..###', '##.....', '##.....', '##.....', '##..###', '##..###', '....###'],
  // Amount: three parts rising from bottom-left to top-right: a short block low at the left, a
  // full-height thin bar in the middle, a block high at the right. The blocks' rising edges are the
  // reference peaks 1 and 5 (nominal 70 [7]: about 4 of 9 units).
  amount: ['...#.##', '...#.##', '...#.##', '...#.##', '...#...', '##.#...', '##.#...', '##.#...', '##.#...'],
  // On-us: two thin bars of equal height at the left and in the middle, and a heavy square block at
  // the top right. The bars' rising edges are the reference peaks 3 and 5 [7].
  onUs: ['#.#.###', '#.#.###', '#.#.###', '#.#....', '#.#....', '#.#....', '#.#....'],
  // Dash: three separate parts, so that peaks 3 and 5 (the reference pair "3+5" [7], as for on-us)
  // are the rising edges of the two full-height (4-unit) bars; the right part is a small low block.
  dash: ['##.##..', '##.##..', '##.##.#', '##.##.#'],
};

/** Units between the baseline and the bottom of on-us and dash. Not published (guide "?"): we centre them. */
const RAISE: Readonly<Record<MicrChar, number>> = {
  '0': 0,
  '1': 0,
  '2': 0,
  '3': 0,
  '4': 0,
  '5': 0,
  '6': 0,
  '7': 0,
  '8': 0,
  '9': 0,
  transit: 0,
  amount: 0,
  onUs: 1,
  dash: 2,
};

/** Turns a bitmap into disjoint rectangles: runs per row, then identical runs in adjacent rows merged. */
function bitmapToRects(rows: readonly string[]): UnitRect[] {
  const height = rows.length;
  const open = new Map<string, { x: number; top: number; bottom: number; width: number }>();
  const done: UnitRect[] = [];
  rows.forEach((row, rowIndex) => {
    const y = height - 1 - rowIndex;
    const seen = new Set<string>();
    let x = 0;
    while (x < row.length) {
      if (row[x] !== '#') {
        x += 1;
        continue;
      }
      const start = x;
      while (x < row.length && row[x] === '#') x += 1;
      const key = `${start}:${x - start}`;
      seen.add(key);
      const run = open.get(key);
      if (run) run.bottom = y;
      else open.set(key, { x: start, top: y, bottom: y, width: x - start });
    }
    for (const [key, run] of open) {
      if (seen.has(key)) continue;
      done.push({ x: run.x, y: run.bottom, width: run.width, height: run.top - run.bottom + 1 });
      open.delete(key);
    }
  });
  for (const run of open.values()) {
    done.push({ x: run.x, y: run.bottom, width: run.width, height: run.top - run.bottom + 1 });
  }
  return done;
}

function buildGlyph(char: MicrChar): E13bGlyph {
  const rows = BITMAPS[char];
  const width = rows[0]?.length ?? 0;
  for (const row of rows) {
    if (row.length !== width) throw new Error(`E-13B bitmap for ${char} is not rectangular`);
  }
  const rects = bitmapToRects(rows).map((r) => Object.freeze(r));
  return Object.freeze({ char, width, height: rows.length, raise: RAISE[char], rects: Object.freeze(rects) });
}

/** The glyph table, built once. */
export const E13B_GLYPHS: Readonly<Record<MicrChar, E13bGlyph>> = Object.freeze({
  '0': buildGlyph('0'),
  '1': buildGlyph('1'),
  '2': buildGlyph('2'),
  '3': buildGlyph('3'),
  '4': buildGlyph('4'),
  '5': buildGlyph('5'),
  '6': buildGlyph('6'),
  '7': buildGlyph('7'),
  '8': buildGlyph('8'),
  '9': buildGlyph('9'),
  transit: buildGlyph('transit'),
  amount: buildGlyph('amount'),
  onUs: buildGlyph('onUs'),
  dash: buildGlyph('dash'),
});

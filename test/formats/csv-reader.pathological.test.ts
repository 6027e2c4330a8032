// The shapes that hurt CSV readers, timed on the pure readers themselves: doubling the
// input must at most ~2.5× the time (per doubling, from the smallest size to the largest). Each size is timed as the best of a few runs, and the sizes
// start where the work is tens of milliseconds, so the machine's noise does not decide the ratio
// (a warm-up run first; the best of five runs each).
// The old cleared-items tokenizer took 0.2 s, 7.4 s and 41 s for `a` and 100, 200 and 400 KB of
// quotes (a trim per quote): quadratic. The old import reader padded every row to the header's
// width: 1,000,000 columns ran the process out of memory.
import { describe, expect, it } from 'vitest';
import { readClearedItems } from '../../src/formats/cleared-items-file.ts';
import { readImportFile } from '../../src/formats/imports/read-import-file.ts';

/** Time per doubling of the input, on average over the sizes: at most this (linear is 2, quadratic 4). */
// Linear work doubles per doubling, quadratic quadruples: 3 sits between with room for a loaded
// machine (2.51 was seen once in CI on linear work).
const RATIO = 3;

/** The best of `runs` timings of `work`, in ms. */
function best(work: () => unknown, runs: number): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/**
 * Times `work(size)` at each size (each twice the one before): the time per doubling, from the
 * smallest size to the largest, must stay under RATIO (quadratic work would be 4 per doubling,
 * 16 over the 1 → 4 MB span; RATIO allows 9). One middle size timed lucky or unlucky on a
 * loaded machine does not decide it.
 */
function expectLinear(label: string, sizes: readonly number[], work: (size: number) => unknown, runs = 5): number[] {
  // One run at the largest size first: the compiler's warm-up is not the input's cost.
  work(sizes.at(-1) ?? 0);
  const times = sizes.map((size) => best(() => work(size), runs));
  console.log(
    `${label}: ${sizes.map((s, i) => `${Math.round(s / 1024)} KB ${(times[i] ?? 0).toFixed(1)} ms`).join(', ')}`,
  );
  const doublings = Math.log2((sizes.at(-1) ?? 1) / (sizes[0] ?? 1));
  const perDoubling = ((times.at(-1) ?? 0) / (times[0] ?? 1)) ** (1 / doublings);
  expect(perDoubling, `${label}: ×${perDoubling.toFixed(2)} the time per doubling`).toBeLessThan(RATIO);
  return times;
}

const TODAY = '2026-11-25';

/** Each timed file must be read, not refused: a refusal would time the wrong work. */
function accepted(result: ReturnType<typeof readImportFile>): void {
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
}

// Timed work on a loaded machine: far more time than the default allows.
describe('CSV readers on pathological input: refused at the first bound, or linear', { timeout: 180_000 }, () => {
  it('cleared items: `a` then N double quotes (100, 200, 400 KB, the 1 MB limit) is refused at line 1, in time that does not grow', () => {
    const sizes = [100 * 1024, 200 * 1024, 400 * 1024, 800 * 1024];
    for (const size of [...sizes, 1024 * 1024 - 1]) {
      expect(readClearedItems(`a${'"'.repeat(size)}`, TODAY, TODAY)).toEqual({
        ok: false,
        message: 'Line 1: a line is longer than 16,384 characters.',
      });
    }
    // Refused after one line's worth: each timing is many runs, so it is not noise alone.
    const texts = new Map(sizes.map((size) => [size, `a${'"'.repeat(size)}`]));
    expectLinear('cleared items, `a` + quotes (x20)', sizes, (size) => {
      for (let i = 0; i < 20; i++) readClearedItems(texts.get(size) ?? '', TODAY, TODAY);
    });
  });

  it('cleared items: quote storms inside quoted cells, row after row, are read whole in linear time', () => {
    // Near the cell bound (1,024), so that 4 MB stays under the row bound: the reader itself has no
    // byte bound (the route's body limit, 1 MB, is one), and from 1 MB up the timing is steady.
    const storm = `"${'""'.repeat(440)}"`;
    const text = (bytes: number): string => {
      const rows: string[] = ['Check Number,Amount,Description'];
      let length = rows[0]?.length ?? 0;
      for (let i = 0; length < bytes - 200; i++) {
        const row = `${1000 + i},1.00,${storm}`;
        rows.push(row);
        length += row.length + 1;
      }
      return rows.join('\n');
    };
    const texts = new Map([1, 2, 4].map((mb) => [mb * 1024 * 1024, text(mb * 1024 * 1024)]));
    const read = readClearedItems(texts.get(1024 * 1024) ?? '', TODAY, TODAY);
    expect(read.ok && read.file.items.length).toBeGreaterThan(1_000);
    expect(read.ok && read.file.items[0]).toEqual({
      line: 2,
      checkNumber: '1000',
      serial: '1000',
      amountCents: 100,
      clearedDate: TODAY,
    });
    expectLinear('cleared items, quoted quote storms', [...texts.keys()], (size) =>
      readClearedItems(texts.get(size) ?? '', TODAY, TODAY),
    );
  });

  it('imports: the widest rows allowed (200 columns) and quote storms in every name, up to the 4 MB limit, in linear time', () => {
    const header = ['Name', 'Company', 'City', ...Array.from({ length: 197 }, (_, i) => `Extra ${i}`)].join(',');
    const wide = (bytes: number): string => {
      const row = Array.from({ length: 200 }, (_, i) => (i === 0 ? 'Acme' : 'vv')).join(',');
      return `${header}\n${`${row}\n`.repeat(Math.floor((bytes - header.length) / (row.length + 1)))}`;
    };
    const stormy = (bytes: number): string => {
      // Long rows, so that 4 MB stays under the row bound; the Notes column is not imported.
      const row = `"Acme ${'""'.repeat(100)}",Acme Co,Springfield,"${'""'.repeat(200)}"`;
      return `Name,Company,City,Notes\n${`${row}\n`.repeat(Math.floor(bytes / (row.length + 1)))}`;
    };
    const sizes = [1, 2, 4].map((mb) => mb * 1024 * 1024 - 1024);
    const wideTexts = new Map(sizes.map((size) => [size, wide(size)]));
    const stormTexts = new Map(sizes.map((size) => [size, stormy(size)]));
    const widest = readImportFile(wideTexts.get(sizes[0] ?? 0) ?? '', { kind: 'payees' });
    expect(widest.ok && widest.file.header).toHaveLength(200);
    expect(widest.ok && widest.file.payees[0]).toEqual({ name: 'Acme', company: 'vv', city: 'vv' });
    const storm = readImportFile(stormTexts.get(sizes[0] ?? 0) ?? '', { kind: 'payees' });
    expect(storm.ok && storm.file.payees[0]?.name).toBe(`Acme ${'"'.repeat(100)}`);
    // The name is longer than a payee's 100 characters: the schema says so, row by row.
    expect(storm.ok && storm.file.schemaErrors[0]).toEqual(['The name field must not be greater than 100 characters.']);
    expectLinear(
      'imports, 200 columns a row',
      sizes,
      (size) => accepted(readImportFile(wideTexts.get(size) ?? '', { kind: 'payees' })),
      2,
    );
    expectLinear(
      'imports, quote storms',
      sizes,
      (size) => accepted(readImportFile(stormTexts.get(size) ?? '', { kind: 'payees' })),
      2,
    );
  });

  it('imports: a 1,000,000-column header, 40,000 columns × 2,500 rows, a lying quote, NULs: refused as data naming the line (and column)', () => {
    const header = `${','.repeat(999_999)}\n${`${'a'.repeat(99)}\n`.repeat(10_000)}`;
    expect(readImportFile(header, { kind: 'payees' })).toEqual({
      ok: false,
      refusal: {
        code: 'validation',
        message:
          'The csv field is not a valid CSV file. Line 1, column 201: the line has 1,000,000 columns; at most 200 are taken.',
      },
    });
    const forty = `${','.repeat(39_999)}\n${'x\n'.repeat(2_500)}`;
    expect(readImportFile(forty, { kind: 'payees' })).toMatchObject({
      ok: false,
      refusal: { message: expect.stringContaining('Line 1, column 201: the line has 40,000 columns') },
    });
    // A row wider than the header names the line, after a quoted line break.
    expect(readImportFile('Name,City\n"A\nB",x\nC,y,z\n', { kind: 'payees' })).toMatchObject({
      ok: false,
      refusal: {
        message: 'The csv field is not a valid CSV file. Line 4: the row has 3 fields but the header names 2.',
      },
    });
    expect(readImportFile(`Name\nAcme\n"${'x'.repeat(100_000)}`, { kind: 'payees' })).toMatchObject({
      ok: false,
      refusal: { message: 'The csv field is not a valid CSV file. Line 3: a line is longer than 65,536 characters.' },
    });
    expect(readImportFile('Name\nAcme\n"Glob"ex\n', { kind: 'payees' })).toMatchObject({
      ok: false,
      refusal: {
        message:
          'The csv field is not a valid CSV file. Line 3: a quoted field must end at a comma or the end of the line.',
      },
    });
    expect(readImportFile('Na\u0000me\nAcme\n', { kind: 'payees' })).toMatchObject({
      ok: false,
      refusal: { message: 'The csv field is not a valid CSV file. Line 1: a column name holds a control character.' },
    });
    // A NUL in a cell is that row's error; the other rows are read.
    const nul = readImportFile('Name\nAc\u0000me\nGlobex\n', { kind: 'payees' });
    expect(nul.ok && nul.file.cellErrors).toEqual([['The name field must not contain NUL characters.'], []]);
    // What crosses to a worker thread and back: structured cloning keeps it whole.
    expect(structuredClone(nul)).toEqual(nul);
  });
});

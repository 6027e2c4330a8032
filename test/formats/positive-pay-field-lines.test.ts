// The one-line field syntax of custom positive pay layouts: each entry read to its field, every
// unreadable entry named by its place, and a stored layout's fields written back the same way.
import { describe, expect, it } from 'vitest';
import { fieldLines, parseFieldLines } from '../../src/formats/positive-pay-layouts/field-lines.ts';

describe('positive pay field lines', () => {
  it('reads sources, formats, widths, alignment and pad; skips notes and empty entries', () => {
    const parsed = parseFieldLines(
      '# spec p. 2; code 1; accountNumber 12 left space;; amount:cents 10; literal:"A B" 3 right; issueDate:MMDDYY 6',
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.lines).toEqual([2, 3, 5, 6, 7]);
    expect(parsed.fields).toEqual([
      { source: { kind: 'code' }, width: 1 },
      { source: { kind: 'accountNumber' }, width: 12, align: 'left', pad: ' ' },
      { source: { kind: 'amount', format: 'cents' }, width: 10 },
      { source: { kind: 'literal', text: 'A B' }, width: 3, align: 'right' },
      { source: { kind: 'issueDate', format: 'MMDDYY' }, width: 6 },
    ]);
    expect(fieldLines(parsed.fields)).toBe(
      'code 1; accountNumber 12 left space; amount:cents 10; literal:"A B" 3 right; issueDate:MMDDYY 6',
    );
  });

  it('names each unreadable entry by its place', () => {
    const parsed = parseFieldLines('amount 10; issueDate:DDMMYY 6; bogus; payee wide; checkNumber 8');
    expect(parsed.fields).toEqual([{ source: { kind: 'checkNumber' }, width: 8 }]);
    expect(parsed.problems.map((p) => p.line)).toEqual([1, 2, 3, 4]);
    expect(parsed.problems[0]?.message).toBe('amount needs a format: amount:cents or amount:decimal');
    expect(parsed.problems[3]?.message).toBe('"wide" is not a width, left/right or zero/space');
  });
});

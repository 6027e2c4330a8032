// A cell or a column name from an office's file is quoted in the panel's messages exactly as the
// file holds it: `$1`, `$&`, `$'` and `$2` in it are text, never String.replace's patterns.
import { describe, expect, it } from 'vitest';
import { inFileWords } from '../../src/panel/shell/wording.ts';

const CELLS = ['-$2,450.00', '($1,275.00)', '$&', "$'", '$`', '$$5'];

describe('messages quoting a cell of the file', () => {
  it.each(CELLS)('a refused cell %s is quoted as it stands', (cell) => {
    const words = inFileWords('The amount field must be greater than 0.', 'amount', 'Amount', cell, 'Amount');
    expect(words).toContain(`"${cell}"`);
  });

  it.each(CELLS)('a cell %s the message already quotes stays as it stands', (cell) => {
    const words = inFileWords(`The amount field "${cell}" is ambiguous.`, 'amount', 'Amount', cell, 'Amount');
    expect(words).toContain(`"${cell}"`);
  });

  it.each(CELLS)('a name %s the file gives is quoted as it stands', (cell) => {
    const words = inFileWords(`The payee "${cell}" is not one of your payees.`, 'payee', 'Payee', cell, 'Payee');
    expect(words).toContain(`"${cell}"`);
  });

  it.each(CELLS)('a column named %s is named as it stands', (column) => {
    const words = inFileWords('The amount field must be greater than 0.', 'amount', column, '0', 'Amount');
    expect(words).toContain(`Column “${column}”`);
  });
});

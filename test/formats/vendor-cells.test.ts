// A vendor list's one-cell addresses and phone cells, as QuickBooks Online's Vendor Contact List
// writes them (test/fixtures/imports/README.md): the expected fields are written out by hand.
import { describe, expect, it } from 'vitest';
import { firstPhone, splitAddress } from '../../src/formats/imports/vendor-cells.ts';

describe('splitAddress', () => {
  it('splits the forms a vendor list writes', () => {
    expect(splitAddress('1 Mill Rd Springfield IL 62701')).toEqual({
      address1: '1 Mill Rd',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    expect(splitAddress('400 Pine Street\nSuite 2\nHelena, MT 59601-1234')).toEqual({
      address1: '400 Pine Street',
      address2: 'Suite 2',
      city: 'Helena',
      state: 'MT',
      zip: '59601-1234',
    });
    expect(splitAddress('PO Box 12, Billings MT 59101')).toEqual({
      address1: 'PO Box 12',
      address2: '',
      city: 'Billings',
      state: 'MT',
      zip: '59101',
    });
    expect(splitAddress('Somewhere without a ZIP')).toEqual({ address1: 'Somewhere without a ZIP' });
    expect(splitAddress('')).toEqual({});
  });

  it('reads a long cell by its end: separators before the state are not part of the city', () => {
    const long = `${'Building 7, '.repeat(300)}Helena MT 59601`;
    const split = splitAddress(long);
    expect(split.state).toBe('MT');
    expect(split.zip).toBe('59601');
    expect(split.city).toBe('Helena');
    // A cell of nothing but separators is kept whole, as any cell without a state and ZIP is.
    expect(splitAddress(`${', '.repeat(2000)}X`)).toEqual({ address1: ', '.repeat(50) });
  });
});

describe('firstPhone', () => {
  it('takes the first number of a "Phone:… Mobile:…" cell', () => {
    expect(firstPhone('Phone:(406) 555-0142 Mobile:(406) 555-0199')).toBe('(406) 555-0142');
    expect(firstPhone('no number here')).toBe('');
  });
});

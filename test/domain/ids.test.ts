// newId: time-sortable ids; those made in one millisecond keep their creation order (a 500-check
// batch makes a thousand with the same time part, counted up from one random number).
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.ts';

describe('newId', () => {
  it('orders ids made in one millisecond, and those of a later millisecond after them', () => {
    const now = Date.now() + 60_000;
    const same = Array.from({ length: 1000 }, () => newId('chk', now));
    expect(new Set(same).size).toBe(1000);
    expect([...same].sort()).toEqual(same);
    const time = (id: string) => id.slice(4, 14);
    expect(new Set(same.map(time))).toEqual(new Set([time(same[0] as string)]));
    const later = newId('chk', now + 1);
    expect(later > (same.at(-1) as string)).toBe(true);
    expect(time(later)).not.toBe(time(same[0] as string));
    expect(later).toMatch(/^chk_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

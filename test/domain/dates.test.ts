import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isCalendarDate, localMoment } from '../../src/domain/dates.ts';

describe('dates', () => {
  it('knows real calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('26-01-01')).toBe(false);
  });

  it('formats statement times as hh:mm am|pm, with the UTC fast path equal to Intl', () => {
    expect(localMoment(Date.UTC(2026, 10, 21, 0, 5), 'UTC')).toEqual({ date: '2026-11-21', time: '12:05 am' });
    expect(localMoment(Date.UTC(2026, 10, 21, 12, 0), 'UTC')).toEqual({ date: '2026-11-21', time: '12:00 pm' });
    expect(localMoment(Date.UTC(2026, 10, 21, 13, 7), 'America/New_York')).toEqual({
      date: '2026-11-21',
      time: '08:07 am',
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(localMoment(ms, 'UTC')).toEqual(localMoment(ms, 'Etc/UTC'));
      }),
      { numRuns: 2000 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addYears, clearedDateProblem, isCalendarDate, issueDateProblem, localMoment } from '../../src/domain/dates.ts';

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

  it('dates a user sends: issue dates from 2000 to a year ahead, cleared dates from 2000 to today', () => {
    expect(addYears('2026-11-26', 1)).toBe('2027-11-26');
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(issueDateProblem('2000-01-01', '2026-11-26')).toBeNull();
    expect(issueDateProblem('2027-11-26', '2026-11-26')).toBeNull();
    expect(issueDateProblem('1999-12-31', '2026-11-26')).toBe('must not be before 2000-01-01');
    expect(issueDateProblem('2027-11-27', '2026-11-26')).toBe('must not be after 2027-11-26');
    expect(issueDateProblem('9999-12-31', '2026-11-26')).toBe('must not be after 2027-11-26');
    expect(issueDateProblem('2026-02-30', '2026-11-26')).toBe('must be a valid date (YYYY-MM-DD)');
    expect(clearedDateProblem('2026-11-26', '2026-11-26')).toBeNull();
    expect(clearedDateProblem('2026-11-27', '2026-11-26')).toBe('must not be after today (2026-11-26)');
    expect(clearedDateProblem('1900-01-01', '2026-11-26')).toBe('must not be before 2000-01-01');
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addYears,
  clearedDateProblem,
  dateProblem,
  isCalendarDate,
  issueDateProblem,
  localMoment,
  readWrittenDate,
} from '../../src/domain/dates.ts';

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
    expect(issueDateProblem('2026-02-30', '2026-11-26')).toBe('must be a valid date: February 2026 has 28 days');
    expect(clearedDateProblem('2026-11-26', '2026-11-26')).toBeNull();
    expect(clearedDateProblem('2026-11-27', '2026-11-26')).toBe('must not be after today (2026-11-26)');
    expect(clearedDateProblem('1900-01-01', '2026-11-26')).toBe('must not be before 2000-01-01');
  });

  it('explains a date that is no day, quoting it as written, in the order chosen', () => {
    expect(dateProblem('2026-02-30', 'ymd')).toBe('"2026-02-30" is not a date: February 2026 has 28 days');
    expect(dateProblem('02/30/2026', 'mdy')).toBe('"02/30/2026" is not a date: February 2026 has 28 days');
    expect(dateProblem('30/02/2026', 'dmy')).toBe('"30/02/2026" is not a date: February 2026 has 28 days');
    expect(dateProblem('2/29/2028', 'mdy')).toBeNull();
    expect(dateProblem('04/31/2026', 'mdy')).toBe('"04/31/2026" is not a date: April 2026 has 30 days');
    expect(dateProblem('13/01/2026', 'mdy')).toBe(
      '"13/01/2026" is not a date: there is no month 13; if the day comes first, choose day/month/year',
    );
    expect(dateProblem('02/30/2026', 'dmy')).toBe(
      '"02/30/2026" is not a date: there is no month 30; if the month comes first, choose month/day/year',
    );
    expect(dateProblem('2026-00-10', 'ymd')).toBe('"2026-00-10" is not a date: there is no month 0');
    expect(dateProblem('2026-01-00', 'ymd')).toBe('"2026-01-00" is not a date: there is no day 0');
    expect(dateProblem('1899-12-31', 'ymd')).toBe('"1899-12-31" is not a date: the year 1899 is before 1900');
    expect(dateProblem('next friday', 'ymd')).toBe('"next friday" is not a date: write it as YYYY-MM-DD');
    expect(dateProblem('11/02/2026', 'ymd')).toBe('"11/02/2026" is not a date: write it as YYYY-MM-DD');
    expect(dateProblem('11-2026-02', 'dmy')).toBe('"11-2026-02" is not a date: write it as DD/MM/YYYY');
    expect(readWrittenDate('3/4/2026', 'mdy')).toEqual({ date: '2026-03-04' });
    expect(readWrittenDate('3.4.2026', 'dmy')).toEqual({ date: '2026-04-03' });
    expect(readWrittenDate('2026-11-02', 'dmy')).toEqual({ date: '2026-11-02' });
  });

  it('knows the length of every month by the Gregorian rule, not by our own calendar code', () => {
    // "Thirty days hath September, April, June and November"; February 29 in years divisible by 4,
    // except centuries not divisible by 400 (1900 and 2100 are not leap years, 2000 is).
    const leap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    const length = (y: number, m: number): number =>
      m === 2 ? (leap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
    expect([1900, 2000, 2024, 2100].map(leap)).toEqual([false, true, true, false]);
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2400 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const us = `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`;
          const problem = dateProblem(us, 'mdy');
          if (d <= length(y, m)) expect(problem).toBeNull();
          else expect(problem).toContain(`has ${length(y, m)} days`);
          expect(isCalendarDate(`${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`)).toBe(
            problem === null,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });
});

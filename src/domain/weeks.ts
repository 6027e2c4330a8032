// Weeks of calendar dates (YYYY-MM-DD), for the home page's "last 12 weeks". A week runs Monday to
// Sunday (ISO 8601): an office's working week and its weekend stay together. The dates are the
// account's own calendar days (a check's date, a cleared date, today in the account's time zone),
// so no clock or zone is involved here.

const DAY_MS = 86_400_000;

function epochDay(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

function fromEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `date` moved by `days` (negative: back). */
export function addDays(date: string, days: number): string {
  return fromEpochDay(epochDay(date) + days);
}

/** The Monday of the week holding `date`. */
export function mondayOf(date: string): string {
  // Day 0 of the epoch (1970-01-01) was a Thursday: Monday is 3 days before it.
  const day = epochDay(date);
  return fromEpochDay(day - ((((day + 3) % 7) + 7) % 7));
}

export interface Week {
  /** Monday, the first day. */
  start: string;
  /** Sunday, the last day (included). */
  end: string;
}

/** The `count` weeks up to and including the week of `today`, oldest first. */
export function weeksUpTo(today: string, count: number): Week[] {
  const last = mondayOf(today);
  return Array.from({ length: count }, (_, i) => {
    const start = addDays(last, (i - count + 1) * 7);
    return { start, end: addDays(start, 6) };
  });
}

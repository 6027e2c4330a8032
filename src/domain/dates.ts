// Calendar dates (YYYY-MM-DD, as the spec writes them) and the statement clock
// ("hh:mm am|pm", 12-hour, lowercase, in the account's time zone: API decisions, "Checks").

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one.
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export interface LocalMoment {
  date: string;
  time: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The date and 12-hour time of an instant in a time zone: `{ date: "2026-11-21", time: "09:05 am" }`. */
export function localMoment(epochMs: number, timeZone: string): LocalMoment {
  if (timeZone === 'UTC') {
    // The default zone needs no Intl formatter (several times cheaper, and on every check read).
    const d = new Date(epochMs);
    const hours = d.getUTCHours();
    return {
      date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
      time: `${pad(hours % 12 === 0 ? 12 : hours % 12)}:${pad(d.getUTCMinutes())} ${hours < 12 ? 'am' : 'pm'}`,
    };
  }
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(epochMs)) parts[part.type] = part.value;
  const hour = parts.hour === '00' ? '12' : (parts.hour ?? '12');
  const dayPeriod = (parts.dayPeriod ?? 'AM').toLowerCase();
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${hour.padStart(2, '0')}:${parts.minute} ${dayPeriod}`,
  };
}

/** Today's date in a time zone, the default issue date of a check. */
export function today(timeZone: string, now: number = Date.now()): string {
  return localMoment(now, timeZone).date;
}

// ---- Dates a user sends: the sane range (docs/api-notes.md, "Dates") ----
//
// Every date a client, a panel form or an uploaded file gives is first a real calendar day, then
// a day that makes sense for what it dates. Nothing this service records is older than the year
// 2000 (the floor is far below any real account's history and keeps out "1900-01-01" and other
// placeholder dates), and a check may be post-dated by at most a year (banks treat a check older
// than six months as stale, and no business writes one due more than a year ahead: "9999-12-31"
// is a typing accident, not a payment).

/** The earliest date any field takes. */
export const EARLIEST_DATE = '2000-01-01';

/** How far ahead a check may be dated, in years. */
export const MAX_YEARS_AHEAD = 1;

/**
 * `date` moved by whole years; the 29th of February becomes the 28th in a common year. The
 * argument is a calendar date already checked.
 */
export function addYears(date: string, years: number): string {
  const year = Number(date.slice(0, 4)) + years;
  const month = Number(date.slice(5, 7));
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(Number(date.slice(8, 10)), last);
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

/** The latest date a check may carry: a year after today. */
export function latestIssueDate(today: string): string {
  return addYears(today, MAX_YEARS_AHEAD);
}

/**
 * What is wrong with a date a user sent, as the end of "The {field} field ..." (the API's and the
 * panel's validation sentence), or null when it is a real day from `earliest` to `latest`.
 * `latestName` names the upper bound in the message ("today") when it has one.
 */
export function dateProblem(
  value: string,
  bounds: { earliest: string; latest: string; latestName?: string },
): string | null {
  if (!isCalendarDate(value)) return 'must be a valid date (YYYY-MM-DD)';
  if (value < bounds.earliest) return `must not be before ${bounds.earliest}`;
  if (value > bounds.latest)
    return bounds.latestName === undefined
      ? `must not be after ${bounds.latest}`
      : `must not be after ${bounds.latestName} (${bounds.latest})`;
  return null;
}

/** A check's issue date (and a voucher's date, a positive pay range): from 2000 to a year after today. */
export function issueDateProblem(value: string, today: string): string | null {
  return dateProblem(value, { earliest: EARLIEST_DATE, latest: latestIssueDate(today) });
}

/** A cleared date: the bank paid the check on a day that has happened (and after 2000). */
export function clearedDateProblem(value: string, today: string): string | null {
  return dateProblem(value, { earliest: EARLIEST_DATE, latest: today, latestName: 'today' });
}

/** A cleared date against the check it clears: the bank cannot pay a check before its date. */
export function clearedBeforeIssue(clearedDate: string, issueDate: string): boolean {
  return clearedDate < issueDate;
}

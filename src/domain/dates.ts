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

/** How a person writes a date: year-month-day (the spec's), month/day/year (US) or day/month/year. */
export type WrittenOrder = 'ymd' | 'mdy' | 'dmy';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const SHAPES: Readonly<Record<WrittenOrder, string>> = { ymd: 'YYYY-MM-DD', mdy: 'MM/DD/YYYY', dmy: 'DD/MM/YYYY' };

/** Days in a month of a year (month 1-12), leap years counted. */
export function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export type WrittenDate = { date: string } | { problem: string };

/**
 * A date as a person wrote it, read in the order they chose, as YYYY-MM-DD; or why it is no day of
 * the calendar, in words that quote what they wrote: `"02/30/2026" is not a date: February 2026 has
 * 28 days`. Slashed orders also take dots or dashes between the parts, and the ISO form.
 */
export function readWrittenDate(text: string, order: WrittenOrder): WrittenDate {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const slashed = order === 'ymd' ? null : /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  const quoted = `"${t.length > 40 ? `${t.slice(0, 40)}…` : t}"`;
  let year: number;
  let month: number;
  let day: number;
  if (iso !== null) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (slashed !== null) {
    const [first, second] = [Number(slashed[1]), Number(slashed[2])];
    year = Number(slashed[3]);
    [month, day] = order === 'mdy' ? [first, second] : [second, first];
  } else return { problem: `${quoted} is not a date: write it as ${SHAPES[order]}` };
  const not = `${quoted} is not a date`;
  if (month < 1 || month > 12) {
    // 13/01/2026 in a month-first file is most likely a day-first date.
    const swapped = slashed !== null && day >= 1 && day <= 12 && month <= 31;
    const hint = !swapped
      ? ''
      : order === 'mdy'
        ? '; if the day comes first, choose day/month/year'
        : '; if the month comes first, choose month/day/year';
    return { problem: `${not}: there is no month ${month}${hint}` };
  }
  const reason = dayReason(year, month, day);
  if (reason !== null) return { problem: `${not}: ${reason}` };
  return { date: `${year}-${pad(month)}-${pad(day)}` };
}

/**
 * Why a year, month and day name no day of the calendar — "there is no month 13", "there is no day
 * 0", "February 2026 has 28 days", "the year 1 is before 1900" — or null when they name one.
 */
export function dayReason(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12) return `there is no month ${month}`;
  if (day < 1) return 'there is no day 0';
  const days = daysInMonth(year, month);
  if (day > days) return `${MONTHS[month - 1] ?? String(month)} ${year} has ${days} days`;
  if (year < 1900) return `the year ${year} is before 1900`;
  return null;
}

/**
 * What is wrong with a date in one of the forms a file or a client writes (YYYY-MM-DD, or
 * MM/DD/YYYY), as the end of "The {field} field ...": the day that does not exist explained as the
 * check form explains it ("must be a valid date: February 2026 has 28 days"), anything else the
 * format. Null when it is a day of the calendar.
 */
export function calendarProblem(value: string): string | null {
  if (isCalendarDate(value)) return null;
  const t = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const [year, month, day] =
    iso !== null
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : us !== null
        ? [Number(us[3]), Number(us[1]), Number(us[2])]
        : [Number.NaN, Number.NaN, Number.NaN];
  const reason = Number.isNaN(year) ? null : dayReason(year, month, day);
  return reason === null ? 'must be a valid date (YYYY-MM-DD)' : `must be a valid date: ${reason}`;
}

/** Why a written date is not a date (see readWrittenDate), or null when it is one. */
export function dateProblem(text: string, order: WrittenOrder): string | null {
  const read = readWrittenDate(text, order);
  return 'problem' in read ? read.problem : null;
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
export function dateRangeProblem(
  value: string,
  bounds: { earliest: string; latest: string; latestName?: string },
): string | null {
  const problem = calendarProblem(value);
  if (problem !== null) return problem;
  if (value < bounds.earliest) return `must not be before ${bounds.earliest}`;
  if (value > bounds.latest)
    return bounds.latestName === undefined
      ? `must not be after ${bounds.latest}`
      : `must not be after ${bounds.latestName} (${bounds.latest})`;
  return null;
}

/** A check's issue date (and a voucher's date, a positive pay range): from 2000 to a year after today. */
export function issueDateProblem(value: string, today: string): string | null {
  return dateRangeProblem(value, { earliest: EARLIEST_DATE, latest: latestIssueDate(today) });
}

/** A cleared date: the bank paid the check on a day that has happened (and after 2000). */
export function clearedDateProblem(value: string, today: string): string | null {
  return dateRangeProblem(value, { earliest: EARLIEST_DATE, latest: today, latestName: 'today' });
}

/** A cleared date against the check it clears: the bank cannot pay a check before its date. */
export function clearedBeforeIssue(clearedDate: string, issueDate: string): boolean {
  return clearedDate < issueDate;
}

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

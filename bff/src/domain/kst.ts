/**
 * Korean time (UTC+9, no daylight saving) for the back office's reports and exports (issue 41):
 * every day boundary, week and month is a KST one, whatever the server's zone.
 */
const offsetMs = 9 * 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;
const pad = (n: number) => String(n).padStart(2, '0');
const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `yyyy-mm-dd hh:mm:ss` in KST; '' for null or something that is not a time. */
export function kstDateTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const k = new Date(date.getTime() + offsetMs);
  return `${k.getUTCFullYear()}-${pad(k.getUTCMonth() + 1)}-${pad(k.getUTCDate())} ${pad(k.getUTCHours())}:${pad(k.getUTCMinutes())}:${pad(k.getUTCSeconds())}`;
}

/** The KST day (`yyyy-mm-dd`) an instant falls on. */
export function kstDay(date: Date): string {
  return kstDateTime(date).slice(0, 10);
}

/** Midnight KST starting `day` (`yyyy-mm-dd`), or null when it is not a real date. */
export function kstMidnight(day: string): Date | null {
  const m = dayPattern.exec(day);
  if (!m) return null;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const back = new Date(utc);
  if (back.getUTCFullYear() !== Number(m[1]) || back.getUTCMonth() !== Number(m[2]) - 1 || back.getUTCDate() !== Number(m[3])) return null;
  return new Date(utc - offsetMs);
}

/**
 * The instants of the KST days `from`..`to`, both included: [midnight of `from`, midnight after
 * `to`). Either may be absent (open); null when one is not a date or the range runs backwards.
 */
export function kstDayRange(from: string | undefined, to: string | undefined): { from: Date | null; to: Date | null } | null {
  const start = from === undefined ? null : kstMidnight(from);
  const endDay = to === undefined ? null : kstMidnight(to);
  if ((from !== undefined && start === null) || (to !== undefined && endDay === null)) return null;
  const end = endDay === null ? null : new Date(endDay.getTime() + dayMs);
  if (start !== null && end !== null && end.getTime() <= start.getTime()) return null;
  return { from: start, to: end };
}

/** The Monday (`yyyy-mm-dd`) of the KST week holding `day`. */
export function kstWeekOf(day: string): string {
  const midnight = kstMidnight(day);
  if (midnight === null) return day;
  const utcDay = new Date(midnight.getTime() + offsetMs); // the date's own calendar fields in UTC
  const sinceMonday = (utcDay.getUTCDay() + 6) % 7;
  return kstDay(new Date(midnight.getTime() - sinceMonday * dayMs));
}

/** `yyyy-mm` of a `yyyy-mm-dd` day. */
export const kstMonthOf = (day: string): string => day.slice(0, 7);

/** Every KST day from `from` to `to` (both `yyyy-mm-dd`), for charts that show empty days too; at most `limit`. */
export function kstDays(from: string, to: string, limit = 400): string[] {
  const start = kstMidnight(from);
  const end = kstMidnight(to);
  if (start === null || end === null) return [];
  const days: string[] = [];
  for (let t = start.getTime(); t <= end.getTime() && days.length < limit; t += dayMs) days.push(kstDay(new Date(t)));
  return days;
}

// Date expression operators as the MongoDB manual defines them: the date parts ($year … $millisecond,
// $dayOfWeek 1–7 from Sunday, $week 0–53 with weeks starting on Sunday and week 1 at the year's
// first Sunday, ISO 8601 $isoWeek/$isoWeekYear/$isoDayOfWeek), $dateToString with every format
// specifier and $dateToParts, each with the optional timezone (an Olson identifier or a UTC offset
// "+hh:mm", "+hhmm", "+hh"). mingo's versions were wrong ($week, %U, %w, %G at year boundaries).
import { ObjectId, Timestamp } from 'bson';
import { MongoError } from '../errors.ts';
import { isPlainObject } from '../values.ts';
import type { Doc } from '../values.ts';

type Evaluate = (expr: unknown, doc: Doc) => unknown;

const PART_OPERATORS = [
  '$year', '$month', '$dayOfMonth', '$dayOfWeek', '$dayOfYear', '$hour', '$minute', '$second', '$millisecond',
  '$week', '$isoWeek', '$isoWeekYear', '$isoDayOfWeek',
] as const;

export const DATE_OPERATORS = new Set<string>([...PART_OPERATORS, '$dateToString', '$dateToParts']);

/** The wall-clock fields of an instant in a timezone. dow: 0 = Sunday; yday: 1 = 1 January. */
export interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  dow: number;
  yday: number;
  offsetMinutes: number;
}

const isNullish = (v: unknown): boolean => v === null || v === undefined;

export function bsonTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  const name = (v as { _bsontype?: string })?._bsontype;
  return name ? name.toLowerCase() : 'object';
}

/** Milliseconds since the epoch of a Date, an ObjectId (its creation second) or a Timestamp. */
export function toMillis(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (v instanceof ObjectId) return v.getTimestamp().getTime();
  if (v instanceof Timestamp) return v.high * 1000;
  throw new MongoError(16006, `can't convert from BSON type ${bsonTypeName(v)} to Date`);
}

const OFFSET = /^([+-])(\d{2})(?::?(\d{2}))?$/;
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const zoneOffsets = new Map<string, number>();

function zoneFormat(tz: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      throw new MongoError(40485, `unrecognized time zone identifier: "${tz}"`);
    }
    zoneFormats.set(tz, f);
  }
  return f;
}

/** The zone's offset from UTC in minutes at the instant `ms`. */
export function offsetMinutes(tz: unknown, ms: number): number {
  if (typeof tz !== 'string') throw new MongoError(40517, `timezone must evaluate to a string, found ${bsonTypeName(tz)}`);
  const m = OFFSET.exec(tz);
  if (m) {
    const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
    return m[1] === '-' ? -minutes : minutes;
  }
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) throw new MongoError(40485, `unrecognized time zone identifier: "${tz}"`);
  // Offsets change on whole minutes; one document's operators ask for the same minute many times.
  const key = `${tz}|${Math.floor(ms / 60_000)}`;
  const known = zoneOffsets.get(key);
  if (known !== undefined) return known;
  if (zoneOffsets.size > 4096) zoneOffsets.clear();
  const parts: Record<string, number> = {};
  const whole = Math.floor(ms / 60_000) * 60_000;
  for (const p of zoneFormat(tz).formatToParts(new Date(whole))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const local = Date.UTC(parts['year']!, parts['month']! - 1, parts['day']!, parts['hour']!, parts['minute']!, parts['second']!);
  const offset = Math.round((local - whole) / 60_000);
  zoneOffsets.set(key, offset);
  return offset;
}

export function partsOf(ms: number, offset: number): Parts {
  const d = new Date(ms + offset * 60_000);
  const year = d.getUTCFullYear();
  const yday = Math.floor((Date.UTC(year, d.getUTCMonth(), d.getUTCDate()) - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  return {
    year, month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(), millisecond: d.getUTCMilliseconds(), dow: d.getUTCDay(), yday, offsetMinutes: offset,
  };
}

/** $week and %U: days before the year's first Sunday are week 0. */
export function sundayWeek(p: Parts): number {
  return Math.floor((p.yday - 1 + 7 - p.dow) / 7);
}

function isoWeeksIn(year: number): number {
  const jan1 = new Date(Date.UTC(year, 0, 1)).getUTCDay();
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return jan1 === 4 || (leap && jan1 === 3) ? 53 : 52;
}

/** ISO 8601 week-numbering year and week: weeks start on Monday, week 1 holds the first Thursday. */
export function isoWeek(p: Parts): { year: number; week: number } {
  const week = Math.floor((p.yday - (p.dow || 7) + 10) / 7);
  if (week < 1) return { year: p.year - 1, week: isoWeeksIn(p.year - 1) };
  if (week > isoWeeksIn(p.year)) return { year: p.year + 1, week: 1 };
  return { year: p.year, week };
}

function part(op: string, p: Parts): number {
  switch (op) {
    case '$year': return p.year;
    case '$month': return p.month;
    case '$dayOfMonth': return p.day;
    case '$dayOfWeek': return p.dow + 1;
    case '$dayOfYear': return p.yday;
    case '$hour': return p.hour;
    case '$minute': return p.minute;
    case '$second': return p.second;
    case '$millisecond': return p.millisecond;
    case '$week': return sundayWeek(p);
    case '$isoWeek': return isoWeek(p).week;
    case '$isoWeekYear': return isoWeek(p).year;
    default: return p.dow || 7; // $isoDayOfWeek
  }
}

const pad = (n: number, width: number): string => String(Math.abs(n)).padStart(width, '0');
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** One format specifier's text; `undefined` for a character that is not a specifier. */
function specifier(c: string, p: Parts): string | undefined {
  switch (c) {
    case 'b': return MONTHS[p.month - 1]!.slice(0, 3);
    case 'B': return MONTHS[p.month - 1];
    case 'd': return pad(p.day, 2);
    case 'G': return pad(isoWeek(p).year, 4);
    case 'H': return pad(p.hour, 2);
    case 'j': return pad(p.yday, 3);
    case 'L': return pad(p.millisecond, 3);
    case 'm': return pad(p.month, 2);
    case 'M': return pad(p.minute, 2);
    case 'S': return pad(p.second, 2);
    case 'u': return String(p.dow || 7);
    case 'U': return pad(sundayWeek(p), 2);
    case 'V': return pad(isoWeek(p).week, 2);
    case 'w': return String(p.dow + 1);
    case 'Y': return pad(p.year, 4);
    case 'z': return (p.offsetMinutes < 0 ? '-' : '+') + pad(Math.trunc(p.offsetMinutes / 60), 2) + pad(p.offsetMinutes % 60, 2);
    case 'Z': return (p.offsetMinutes < 0 ? '-' : '+') + pad(p.offsetMinutes, 3);
    case '%': return '%';
    default: return undefined;
  }
}

export function formatDate(format: string, p: Parts): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    if (i + 1 >= format.length) throw new MongoError(18535, "Unmatched '%' at end of format string");
    const text = specifier(format[++i]!, p);
    if (text === undefined) throw new MongoError(18536, `Invalid format character '%${format[i]}' in format string`);
    out += text;
  }
  return out;
}

/** The operator's `{date, timezone, ...}` document form, told from a date expression that is an object. */
function documentForm(spec: unknown): Doc | undefined {
  return isPlainObject(spec) && 'date' in spec && !Object.keys(spec).some((k) => k.startsWith('$')) ? spec : undefined;
}

/** Parts of the evaluated date in the evaluated timezone, or null when either is null or missing. */
function evaluateParts(dateExpr: unknown, tzExpr: unknown, hasTz: boolean, doc: Doc, evaluate: Evaluate): Parts | null {
  const date = evaluate(dateExpr, doc);
  if (isNullish(date)) return null;
  const ms = toMillis(date);
  if (!hasTz) return partsOf(ms, 0);
  const tz = evaluate(tzExpr, doc);
  if (isNullish(tz)) return null;
  return partsOf(ms, offsetMinutes(tz, ms));
}

const UTC_NAMES = new Set(['UTC', 'GMT', 'Etc/UTC', 'Etc/GMT', 'Z']);

export function dateOperator(op: string, spec: unknown, doc: Doc, evaluate: Evaluate): unknown {
  if (op === '$dateToString') {
    if (!isPlainObject(spec)) throw new MongoError(18629, '$dateToString only supports an object as its argument');
    for (const k of Object.keys(spec)) {
      if (!['date', 'format', 'timezone', 'onNull'].includes(k)) throw new MongoError(18534, `Unrecognized argument to $dateToString: ${k}`);
    }
    if (!('date' in spec)) throw new MongoError(18628, "Missing 'date' parameter to $dateToString");
    const format = 'format' in spec ? evaluate(spec['format'], doc) : undefined;
    if ('format' in spec && isNullish(format)) return null;
    if (format !== undefined && typeof format !== 'string') throw new MongoError(18533, `$dateToString requires that 'format' be a string, found: ${bsonTypeName(format)}`);
    const date = evaluate(spec['date'], doc);
    if (isNullish(date)) return 'onNull' in spec ? evaluate(spec['onNull'], doc) : null;
    const hasTz = 'timezone' in spec;
    const p = evaluateParts(spec['date'], spec['timezone'], hasTz, doc, evaluate);
    if (!p) return null;
    const tz = hasTz ? evaluate(spec['timezone'], doc) : undefined;
    const utc = !hasTz || (typeof tz === 'string' && (UTC_NAMES.has(tz) || (OFFSET.test(tz) && p.offsetMinutes === 0)));
    return formatDate(format ?? (utc ? '%Y-%m-%dT%H:%M:%S.%LZ' : '%Y-%m-%dT%H:%M:%S.%L'), p);
  }
  if (op === '$dateToParts') {
    if (!isPlainObject(spec) || !('date' in spec)) throw new MongoError(40522, "Missing 'date' parameter to $dateToParts");
    const p = evaluateParts(spec['date'], spec['timezone'], 'timezone' in spec, doc, evaluate);
    if (!p) return null;
    const iso = 'iso8601' in spec ? evaluate(spec['iso8601'], doc) : false;
    if (iso === null || iso === undefined) return null;
    if (typeof iso !== 'boolean') throw new MongoError(40521, `iso8601 must evaluate to a bool, found ${bsonTypeName(iso)}`);
    const time = { hour: p.hour, minute: p.minute, second: p.second, millisecond: p.millisecond };
    if (!iso) return { year: p.year, month: p.month, day: p.day, ...time };
    const w = isoWeek(p);
    return { isoWeekYear: w.year, isoWeek: w.week, isoDayOfWeek: p.dow || 7, ...time };
  }
  // A date part: {$op: date}, {$op: [date]} or {$op: {date, timezone}}.
  const form = documentForm(spec);
  if (form) {
    for (const k of Object.keys(form)) {
      if (k !== 'date' && k !== 'timezone') throw new MongoError(40535, `unrecognized option to ${op}: "${k}"`);
    }
  } else if (Array.isArray(spec) && spec.length !== 1) {
    throw new MongoError(16020, `Expression ${op} takes exactly 1 arguments. ${spec.length} were passed in.`);
  }
  const dateExpr = form ? form['date'] : Array.isArray(spec) ? spec[0] : spec;
  const p = evaluateParts(dateExpr, form?.['timezone'], form ? 'timezone' in form : false, doc, evaluate);
  return p ? part(op, p) : null;
}

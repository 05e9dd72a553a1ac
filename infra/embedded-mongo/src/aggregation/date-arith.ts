// $dateAdd, $dateSubtract, $dateTrunc, $dateFromParts and $dateFromString as the MongoDB manual
// defines them: units of a day or more count in the timezone's wall clock (a day across a daylight
// saving change keeps the local time), a month or year that lands past the end of a month gives its
// last day, $dateTrunc bins from 2000-01-01 (weeks from the first startOfWeek day on or after it),
// $dateFromParts carries overflowing parts and takes ISO week dates. mingo's versions overflowed
// months (31 January + 1 month = 3 March), ignored timezones in $dateTrunc/$dateAdd, and answered
// 9999-11-30 for ISO week dates.
import { Double, Long } from 'bson';
import { Codes, MongoError } from '../errors.ts';
import { isPlainObject } from '../values.ts';
import type { Doc } from '../values.ts';
import { DATE_OPERATORS, bsonTypeName, dateOperator, offsetMinutes, toMillis } from './dates.ts';

type Evaluate = (expr: unknown, doc: Doc) => unknown;

export const DATE_ARITH_OPERATORS = new Set(['$dateAdd', '$dateSubtract', '$dateTrunc', '$dateFromParts', '$dateFromString']);

const MINUTE = 60_000;
const DAY = 86_400_000;
const UNITS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond'];
const FIXED: Record<string, number> = { hour: 3_600_000, minute: MINUTE, second: 1000, millisecond: 1 };
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const isNullish = (v: unknown): boolean => v === null || v === undefined;

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Double) return v.value;
  return undefined;
}

function integral(op: string, name: string, v: unknown): number {
  const n = num(v);
  if (n === undefined || !Number.isInteger(n)) throw new MongoError(Codes.BadValue, `${op} requires '${name}' to be an integer, found ${bsonTypeName(v)} with value ${String(v)}`);
  return n;
}

/** The wall clock of `ms` in `tz` as a UTC-based number, and back. No timezone is UTC. */
const toLocal = (ms: number, tz: unknown): number => (tz === undefined ? ms : ms + offsetMinutes(tz, ms) * MINUTE);

function fromLocal(local: number, tz: unknown): number {
  if (tz === undefined) return local;
  const first = local - offsetMinutes(tz, local) * MINUTE;
  return local - offsetMinutes(tz, first) * MINUTE;
}

/** A UTC-field date, years 0–99 included (Date.UTC would read them as 1900–1999). */
function utc(y: number, m: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m, d);
  t.setUTCHours(h, mi, s, ms);
  return t.getTime();
}

function addMonths(local: number, months: number): number {
  const d = new Date(local);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  const last = new Date(utc(y, m + 1, 0)).getUTCDate();
  return utc(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

function unitOf(op: string, v: unknown): string {
  if (typeof v !== 'string' || !UNITS.includes(v)) throw new MongoError(Codes.BadValue, `${op} requires 'unit' to be one of ${UNITS.join(', ')}, found ${JSON.stringify(v)}`);
  return v;
}

function args(op: string, spec: unknown, allowed: string[]): Doc {
  if (!isPlainObject(spec)) throw new MongoError(Codes.FailedToParse, `${op} only supports an object as its argument`);
  for (const k of Object.keys(spec)) if (!allowed.includes(k)) throw new MongoError(Codes.FailedToParse, `Unrecognized argument to ${op}: ${k}`);
  return spec;
}

/** Evaluated arguments, or null when one the operator needs is null or missing. */
function values(spec: Doc, doc: Doc, evaluate: Evaluate, names: string[]): Doc | null {
  const out: Doc = {};
  for (const k of names) {
    if (!(k in spec)) continue;
    const v = evaluate(spec[k], doc);
    if (isNullish(v)) return null;
    out[k] = v;
  }
  return out;
}

function dateAdd(op: string, spec: unknown, doc: Doc, evaluate: Evaluate): unknown {
  const a = args(op, spec, ['startDate', 'unit', 'amount', 'timezone']);
  for (const k of ['startDate', 'unit', 'amount']) if (!(k in a)) throw new MongoError(Codes.FailedToParse, `${op} requires '${k}'`);
  const v = values(a, doc, evaluate, ['startDate', 'unit', 'amount', 'timezone']);
  if (!v) return null;
  const start = toMillis(v['startDate']);
  const unit = unitOf(op, v['unit']);
  const amount = integral(op, 'amount', v['amount']) * (op === '$dateSubtract' ? -1 : 1);
  if (FIXED[unit]) return new Date(start + amount * FIXED[unit]!);
  const tz = v['timezone'];
  const local = toLocal(start, tz);
  if (unit === 'day' || unit === 'week') return new Date(fromLocal(local + amount * (unit === 'week' ? 7 : 1) * DAY, tz));
  return new Date(fromLocal(addMonths(local, amount * (unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1)), tz));
}

/** 2000-01-01 is a Saturday: the first `day` (0 = Sunday) on or after it. */
const weekReference = (day: number): number => utc(2000, 0, 1) + ((day + 1) % 7) * DAY;

function dateTrunc(spec: unknown, doc: Doc, evaluate: Evaluate): unknown {
  const op = '$dateTrunc';
  const a = args(op, spec, ['date', 'unit', 'binSize', 'timezone', 'startOfWeek']);
  for (const k of ['date', 'unit']) if (!(k in a)) throw new MongoError(Codes.FailedToParse, `${op} requires '${k}'`);
  const v = values(a, doc, evaluate, ['date', 'unit', 'binSize', 'timezone', 'startOfWeek']);
  if (!v) return null;
  const ms = toMillis(v['date']);
  const unit = unitOf(op, v['unit']);
  const bin = 'binSize' in v ? integral(op, 'binSize', v['binSize']) : 1;
  if (bin < 1) throw new MongoError(Codes.BadValue, `${op} requires 'binSize' to be greater than 0, but got value ${bin}`);
  const tz = v['timezone'];
  const local = toLocal(ms, tz);
  if (unit === 'year' || unit === 'quarter' || unit === 'month') {
    const d = new Date(local);
    const months = (d.getUTCFullYear() - 2000) * 12 + d.getUTCMonth();
    const size = bin * (unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1);
    const start = Math.floor(months / size) * size;
    return new Date(fromLocal(utc(2000 + Math.floor(start / 12), start - Math.floor(start / 12) * 12, 1), tz));
  }
  let size = FIXED[unit] ?? DAY;
  let reference = utc(2000, 0, 1);
  if (unit === 'week') {
    const name = typeof v['startOfWeek'] === 'string' ? v['startOfWeek'].toLowerCase() : 'sunday';
    const day = WEEKDAYS.findIndex((w) => w === name || w.slice(0, 3) === name);
    if (day < 0) throw new MongoError(Codes.BadValue, `${op} parameter 'startOfWeek' must be a day of the week, found ${JSON.stringify(v['startOfWeek'])}`);
    reference = weekReference(day);
    size = 7 * DAY;
  }
  size *= bin;
  return new Date(fromLocal(reference + Math.floor((local - reference) / size) * size, tz));
}

const PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'millisecond'];
const ISO_PARTS = ['isoWeekYear', 'isoWeek', 'isoDayOfWeek', 'hour', 'minute', 'second', 'millisecond'];
const PART_DEFAULTS: Record<string, number> = { month: 1, day: 1, isoWeek: 1, isoDayOfWeek: 1 };

function dateFromParts(spec: unknown, doc: Doc, evaluate: Evaluate): unknown {
  const op = '$dateFromParts';
  const a = args(op, spec, [...PARTS, ...ISO_PARTS, 'timezone']);
  const iso = 'isoWeekYear' in a;
  if (iso && ['year', 'month', 'day'].some((k) => k in a)) throw new MongoError(40489, `${op} requires either 'year' or 'isoWeekYear' with their parts, not both`);
  if (!iso && !('year' in a)) throw new MongoError(40516, `${op} requires at least one of 'year' or 'isoWeekYear'`);
  const names = iso ? ISO_PARTS : PARTS;
  const v = values(a, doc, evaluate, [...names, 'timezone']);
  if (!v) return null;
  const n: Record<string, number> = {};
  for (const k of names) {
    n[k] = k in v ? integral(op, k, v[k]) : (PART_DEFAULTS[k] ?? 0);
    const [lo, hi] = k === 'year' || k === 'isoWeekYear' ? [1, 9999] : [-32768, 32767];
    if (n[k]! < lo || n[k]! > hi) throw new MongoError(Codes.BadValue, `'${k}' must evaluate to an integer in the range ${lo} to ${hi}, found ${n[k]}`);
  }
  let local: number;
  if (iso) {
    const jan4 = utc(n['isoWeekYear']!, 0, 4);
    const week1Monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
    local = week1Monday + ((n['isoWeek']! - 1) * 7 + (n['isoDayOfWeek']! - 1)) * DAY;
    local += ((n['hour']! * 60 + n['minute']!) * 60 + n['second']!) * 1000 + n['millisecond']!;
  } else {
    local = utc(n['year']!, n['month']! - 1, n['day']!, n['hour'], n['minute'], n['second'], n['millisecond']);
  }
  return new Date(fromLocal(local, v['timezone']));
}

const ISO_STRING = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const FIELD: Record<string, [string, RegExp]> = {
  Y: ['year', /^\d{4}/], m: ['month', /^\d{1,2}/], d: ['day', /^\d{1,2}/], H: ['hour', /^\d{1,2}/], M: ['minute', /^\d{1,2}/],
  S: ['second', /^\d{1,2}/], L: ['millisecond', /^\d{1,3}/], z: ['offset', /^(Z|[+-]\d{2}:?\d{2})/], Z: ['offsetMinutes', /^[+-]\d{1,4}/],
};

function parseOffset(s: string): number {
  if (s === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(s)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** Fields of `text` read with `format`, or undefined when it does not match. */
function readFormat(text: string, format: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let rest = text;
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c === '%' && format[i + 1] !== '%') {
      const f = FIELD[format[++i] ?? ''];
      if (!f) throw new MongoError(18536, `Invalid format character '%${format[i] ?? ''}' in format string`);
      const m = f[1].exec(rest);
      if (!m) return undefined;
      out[f[0]] = m[0];
      rest = rest.slice(m[0].length);
    } else {
      if (c === '%') i++;
      if (rest[0] !== c) return undefined;
      rest = rest.slice(1);
    }
  }
  return rest === '' ? out : undefined;
}

function dateFromString(spec: unknown, doc: Doc, evaluate: Evaluate): unknown {
  const op = '$dateFromString';
  const a = args(op, spec, ['dateString', 'format', 'timezone', 'onError', 'onNull']);
  if (!('dateString' in a)) throw new MongoError(40542, `Missing 'dateString' parameter to ${op}`);
  const text = evaluate(a['dateString'], doc);
  const format = 'format' in a ? evaluate(a['format'], doc) : undefined;
  const tz = 'timezone' in a ? evaluate(a['timezone'], doc) : undefined;
  if (('format' in a && isNullish(format)) || ('timezone' in a && isNullish(tz))) return null;
  if (isNullish(text)) return 'onNull' in a ? evaluate(a['onNull'], doc) : null;
  try {
    if (typeof text !== 'string') throw new MongoError(241, `${op} requires that 'dateString' be a string, found: ${bsonTypeName(text)}`);
    if (format !== undefined && typeof format !== 'string') throw new MongoError(40684, `${op} requires that 'format' be a string, found: ${bsonTypeName(format)}`);
    let f: Record<string, string> | undefined;
    if (format === undefined) {
      const m = ISO_STRING.exec(text.trim());
      if (m) f = { year: m[1]!, month: m[2]!, day: m[3]!, hour: m[4] ?? '0', minute: m[5] ?? '0', second: m[6] ?? '0', millisecond: (m[7] ?? '0').padEnd(3, '0').slice(0, 3), ...(m[8] ? { offset: m[8] } : {}) };
    } else {
      f = readFormat(text, format);
    }
    if (!f) throw new MongoError(241, `Error parsing date string '${text}'${format === undefined ? '; the embedded server reads only ISO 8601 dates (YYYY-MM-DD[THH:MM[:SS[.mmm]]][Z|±hh[:mm]]) without a format' : ` with format '${format}'`}`);
    const n = (k: string, d: number): number => (f[k] === undefined ? d : Number(f[k]));
    const local = utc(n('year', 1970), n('month', 1) - 1, n('day', 1), n('hour', 0), n('minute', 0), n('second', 0), n('millisecond', 0));
    const back = new Date(local);
    if (back.getUTCMonth() + 1 !== n('month', 1) || back.getUTCDate() !== n('day', 1) || back.getUTCHours() !== n('hour', 0) || back.getUTCMinutes() !== n('minute', 0) || back.getUTCSeconds() !== n('second', 0)) {
      throw new MongoError(241, `Error parsing date string '${text}': a field is out of range`);
    }
    const given = f['offset'] !== undefined ? parseOffset(f['offset']) : f['offsetMinutes'] !== undefined ? Number(f['offsetMinutes']) : undefined;
    if (given !== undefined && tz !== undefined) throw new MongoError(40554, `you cannot pass in a date/time string with GMT offset together with a timezone argument`);
    return new Date(given !== undefined ? local - given * MINUTE : fromLocal(local, tz));
  } catch (e) {
    if ('onError' in a && e instanceof MongoError && e.code === 241) return evaluate(a['onError'], doc);
    throw e;
  }
}

export function dateArithmetic(op: string, spec: unknown, doc: Doc, evaluate: Evaluate): unknown {
  switch (op) {
    case '$dateAdd':
    case '$dateSubtract':
      return dateAdd(op, spec, doc, evaluate);
    case '$dateTrunc':
      return dateTrunc(spec, doc, evaluate);
    case '$dateFromParts':
      return dateFromParts(spec, doc, evaluate);
    default:
      return dateFromString(spec, doc, evaluate);
  }
}

/** Every date expression operator the server evaluates itself, in the typed path and in mingo. */
export const DATE_EXPRESSIONS = new Set([...DATE_OPERATORS, ...DATE_ARITH_OPERATORS]);

export function dateExpression(op: string, spec: unknown, doc: Doc, evaluate: Evaluate): unknown {
  return DATE_ARITH_OPERATORS.has(op) ? dateArithmetic(op, spec, doc, evaluate) : dateOperator(op, spec, doc, evaluate);
}

// Date operators against the MongoDB manual's definitions, for every day of 2024–2027 and the days
// around its year boundaries, in UTC and in timezones. The expected values are derived here by
// counting (Sundays since 1 January, the Thursday of the ISO week), not by the server's formulas:
// $dayOfWeek and %w 1–7 with Sunday = 1; %u and $isoDayOfWeek 1–7 with Monday = 1; $week and %U
// 0–53, weeks begin on Sunday and days before the year's first Sunday are week 0; ISO 8601 weeks
// for $isoWeek/%V and $isoWeekYear/%G; %z ±hhmm and %Z ±mmm, the offset in minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Int32, MongoClient, ObjectId } from 'mongodb';
import type { Db, Document } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  srv = await startTestServer();
  client = await new MongoClient(srv.uri('dates')).connect();
  db = client.db('dates');
});

afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDirs();
});

const DAY = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const p = (n: number, w: number): string => String(Math.abs(n)).padStart(w, '0');

/** What the manual says of the wall-clock instant `local` (a Date whose UTC fields are the wall clock). */
function expected(local: Date, offset: number): Record<string, unknown> {
  const y = local.getUTCFullYear();
  const midnight = Date.UTC(y, local.getUTCMonth(), local.getUTCDate());
  let yday = 0;
  let sundays = 0;
  for (let t = Date.UTC(y, 0, 1); t <= midnight; t += DAY) {
    yday++;
    if (new Date(t).getUTCDay() === 0) sundays++;
  }
  const sun0 = local.getUTCDay();
  const isoDow = sun0 === 0 ? 7 : sun0;
  const thursday = new Date(midnight + (4 - isoDow) * DAY);
  const isoYear = thursday.getUTCFullYear();
  const isoWeek = Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / DAY / 7) + 1;
  const sign = offset < 0 ? '-' : '+';
  const f = [
    p(y, 4), p(local.getUTCMonth() + 1, 2), p(local.getUTCDate(), 2), p(local.getUTCHours(), 2), p(local.getUTCMinutes(), 2),
    p(local.getUTCSeconds(), 2), p(local.getUTCMilliseconds(), 3), p(yday, 3), String(sun0 + 1), String(isoDow), p(sundays, 2),
    p(isoWeek, 2), p(isoYear, 4), sign + p(Math.floor(Math.abs(offset) / 60), 2) + p(Math.abs(offset) % 60, 2), sign + p(offset, 3), '%',
    MONTHS[local.getUTCMonth()]!.slice(0, 3), MONTHS[local.getUTCMonth()],
  ].join('|');
  return {
    year: y, month: local.getUTCMonth() + 1, dayOfMonth: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(), millisecond: local.getUTCMilliseconds(), dayOfYear: yday, dayOfWeek: sun0 + 1, isoDayOfWeek: isoDow,
    week: sundays, isoWeek, isoWeekYear: isoYear, f,
  };
}

const FORMAT = '%Y|%m|%d|%H|%M|%S|%L|%j|%w|%u|%U|%V|%G|%z|%Z|%%|%b|%B';
const PARTS = ['year', 'month', 'dayOfMonth', 'hour', 'minute', 'second', 'millisecond', 'dayOfYear', 'dayOfWeek', 'isoDayOfWeek', 'week', 'isoWeek', 'isoWeekYear'];

function projection(tz?: string): Document {
  const out: Document = { _id: 1 };
  for (const k of PARTS) out[k] = tz === undefined ? { [`$${k}`]: '$d' } : { [`$${k}`]: { date: '$d', timezone: tz } };
  out['f'] = { $dateToString: { date: '$d', format: FORMAT, ...(tz === undefined ? {} : { timezone: tz }) } };
  return out;
}

/** Every day from 2023-12-24 to 2028-01-08, each at a different time of day. */
async function seedDays(): Promise<Date[]> {
  const dates: Date[] = [];
  for (let t = Date.UTC(2023, 11, 24), i = 0; t <= Date.UTC(2028, 0, 8); t += DAY, i++) {
    dates.push(new Date(t + ((i * 3_607_013) % DAY)));
  }
  const edge = (d: Date): boolean => (d.getUTCMonth() === 11 && d.getUTCDate() >= 20) || (d.getUTCMonth() === 0 && d.getUTCDate() <= 10);
  await db.collection('days').insertMany(dates.map((d, i) => ({ _id: i as never, d, sample: i % 5 === 0 || edge(d) })));
  return dates;
}

describe('date operators', () => {
  it('answer as the manual defines them for every day of 2024–2027, in UTC and in timezones', { timeout: 60_000 }, async () => {
    const dates = await seedDays();
    for (const [tz, offset] of [[undefined, 0], ['+05:30', 330], ['-0800', -480], ['+03', 180], ['Asia/Seoul', 540]] as const) {
      // Every day in UTC; in the other zones every fifth day and the days around each new year.
      const match = tz === undefined ? {} : { sample: true };
      const rows = await db.collection('days').aggregate([{ $match: match }, { $project: projection(tz) }, { $sort: { _id: 1 } }]).toArray();
      expect(rows).toHaveLength(tz === undefined ? dates.length : await db.collection('days').countDocuments(match));
      const wrong = rows.filter((r) => {
        const i = r['_id'] as number;
        const want = { _id: i, ...expected(new Date(dates[i]!.getTime() + offset * 60_000), offset) };
        return JSON.stringify(r) !== JSON.stringify(want);
      });
      expect(wrong.slice(0, 3), `${tz ?? 'UTC'}: ${wrong.length} days differ`).toEqual([]);
    }
  });

  it('follow daylight saving time in an Olson timezone', async () => {
    const c = db.collection('dst');
    // 2026-03-08T06:59:59.999Z is 01:59:59 EST; a millisecond later it is 03:00 EDT.
    await c.insertMany([
      { _id: 1 as never, d: new Date('2026-03-08T06:59:59.999Z') },
      { _id: 2 as never, d: new Date('2026-03-08T07:00:00.000Z') },
      { _id: 3 as never, d: new Date('2026-01-01T03:00:00.000Z') },
    ]);
    const rows = await c.aggregate([{ $project: { f: { $dateToString: { date: '$d', timezone: 'America/New_York', format: '%Y-%m-%d %H:%M %z %Z %U %w' } }, def: { $dateToString: { date: '$d', timezone: 'America/New_York' } } } }, { $sort: { _id: 1 } }]).toArray();
    expect(rows).toEqual([
      { _id: 1, f: '2026-03-08 01:59 -0500 -300 10 1', def: '2026-03-08T01:59:59.999' },
      { _id: 2, f: '2026-03-08 03:00 -0400 -240 10 1', def: '2026-03-08T03:00:00.000' },
      { _id: 3, f: '2025-12-31 22:00 -0500 -300 52 4', def: '2025-12-31T22:00:00.000' },
    ]);
  });

  it('hold at the boundaries worked out by hand', async () => {
    const c = db.collection('hand');
    const at = (s: string): Date => new Date(`${s}T12:00:00Z`);
    await c.insertMany([
      { _id: 'thu 2026-01-01' as never, d: at('2026-01-01') },
      { _id: 'sun 2026-01-04' as never, d: at('2026-01-04') },
      { _id: 'tue 2024-12-31' as never, d: at('2024-12-31') },
      { _id: 'mon 2024-12-30' as never, d: at('2024-12-30') },
      { _id: 'fri 2027-01-01' as never, d: at('2027-01-01') },
      { _id: 'sun 2027-01-03' as never, d: at('2027-01-03') },
      { _id: 'sat 2026-12-26' as never, d: at('2026-12-26') },
    ]);
    const rows = await c.aggregate([{ $project: { f: { $dateToString: { date: '$d', format: '%w %u %U %V %G %j' } }, week: { $week: '$d' }, dow: { $dayOfWeek: '$d' } } }]).toArray();
    const by = Object.fromEntries(rows.map((r) => [r['_id'], [r['f'], r['week'], r['dow']]]));
    expect(by).toEqual({
      'thu 2026-01-01': ['5 4 00 01 2026 001', 0, 5],
      'sun 2026-01-04': ['1 7 01 01 2026 004', 1, 1],
      'tue 2024-12-31': ['3 2 52 01 2025 366', 52, 3],
      'mon 2024-12-30': ['2 1 52 01 2025 365', 52, 2],
      'fri 2027-01-01': ['6 5 00 53 2026 001', 0, 6],
      'sun 2027-01-03': ['1 7 01 53 2026 003', 1, 1],
      'sat 2026-12-26': ['7 6 51 52 2026 360', 51, 7],
    });
  });

  it('answer the same inside a find filter, a $match $expr, an update pipeline and nested expressions', async () => {
    const c = db.collection('paths');
    // Sunday 2026-01-04 starts week 1; Saturday 2026-01-03 is still week 0.
    await c.insertMany([{ _id: 1 as never, d: new Date('2026-01-03T12:00:00Z') }, { _id: 2 as never, d: new Date('2026-01-04T12:00:00Z') }]);
    const weekOne = { $expr: { $and: [{ $eq: [{ $week: '$d' }, 1] }, { $eq: [{ $dateToString: { date: '$d', format: '%w' } }, '1'] }] } };
    expect(await c.find(weekOne).toArray()).toEqual([{ _id: 2, d: new Date('2026-01-04T12:00:00Z') }]);
    expect(await c.aggregate([{ $project: { _id: 1 } }, { $lookup: { from: 'paths', localField: '_id', foreignField: '_id', as: 'x' } }, { $unwind: '$x' }, { $match: { $expr: { $eq: [{ $week: '$x.d' }, 1] } } }, { $project: { _id: 1 } }]).toArray()).toEqual([{ _id: 2 }]);
    const nested = await c.aggregate([{ $project: { w: { $concat: ['W', { $toString: { $week: '$d' } }, '-', { $dateToString: { date: '$d', format: '%U/%w' } }] } } }, { $sort: { _id: 1 } }]).toArray();
    expect(nested).toEqual([{ _id: 1, w: 'W0-00/7' }, { _id: 2, w: 'W1-01/1' }]);
    await c.updateMany({}, [{ $set: { label: { $dateToString: { date: '$d', format: '%G-W%V-%u %U' } } } }]);
    expect((await c.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d['label'])).toEqual(['2026-W01-6 00', '2026-W01-7 01']);
  });

  it('add, subtract, truncate and build dates as the manual defines them', async () => {
    const D = (t: string): Date => new Date(t);
    // [expression, expected]: worked out by hand from the manual's definitions.
    const table: [Document, Date | null][] = [
      // A month past 31 January is the last day of February; a year past 29 February 2024 is 28 February.
      [{ $dateAdd: { startDate: D('2026-01-31T10:00:00Z'), unit: 'month', amount: 1 } }, D('2026-02-28T10:00:00Z')],
      [{ $dateAdd: { startDate: D('2024-02-29T10:00:00Z'), unit: 'year', amount: 1 } }, D('2025-02-28T10:00:00Z')],
      [{ $dateSubtract: { startDate: D('2026-03-31T10:00:00Z'), unit: 'month', amount: 1 } }, D('2026-02-28T10:00:00Z')],
      [{ $dateAdd: { startDate: D('2026-11-30T00:00:00Z'), unit: 'quarter', amount: 1 } }, D('2027-02-28T00:00:00Z')],
      // A day in New York across the DST change keeps 07:00 local; 24 hours do not.
      [{ $dateAdd: { startDate: D('2026-03-07T12:00:00Z'), unit: 'day', amount: 1, timezone: 'America/New_York' } }, D('2026-03-08T11:00:00Z')],
      [{ $dateAdd: { startDate: D('2026-03-07T12:00:00Z'), unit: 'hour', amount: 24, timezone: 'America/New_York' } }, D('2026-03-08T12:00:00Z')],
      [{ $dateAdd: { startDate: D('2026-12-31T23:00:00Z'), unit: 'week', amount: -1 } }, D('2026-12-24T23:00:00Z')],
      [{ $dateAdd: { startDate: null, unit: 'day', amount: 1 } }, null],
      // Weeks start on Sunday unless startOfWeek says otherwise; bins count from 2000-01-01.
      [{ $dateTrunc: { date: D('2026-01-07T15:30:00Z'), unit: 'week' } }, D('2026-01-04T00:00:00Z')],
      [{ $dateTrunc: { date: D('2026-01-07T15:30:00Z'), unit: 'week', startOfWeek: 'Monday' } }, D('2026-01-05T00:00:00Z')],
      [{ $dateTrunc: { date: D('2026-01-07T15:30:00Z'), unit: 'week', binSize: 2 } }, D('2025-12-28T00:00:00Z')],
      [{ $dateTrunc: { date: D('2026-01-07T15:30:00Z'), unit: 'day', timezone: 'Asia/Seoul' } }, D('2026-01-07T15:00:00Z')],
      [{ $dateTrunc: { date: D('2026-05-07T15:30:00Z'), unit: 'quarter' } }, D('2026-04-01T00:00:00Z')],
      [{ $dateTrunc: { date: D('2026-05-07T15:30:00Z'), unit: 'year', binSize: 5 } }, D('2025-01-01T00:00:00Z')],
      [{ $dateTrunc: { date: D('2026-01-07T15:30:00Z'), unit: 'hour', binSize: 2 } }, D('2026-01-07T14:00:00Z')],
      // Parts overflow into the next unit; ISO week dates; a timezone gives the local wall clock.
      [{ $dateFromParts: { year: 2026, month: 14, day: 1 } }, D('2027-02-01T00:00:00Z')],
      [{ $dateFromParts: { year: 2026, month: 3, day: 0, hour: 25 } }, D('2026-03-01T01:00:00Z')],
      [{ $dateFromParts: { isoWeekYear: 2026, isoWeek: 53, isoDayOfWeek: 5 } }, D('2027-01-01T00:00:00Z')],
      [{ $dateFromParts: { isoWeekYear: 2025, isoWeek: 1, isoDayOfWeek: 1 } }, D('2024-12-30T00:00:00Z')],
      [{ $dateFromParts: { year: 2026, month: 1, day: 1, timezone: 'Asia/Seoul' } }, D('2025-12-31T15:00:00Z')],
      [{ $dateFromString: { dateString: '2026-12-06T10:00:00', timezone: 'Asia/Seoul' } }, D('2026-12-06T01:00:00Z')],
      [{ $dateFromString: { dateString: '2026-12-06T10:00:00+09:00' } }, D('2026-12-06T01:00:00Z')],
      [{ $dateFromString: { dateString: '06/12/2026 10:05', format: '%d/%m/%Y %H:%M' } }, D('2026-12-06T10:05:00Z')],
      [{ $dateFromString: { dateString: '2026-02-30', onError: null } }, null],
    ];
    await db.collection('arith').insertOne({ _id: 1 as never });
    const [row] = await db.collection('arith').aggregate([{ $project: Object.fromEntries(table.map(([e], i) => [`e${i}`, e])) }]).toArray();
    expect(table.map((_, i) => row![`e${i}`] ?? null)).toEqual(table.map(([, want]) => want));
  });

  it('take ObjectIds, return int32, answer null for null and refuse bad input', async () => {
    const raw = client.db('dates', { promoteValues: false });
    const id = ObjectId.createFromTime(Date.UTC(2026, 11, 6, 4, 5, 6) / 1000);
    await db.collection('misc').insertOne({ _id: id, none: null });
    const [r] = await raw.collection('misc').aggregate([{
      $project: {
        _id: 0, week: { $week: '$_id' }, iso: { $isoWeekYear: { date: '$_id', timezone: 'UTC' } }, nul: { $week: '$none' }, tzNull: { $year: { date: '$_id', timezone: '$none' } },
        s: { $dateToString: { date: '$_id', format: '%Y-%m-%d %H:%M:%S' } }, onNull: { $dateToString: { date: '$none', onNull: 'none' } },
        parts: { $dateToParts: { date: '$_id', timezone: 'Asia/Seoul', iso8601: true } },
      },
    }]).toArray();
    expect(r).toEqual({
      week: new Int32(49), iso: new Int32(2026), nul: null, tzNull: null, s: '2026-12-06 04:05:06', onNull: 'none',
      parts: { isoWeekYear: new Int32(2026), isoWeek: new Int32(49), isoDayOfWeek: new Int32(7), hour: new Int32(13), minute: new Int32(5), second: new Int32(6), millisecond: new Int32(0) },
    });
    const fails = async (expr: Document): Promise<unknown> => db.collection('misc').aggregate([{ $project: { x: expr } }]).toArray().then(() => 'ok', (e: { code?: number }) => e.code);
    expect(await fails({ $dateToString: { date: '$_id', format: '%Q' } })).toBe(18536);
    expect(await fails({ $dateToString: { date: '$_id', format: 'x%' } })).toBe(18535);
    expect(await fails({ $hour: { date: '$_id', timezone: 'Mars/Olympus' } })).toBe(40485);
    expect(await fails({ $week: 'text' })).toBe(16006);
  });
});

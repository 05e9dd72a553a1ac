// Simple filters and projections skip mingo (src/query.ts); they must answer exactly as mingo does
// on the same documents (projections: the same fields with the same values, `_id` first as on the
// server; updates: the same document with the same number types), and anything else must still
// go to mingo (and fail there when it should).
import * as BSON from 'bson';
import { Double, Long, ObjectId } from 'bson';
import { Query } from 'mingo/query';
import { describe, expect, it } from 'vitest';
import { compileFilter, mingoFilter, mingoProject, project } from '../src/query.ts';
import { applySimpleUpdate, applyUpdate } from '../src/update.ts';
import { plainDoc, toPlain, valueKey } from '../src/values.ts';
import type { Doc } from '../src/values.ts';

const oid = new ObjectId('65a000000000000000000001');
const oid2 = new ObjectId('65a000000000000000000002');
const day = new Date('2026-11-25T00:00:00Z');

const docs: Doc[] = [
  { _id: 1, userId: 'u1', pending: true, n: 5, tags: ['a', 'b'], at: day, ref: oid },
  { _id: 2, userId: 'u2', pending: false, n: new Double(5), tags: 'a', at: new Date(day.getTime() + 1), ref: oid2 },
  { _id: 3, userId: 'u1', n: Long.fromNumber(5), tags: [['a']], nested: { userId: 'u1' } },
  { _id: 'x', userId: null, n: 5.5, tags: [], arr: [1, 5, 9], mixed: [oid, 'u1', 5] },
  { _id: oid, n: '5', pending: 'true', at: day.toISOString(), flag: 1 },
  { _id: 4, userId: ['u1', 'u3'], n: [4, 5], pending: [true], at: [day] },
];

const filters: Doc[] = [
  {},
  { _id: 1 },
  { _id: 'x' },
  { _id: oid },
  { _id: { $in: [1, 3, oid] } },
  { _id: { $in: [] } },
  { _id: { $eq: 2 } },
  { userId: 'u1' },
  { userId: 'u1', n: 5 },
  { pending: true },
  { pending: false },
  { n: 5 },
  { n: new Double(5) },
  { n: Long.fromNumber(5) },
  { n: 5.5 },
  { n: '5' },
  { tags: 'a' },
  { arr: 5 },
  { mixed: oid },
  { mixed: 5 },
  { at: day },
  { ref: oid2 },
  { flag: true },
  { flag: 1 },
  { n: { $in: [4, '5'] } },
  { missing: 1 },
  { userId: { $in: ['u2', 'u3'] }, pending: { $eq: false } },
];

describe('filters without mingo', () => {
  it('match exactly the documents mingo matches', () => {
    for (const f of filters) {
      const fast = compileFilter(f);
      expect(fast instanceof Query, JSON.stringify(toPlain(f))).toBe(false);
      const mingo = mingoFilter(toPlain(f) as Doc);
      for (const d of docs) {
        const plain = plainDoc(d);
        expect(fast.test(plain), `${JSON.stringify(toPlain(f))} on ${JSON.stringify(toPlain(d))}`).toBe(mingo.test(plain));
      }
    }
  });

  it('leave everything else to mingo', () => {
    for (const f of [{ userId: null }, { userId: { $ne: 'u1' } }, { 'nested.userId': 'u1' }, { tags: ['a', 'b'] }, { userId: /u/ }, { $or: [{ _id: 1 }] }, { nested: { userId: 'u1' } }, { n: { $gt: 4 } }, { n: NaN }]) {
      expect(compileFilter(f) instanceof Query, JSON.stringify(f)).toBe(true);
    }
  });
});

const projections: Doc[] = [{ userId: 1 }, { userId: 1, n: true }, { n: 1, userId: 1, _id: 0 }, { _id: 1 }, { _id: 0 }, { n: 0 }, { n: 0, tags: false, _id: 0 }, { missing: 1 }, { missing: 0 }, { _id: 1, userId: 1 }];

describe('projections without mingo', () => {
  it('give the fields mingo gives, in the document order', () => {
    for (const p of projections) {
      const fast = project(docs, p);
      const mingo = mingoProject(docs, p);
      expect(fast, JSON.stringify(p)).toEqual(mingo);
      for (const [i, d] of fast.entries()) {
        const order = Object.keys(docs[i]!).filter((k) => k in d);
        expect(Object.keys(d)).toEqual(order);
      }
    }
  });

  it('leave the rest to mingo, which refuses mixed inclusion and exclusion', () => {
    expect(project(docs, { 'nested.userId': 1 })[2]).toEqual({ _id: 3, nested: { userId: 'u1' } });
    expect(() => project(docs, { n: 1, tags: 0 })).toThrow(/exclusion and inclusion/);
    expect(() => project(docs, { n: 0, _id: 1 })).toThrow(/exclusion and inclusion/);
  });
});

describe('updates without mingo', () => {
  const kept = [
    { topic: 't', event: { eventId: 'e1', n: Long.fromNumber(1) } },
    { topic: 't', event: { eventId: 'e2' } },
    { topic: 't', event: { other: 'e3' } },
    'loose',
    { topic: 't', event: { eventId: 4 } },
  ];
  const start: Doc = { _id: 7, i: 5, big: 2147483600, l: Long.fromNumber(10), d: new Double(2), f: 1.5, s: 'x', nested: { a: 1 }, arr: [1], kept };
  const updates: Doc[] = [
    { $inc: { i: 1 } },
    { $inc: { i: -5 } },
    { $inc: { i: 0 } },
    { $inc: { big: 100 } },
    { $inc: { l: 1 } },
    { $inc: { i: Long.fromNumber(1) } },
    { $inc: { d: 1 } },
    { $inc: { i: new Double(1) } },
    { $inc: { i: 0.5 } },
    { $inc: { f: 1 } },
    { $inc: { missing: 3 } },
    { $inc: { missing: Long.fromNumber(3) } },
    { $inc: { missing: new Double(3) } },
    { $inc: { i: 1, l: -1 }, $set: { s: 'y', t: Long.fromNumber(4) } },
    { $inc: { i: 2 }, $unset: { s: '' } },
    { $inc: { i: 1 }, $setOnInsert: { created: 1 } },
    { $set: { s: 'x' } },
    { $push: { arr: 2 } },
    { $push: { missing: { topic: 't', event: { eventId: 'e9', at: new Date(0) } } }, $set: { pending: true, s: 'y' } },
    { $push: { arr: [2, 3] } },
    { $pull: { kept: { 'event.eventId': { $in: ['e1', 'e3', 'e9'] } } } },
    { $pull: { kept: { 'event.eventId': { $in: ['absent'] } } } },
    { $pull: { kept: { 'event.eventId': { $in: [] } } } },
    { $pull: { missing: { 'event.eventId': { $in: ['e1'] } } } },
    { $pull: { kept: { topic: { $in: ['t'] } } }, $inc: { i: 1 } },
  ];

  it('give the document, number types included, that the general path gives', () => {
    for (const u of updates) {
      const old = { doc: start, plain: plainDoc(start) };
      const fast = applySimpleUpdate(old, u);
      expect(fast, JSON.stringify(toPlain(u))).toBeDefined();
      const general = applyUpdate(old, u, {}, undefined, false);
      const bytes = (d: Doc): string => Buffer.from(BSON.serialize(d)).toString('hex');
      expect(bytes(fast!.doc), JSON.stringify(toPlain(u))).toBe(bytes(general));
      expect(fast!.plain).toEqual(plainDoc(general));
      expect(fast!.modified).toBe(valueKey(general) !== valueKey(start));
    }
  });

  it('leave the rest to the general path', () => {
    const old = { doc: start, plain: plainDoc(start) };
    for (const u of [{ $inc: { s: 1 } }, { $inc: { i: '1' } }, { $inc: { 'nested.a': 1 } }, { $inc: { i: 1 }, $set: { i: 2 } }, { $inc: { _id: 1 } }, { $push: { arr: { $each: [2] } } }, { $push: { s: 1 } }, { $pull: { s: { a: { $in: ['x'] } } } }, { $pull: { kept: { 'event.eventId': 'e1' } } }, { $pull: { kept: { 'event.eventId': { $in: [1] } } } }, { $pull: { kept: { event: { $in: ['e1'] } }, arr: 1 } }, { $push: { i: 1 }, $inc: { i: 1 } }, { $inc: { nested: 1 } }, { $inc: { i: 1 }, $setOnInsert: { i: 0 } }]) {
      expect(applySimpleUpdate(old, u), JSON.stringify(u)).toBeUndefined();
    }
  });
});

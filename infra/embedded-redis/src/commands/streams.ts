// Streams, the subset consumer-group workers use: XADD (NOMKSTREAM, exact MAXLEN), XLEN, XRANGE,
// XGROUP CREATE, XREADGROUP (new and pending entries, COUNT, NOACK), XACK, XPENDING (summary and
// extended); XAUTOCLAIM is in stream-claim.ts. Everything else about streams is refused by name.
// Replies and errors are Redis 7.0's.
import { now as clockNow } from '../clock.ts';
import { NOTIFY } from '../notify.ts';
import type { Client } from '../state.ts';
import { Stream, U64_MAX, cmpId, fmtId, parseId } from '../store/stream.ts';
import type { ConsumerGroup, StreamEntry, StreamId } from '../store/stream.ts';
import type { Db } from '../store/db.ts';
import { block } from './blocking.ts';
import { E, arityError, unknownSubcommand } from './errors.ts';
import { parseInt64 } from './parse.ts';
import { defs, lookup } from './types.ts';
import type { CommandSpec } from './types.ts';

const BAD_ID = 'ERR Invalid stream ID specified as stream command argument';
const notImplemented = (what: string): string => `ERR ${what} is not implemented by the embedded server`;

export function writeEntry(c: Client, e: StreamEntry | undefined, id: StreamId): void {
  c.reply.arr(2);
  c.reply.bulk(fmtId(id));
  if (e === undefined) c.reply.nilArray();
  else c.reply.bulks(e.fields);
}

function xadd(c: Client, a: string[]): void {
  const key = a[1]!;
  let i = 2;
  let nomk = false;
  let maxlen: number | undefined;
  for (; i < a.length; i++) {
    const o = a[i]!.toLowerCase();
    if (o === 'nomkstream') nomk = true;
    else if (o === 'maxlen') {
      let v = a[++i];
      if (v === '~') return c.reply.err(notImplemented('approximate trimming (MAXLEN ~)'));
      if (v === '=') v = a[++i];
      const n = v === undefined ? undefined : parseInt64(v);
      if (n === undefined) return c.reply.err(E.notInt);
      if (n < 0) return c.reply.err('ERR The MAXLEN argument must be >= 0.');
      maxlen = n;
    } else if (o === 'minid' || o === 'limit') return c.reply.err(notImplemented(`XADD ${o.toUpperCase()}`));
    else break;
  }
  const rawId = a[i];
  const wantAuto = rawId === '*';
  const explicit = wantAuto || rawId === undefined ? undefined : parseId(rawId, 0n, true);
  if (!wantAuto && explicit === undefined) return c.reply.err(rawId === undefined ? arityError('xadd') : BAD_ID);
  const fields = a.slice(i + 1);
  if (fields.length === 0 || fields.length % 2 !== 0) return c.reply.err(arityError('xadd'));
  if (explicit !== undefined && explicit.ms === 0n && explicit.seq === 0n) {
    return c.reply.err('ERR The ID specified in XADD must be greater than 0-0');
  }
  let s = lookup(c, key, 'stream');
  if (s === null) return;
  if (s === undefined && nomk) return c.reply.nil();
  const last = s?.lastId ?? { ms: 0n, seq: 0n };
  let id: StreamId;
  if (explicit === undefined) {
    const now = BigInt(clockNow());
    id = now > last.ms ? { ms: now, seq: 0n } : { ms: last.ms, seq: last.seq + 1n };
  } else if (explicit.seq === -1n) {
    if (explicit.ms < last.ms || (explicit.ms === last.ms && last.seq === U64_MAX)) {
      return c.reply.err('ERR The ID specified in XADD is equal or smaller than the target stream top item');
    }
    id = { ms: explicit.ms, seq: explicit.ms === last.ms ? last.seq + 1n : 0n };
  } else id = explicit;
  if (cmpId(id, last) <= 0) return c.reply.err('ERR The ID specified in XADD is equal or smaller than the target stream top item');
  if (s === undefined) {
    s = new Stream();
    c.db.put(key, { t: 'stream', v: s });
  }
  s.entries.push({ id, fields });
  s.lastId = id;
  c.db.touch(key);
  c.db.notify(NOTIFY.STREAM, 'xadd', key);
  c.db.signalReady(key);
  if (maxlen !== undefined && s.entries.length > maxlen) {
    s.entries.splice(0, s.entries.length - maxlen);
    c.db.notify(NOTIFY.STREAM, 'xtrim', key);
  }
  // Logged with the ID it got, so replay cannot pick another.
  c.propagate = ['XADD', key, ...(maxlen !== undefined ? ['MAXLEN', String(maxlen)] : []), fmtId(id), ...fields];
  c.reply.bulk(fmtId(id));
}

function xlen(c: Client, a: string[]): void {
  const s = lookup(c, a[1]!, 'stream');
  if (s === null) return;
  c.reply.int(s?.length ?? 0);
}

/** Range bound: '-', '+', an ID (missing seq = 0 for start, max for end), '(' for exclusive. */
export function parseBound(raw: string, isStart: boolean): StreamId | undefined {
  if (raw === '-') return { ms: 0n, seq: 0n };
  if (raw === '+') return { ms: U64_MAX, seq: U64_MAX };
  const exclusive = raw.startsWith('(');
  const id = parseId(exclusive ? raw.slice(1) : raw, isStart ? 0n : U64_MAX);
  if (id === undefined || !exclusive) return id;
  if (isStart) {
    if (id.seq < U64_MAX) return { ms: id.ms, seq: id.seq + 1n };
    return id.ms < U64_MAX ? { ms: id.ms + 1n, seq: 0n } : undefined;
  }
  if (id.seq > 0n) return { ms: id.ms, seq: id.seq - 1n };
  return id.ms > 0n ? { ms: id.ms - 1n, seq: U64_MAX } : undefined;
}

function xrange(c: Client, a: string[]): void {
  const start = parseBound(a[2]!, true);
  const end = parseBound(a[3]!, false);
  if (start === undefined || end === undefined) return c.reply.err(BAD_ID);
  let count: number | undefined;
  if (a.length > 4) {
    if (a.length !== 6 || a[4]!.toLowerCase() !== 'count') return c.reply.err(E.syntax);
    const n = parseInt64(a[5]!);
    if (n === undefined) return c.reply.err(E.notInt);
    count = Math.max(0, n);
  }
  const s = lookup(c, a[1]!, 'stream');
  if (s === null) return;
  // Redis 7.0 answers COUNT 0 with a null array, not an empty one.
  if (count === 0) return c.reply.nilArray();
  const items = s === undefined ? [] : s.range(start, end, count);
  c.reply.arr(items.length);
  for (const e of items) writeEntry(c, e, e.id);
}

function xgroup(c: Client, a: string[]): void {
  const sub = a[1]!.toLowerCase();
  if (['destroy', 'createconsumer', 'delconsumer', 'setid'].includes(sub)) return c.reply.err(notImplemented(`XGROUP ${sub.toUpperCase()}`));
  if (sub !== 'create') return c.reply.err(unknownSubcommand(a[1]!, 'xgroup'));
  if (a.length < 5) return c.reply.err(arityError('xgroup|create'));
  let mkstream = false;
  for (let i = 5; i < a.length; i++) {
    const o = a[i]!.toLowerCase();
    if (o === 'mkstream') mkstream = true;
    else if (o === 'entriesread') return c.reply.err(notImplemented('XGROUP CREATE ENTRIESREAD'));
    else return c.reply.err(E.syntax);
  }
  const key = a[2]!;
  let s = lookup(c, key, 'stream');
  if (s === null) return;
  if (s === undefined && !mkstream) {
    return c.reply.err(
      'ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.',
    );
  }
  const from = a[4] === '$' ? (s?.lastId ?? { ms: 0n, seq: 0n }) : parseId(a[4]!, 0n);
  if (from === undefined) return c.reply.err(BAD_ID);
  if (s?.groups.has(a[3]!) === true) return c.reply.err('BUSYGROUP Consumer Group name already exists');
  if (s === undefined) {
    s = new Stream();
    c.db.put(key, { t: 'stream', v: s });
  }
  s.groups.set(a[3]!, { lastDelivered: from, pel: new Map(), consumers: new Map() });
  c.db.touch(key);
  c.db.notify(NOTIFY.STREAM, 'xgroup-create', key);
  c.reply.ok();
}

type ReadItems = [StreamId, StreamEntry | undefined][];

/** Delivers the group's entries after its last delivered ID to `consumer` (into the PEL unless NOACK). */
function readNew(s: Stream, g: ConsumerGroup, consumer: string, count: number | undefined, noack: boolean, now: number): ReadItems {
  const items: ReadItems = [];
  for (let j = s.lowerBound(g.lastDelivered, true); j < s.entries.length; j++) {
    if (count !== undefined && items.length >= count) break;
    const e = s.entries[j]!;
    g.lastDelivered = e.id;
    if (!noack) g.pel.set(fmtId(e.id), { id: e.id, consumer, deliveredAt: now, count: 1 });
    items.push([e.id, e]);
  }
  return items;
}

export function seeConsumer(db: Db, key: string, g: ConsumerGroup, consumer: string, now: number): void {
  if (!g.consumers.has(consumer)) db.notify(NOTIFY.STREAM, 'xgroup-createconsumer', key);
  g.consumers.set(consumer, { seenAt: now });
  db.touch(key);
}

/** XREAD-style reply: RESP2 [[key, entries], ...], RESP3 a map key → entries. */
function writeRead(c: Client, out: { key: string; items: ReadItems }[]): void {
  if (c.reply.proto === 3) c.reply.map(out.length);
  else c.reply.arr(out.length);
  for (const { key, items } of out) {
    if (c.reply.proto !== 3) c.reply.arr(2);
    c.reply.bulk(key);
    c.reply.arr(items.length);
    for (const [id, e] of items) writeEntry(c, e, id);
  }
}

function xreadgroup(c: Client, a: string[]): void {
  if (a[1]!.toLowerCase() !== 'group' || a.length < 4) return c.reply.err(E.syntax);
  const groupName = a[2]!;
  const consumer = a[3]!;
  let count: number | undefined;
  let noack = false;
  let blockMs: number | undefined;
  let blockAt = -1;
  let i = 4;
  for (; i < a.length; i++) {
    const o = a[i]!.toLowerCase();
    if (o === 'count' && i + 1 < a.length) {
      const n = parseInt64(a[++i]!);
      if (n === undefined) return c.reply.err(E.notInt);
      count = n <= 0 ? undefined : n;
    } else if (o === 'noack') noack = true;
    else if (o === 'block' && i + 1 < a.length) {
      blockAt = i;
      const n = parseInt64(a[++i]!);
      if (n === undefined) return c.reply.err('ERR timeout is not an integer or out of range');
      if (n < 0) return c.reply.err('ERR timeout is negative');
      blockMs = n;
    } else if (o === 'streams') break;
    else return c.reply.err(E.syntax);
  }
  const rest = a.slice(i + 1);
  if (i >= a.length || rest.length === 0 || rest.length % 2 !== 0) return c.reply.err(arityError('xreadgroup'));
  const n = rest.length / 2;
  const reads: { key: string; s: Stream; g: ConsumerGroup; after: StreamId | undefined }[] = [];
  for (let k = 0; k < n; k++) {
    const key = rest[k]!;
    const rawId = rest[n + k]!;
    const after = rawId === '>' ? undefined : parseId(rawId, 0n);
    if (rawId !== '>' && after === undefined) return c.reply.err(BAD_ID);
    const s = lookup(c, key, 'stream');
    if (s === null) return;
    const g = s?.groups.get(groupName);
    if (s === undefined || g === undefined) {
      return c.reply.err(`NOGROUP No such key '${key}' or consumer group '${groupName}' in XREADGROUP with GROUP option`);
    }
    reads.push({ key, s, g, after });
  }
  // The AOF gets the command without BLOCK: replay must never wait.
  if (blockAt >= 0) c.propagate = [...a.slice(0, blockAt), ...a.slice(blockAt + 2)];
  const now = clockNow();
  const out: { key: string; items: ReadItems }[] = [];
  for (const { key, s, g, after } of reads) {
    seeConsumer(c.db, key, g, consumer, now);
    if (after === undefined) {
      const items = readNew(s, g, consumer, count, noack, now);
      if (items.length > 0) out.push({ key, items });
      continue;
    }
    // History: this consumer's pending entries after the given ID, each delivery counted.
    const items: ReadItems = [];
    const mine = [...g.pel.values()].filter((p) => p.consumer === consumer && cmpId(p.id, after) > 0).sort((x, y) => cmpId(x.id, y.id));
    for (const p of mine) {
      if (count !== undefined && items.length >= count) break;
      p.count++;
      p.deliveredAt = now;
      items.push([p.id, s.find(p.id)]);
    }
    out.push({ key, items });
  }
  if (out.length > 0) return writeRead(c, out);
  if (blockMs === undefined || c.inExec || c.id < 0) return c.reply.nilArray();
  block(c, { db: c.db, keys: reads.map((r) => r.key), left: true, timer: undefined, stream: { group: groupName, consumer, count, noack } }, blockMs);
}

/**
 * Serves an XREADGROUP ... BLOCK waiter after an XADD to `key`: replies with the new entries for
 * its group and returns the command to log (undefined when there is nothing for it).
 */
export function serveStreamWaiter(
  w: Client,
  db: Db,
  key: string,
  st: { group: string; consumer: string; count: number | undefined; noack: boolean },
): string[] | undefined {
  const e = db.get(key);
  if (e === undefined || e.t !== 'stream') return undefined;
  const g = e.v.groups.get(st.group);
  if (g === undefined || cmpId(g.lastDelivered, e.v.lastId) >= 0) return undefined;
  const now = clockNow();
  seeConsumer(db, key, g, st.consumer, now);
  const items = readNew(e.v, g, st.consumer, st.count, st.noack, now);
  writeRead(w, [{ key, items }]);
  return [
    'XREADGROUP', 'GROUP', st.group, st.consumer,
    ...(st.count !== undefined ? ['COUNT', String(st.count)] : []),
    ...(st.noack ? ['NOACK'] : []),
    'STREAMS', key, '>',
  ];
}

function xack(c: Client, a: string[]): void {
  const ids: StreamId[] = [];
  for (let i = 3; i < a.length; i++) {
    const id = parseId(a[i]!, 0n);
    if (id === undefined) return c.reply.err(BAD_ID);
    ids.push(id);
  }
  const s = lookup(c, a[1]!, 'stream');
  if (s === null) return;
  const g = s?.groups.get(a[2]!);
  if (g === undefined) return c.reply.int(0);
  let n = 0;
  for (const id of ids) if (g.pel.delete(fmtId(id))) n++;
  if (n > 0) c.db.touch(a[1]!);
  c.reply.int(n);
}

function xpending(c: Client, a: string[]): void {
  const s = lookup(c, a[1]!, 'stream');
  if (s === null) return;
  const g = s?.groups.get(a[2]!);
  if (g === undefined) return c.reply.err(`NOGROUP No such key '${a[1]!}' or consumer group '${a[2]!}'`);
  const pel = [...g.pel.values()].sort((x, y) => cmpId(x.id, y.id));
  if (a.length === 3) {
    if (pel.length === 0) {
      c.reply.arr(4);
      c.reply.int(0);
      c.reply.nil();
      c.reply.nil();
      c.reply.nilArray();
      return;
    }
    const per = new Map<string, number>();
    for (const p of pel) per.set(p.consumer, (per.get(p.consumer) ?? 0) + 1);
    c.reply.arr(4);
    c.reply.int(pel.length);
    c.reply.bulk(fmtId(pel[0]!.id));
    c.reply.bulk(fmtId(pel[pel.length - 1]!.id));
    const names = [...per.keys()].sort();
    c.reply.arr(names.length);
    for (const name of names) c.reply.bulks([name, String(per.get(name))]);
    return;
  }
  let i = 3;
  let minIdle = 0;
  if (a[3]!.toLowerCase() === 'idle') {
    const v = a[4] === undefined ? undefined : parseInt64(a[4]);
    if (v === undefined) return c.reply.err(E.notInt);
    minIdle = v;
    i = 5;
  }
  if (a.length !== i + 3 && a.length !== i + 4) return c.reply.err(E.syntax);
  const start = parseBound(a[i]!, true);
  const end = parseBound(a[i + 1]!, false);
  if (start === undefined || end === undefined) return c.reply.err(BAD_ID);
  const cnt = parseInt64(a[i + 2]!);
  if (cnt === undefined) return c.reply.err(E.notInt);
  const consumer = a[i + 3];
  const now = clockNow();
  const rows = pel
    .filter((p) => cmpId(p.id, start) >= 0 && cmpId(p.id, end) <= 0)
    .filter((p) => consumer === undefined || p.consumer === consumer)
    .filter((p) => now - p.deliveredAt >= minIdle)
    .slice(0, Math.max(0, cnt));
  c.reply.arr(rows.length);
  for (const p of rows) {
    c.reply.arr(4);
    c.reply.bulk(fmtId(p.id));
    c.reply.bulk(p.consumer);
    c.reply.int(now - p.deliveredAt);
    c.reply.int(p.count);
  }
}

const K: [number, number, number] = [1, 1, 1];
export const streamCommands: CommandSpec[] = defs('stream', [
  { name: 'xadd', arity: -5, flags: ['write', 'denyoom', 'fast'], keys: K, fn: xadd },
  { name: 'xlen', arity: 2, flags: ['readonly', 'fast'], keys: K, fn: xlen },
  { name: 'xrange', arity: -4, flags: ['readonly'], keys: K, fn: xrange },
  { name: 'xgroup', arity: -2, flags: ['write', 'denyoom'], keys: [2, 2, 1], fn: xgroup },
  { name: 'xreadgroup', arity: -7, flags: ['write', 'blocking'], fn: xreadgroup },
  { name: 'xack', arity: -4, flags: ['write', 'fast'], keys: K, fn: xack },
  { name: 'xpending', arity: -3, flags: ['readonly'], keys: K, fn: xpending },
]);

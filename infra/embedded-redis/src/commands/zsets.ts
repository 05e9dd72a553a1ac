import { NOTIFY } from '../notify.ts';
import type { Client } from '../state.ts';
import { SortedSet } from '../store/sortedset.ts';
import { E } from './errors.ts';
import { parseFloatArg, parseInt64 } from './parse.ts';
import { parseBound, replyItems, scoreSlice, zrange, zrangebyscore, zrevrange } from './zrange.ts';
import { defs, lookup } from './types.ts';
import type { CommandSpec } from './types.ts';

function zadd(c: Client, a: string[]): void {
  let i = 2;
  let nx = false;
  let xx = false;
  let gt = false;
  let lt = false;
  let ch = false;
  let incr = false;
  for (; i < a.length; i++) {
    const o = a[i]!.toLowerCase();
    if (o === 'nx') nx = true;
    else if (o === 'xx') xx = true;
    else if (o === 'gt') gt = true;
    else if (o === 'lt') lt = true;
    else if (o === 'ch') ch = true;
    else if (o === 'incr') incr = true;
    else break;
  }
  const rest = a.length - i;
  if (rest === 0 || rest % 2 !== 0) return c.reply.err(E.syntax);
  if (nx && xx) return c.reply.err('ERR XX and NX options at the same time are not compatible');
  if ((gt && nx) || (lt && nx) || (gt && lt)) {
    return c.reply.err('ERR GT, LT, and/or NX options at the same time are not compatible');
  }
  if (incr && rest > 2) return c.reply.err('ERR INCR option supports a single increment-element pair');
  const pairs: [number, string][] = [];
  for (let j = i; j < a.length; j += 2) {
    const s = parseFloatArg(a[j]!);
    if (s === undefined) return c.reply.err(E.notFloat);
    pairs.push([s, a[j + 1]!]);
  }
  let z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  if (z === undefined) {
    if (xx) return incr ? c.reply.nil() : c.reply.int(0);
    z = new SortedSet();
    c.db.put(a[1]!, { t: 'zset', v: z });
  }
  let added = 0;
  let changed = 0;
  let result: number | undefined;
  for (const [score0, m] of pairs) {
    const old = z.dict.get(m);
    let score = score0;
    if (old !== undefined) {
      if (nx) continue;
      if (incr) {
        score = old + score0;
        if (Number.isNaN(score)) {
          if (z.size === 0) c.db.delete(a[1]!);
          return c.reply.err(E.nan);
        }
      }
      if ((gt && score <= old) || (lt && score >= old)) continue;
      result = score;
      if (score !== old) {
        z.set(m, score);
        changed++;
      }
    } else {
      if (xx) continue;
      z.set(m, score);
      added++;
      result = score;
    }
  }
  if (added + changed > 0) c.db.notify(NOTIFY.ZSET, incr ? 'zincr' : 'zadd', a[1]!);
  if (z.size === 0) c.db.delete(a[1]!);
  else if (added + changed > 0) c.db.touch(a[1]!);
  if (incr) {
    if (result === undefined) c.reply.nil();
    else c.reply.dbl(result);
  } else c.reply.int(ch ? added + changed : added);
}

function zrem(c: Client, a: string[]): void {
  const z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  if (z === undefined) return c.reply.int(0);
  let n = 0;
  for (let i = 2; i < a.length; i++) if (z.delete(a[i]!)) n++;
  if (n > 0) c.db.notify(NOTIFY.ZSET, 'zrem', a[1]!);
  if (z.size === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else if (n > 0) c.db.touch(a[1]!);
  c.reply.int(n);
}

function zscore(c: Client, a: string[]): void {
  const z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  const s = z?.dict.get(a[2]!);
  if (s === undefined) c.reply.nil();
  else c.reply.dbl(s);
}

function zincrby(c: Client, a: string[]): void {
  const by = parseFloatArg(a[2]!);
  if (by === undefined) return c.reply.err(E.notFloat);
  let z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  const old = z?.dict.get(a[3]!) ?? 0;
  const s = old + by;
  if (Number.isNaN(s)) return c.reply.err(E.nan);
  if (z === undefined) {
    z = new SortedSet();
    c.db.put(a[1]!, { t: 'zset', v: z });
  }
  z.set(a[3]!, s);
  c.db.touch(a[1]!);
  c.db.notify(NOTIFY.ZSET, 'zincr', a[1]!);
  c.reply.dbl(s);
}

function zcard(c: Client, a: string[]): void {
  const z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  c.reply.int(z?.size ?? 0);
}

function zcount(c: Client, a: string[]): void {
  const min = parseBound(a[2]!);
  const max = parseBound(a[3]!);
  if (!min || !max) return c.reply.err(E.minMaxNotFloat);
  const z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  if (z === undefined) return c.reply.int(0);
  const [f, t] = scoreSlice(z, min, max);
  c.reply.int(t - f);
}

function zremrangebyscore(c: Client, a: string[]): void {
  const min = parseBound(a[2]!);
  const max = parseBound(a[3]!);
  if (!min || !max) return c.reply.err(E.minMaxNotFloat);
  const z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  if (z === undefined) return c.reply.int(0);
  const [f, t] = scoreSlice(z, min, max);
  const removed = z.removeRange(f, t);
  if (removed.length > 0) c.db.notify(NOTIFY.ZSET, 'zremrangebyscore', a[1]!);
  if (z.size === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else if (removed.length > 0) c.db.touch(a[1]!);
  c.reply.int(removed.length);
}

function zrank(rev: boolean) {
  return (c: Client, a: string[]): void => {
    const z = lookup(c, a[1]!, 'zset');
    if (z === null) return;
    const r = z?.rank(a[2]!);
    if (z === undefined || r === undefined) return c.reply.nil();
    c.reply.int(rev ? z.size - 1 - r : r);
  };
}

function zpopmin(c: Client, a: string[]): void {
  if (a.length > 3) return c.reply.err(E.syntax);
  let count = 1;
  if (a.length === 3) {
    const n = parseInt64(a[2]!);
    if (n === undefined) return c.reply.err(E.notInt);
    if (n < 0) return c.reply.err(E.notPositive);
    count = n;
  }
  const z = lookup(c, a[1]!, 'zset');
  if (z === null) return;
  if (z === undefined || count === 0) return c.reply.arr(0);
  const items = z.removeRange(0, Math.min(count, z.size));
  c.db.notify(NOTIFY.ZSET, 'zpopmin', a[1]!);
  if (z.size === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else c.db.touch(a[1]!);
  // Without COUNT Redis answers a flat [member, score]; with COUNT, RESP3 gets pairs.
  if (a.length === 3 && c.reply.proto === 3) return replyItems(c, items, true);
  c.reply.arr(items.length * 2);
  for (const it of items) {
    c.reply.bulk(it.m);
    c.reply.dbl(it.s);
  }
}

const K: [number, number, number] = [1, 1, 1];
const R = ['readonly'];
export const zsetCommands: CommandSpec[] = defs('sorted-set', [
  { name: 'zadd', arity: -4, flags: ['write', 'denyoom', 'fast'], keys: K, fn: zadd },
  { name: 'zrem', arity: -3, flags: ['write', 'fast'], keys: K, fn: zrem },
  { name: 'zscore', arity: 3, flags: ['readonly', 'fast'], keys: K, fn: zscore },
  { name: 'zincrby', arity: 4, flags: ['write', 'denyoom', 'fast'], keys: K, fn: zincrby },
  { name: 'zcard', arity: 2, flags: ['readonly', 'fast'], keys: K, fn: zcard },
  { name: 'zcount', arity: 4, flags: ['readonly', 'fast'], keys: K, fn: zcount },
  { name: 'zrange', arity: -4, flags: R, keys: K, fn: zrange },
  { name: 'zrangebyscore', arity: -4, flags: R, keys: K, fn: zrangebyscore(false) },
  { name: 'zrevrangebyscore', arity: -4, flags: R, keys: K, fn: zrangebyscore(true) },
  { name: 'zrevrange', arity: -4, flags: R, keys: K, fn: zrevrange },
  { name: 'zremrangebyscore', arity: 4, flags: ['write'], keys: K, fn: zremrangebyscore },
  { name: 'zrank', arity: 3, flags: ['readonly', 'fast'], keys: K, fn: zrank(false) },
  { name: 'zrevrank', arity: 3, flags: ['readonly', 'fast'], keys: K, fn: zrank(true) },
  { name: 'zpopmin', arity: -2, flags: ['write', 'fast'], keys: K, fn: zpopmin },
]);

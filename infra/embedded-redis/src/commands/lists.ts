import { NOTIFY } from '../notify.ts';
import type { Client } from '../state.ts';
import { Deque } from '../store/deque.ts';
import { E, arityError } from './errors.ts';
import { parseInt64 } from './parse.ts';
import { defs, lookup } from './types.ts';
import type { CommandSpec } from './types.ts';

function push(left: boolean) {
  return (c: Client, a: string[]): void => {
    let l = lookup(c, a[1]!, 'list');
    if (l === null) return;
    if (l === undefined) {
      l = new Deque();
      c.db.put(a[1]!, { t: 'list', v: l });
    }
    if (left) for (let i = 2; i < a.length; i++) l.unshift(a[i]!);
    else for (let i = 2; i < a.length; i++) l.push(a[i]!);
    c.db.touch(a[1]!);
    c.db.notify(NOTIFY.LIST, left ? 'lpush' : 'rpush', a[1]!);
    c.db.signalReady(a[1]!);
    c.reply.int(l.length);
  };
}

function pop(left: boolean) {
  return (c: Client, a: string[]): void => {
    if (a.length > 3) return c.reply.err(arityError(left ? 'lpop' : 'rpop'));
    let count: number | undefined;
    if (a.length === 3) {
      count = parseInt64(a[2]!);
      if (count === undefined || count < 0) return c.reply.err(E.notPositive);
    }
    const l = lookup(c, a[1]!, 'list');
    if (l === null) return;
    if (l === undefined) return count === undefined ? c.reply.nil() : c.reply.nilArray();
    if (count === undefined) {
      const v = left ? l.shift()! : l.pop()!;
      c.db.notify(NOTIFY.LIST, left ? 'lpop' : 'rpop', a[1]!);
      if (l.length === 0) {
        c.db.delete(a[1]!);
        c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
      } else c.db.touch(a[1]!);
      return c.reply.bulk(v);
    }
    const n = Math.min(count, l.length);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(left ? l.shift()! : l.pop()!);
    if (n > 0) c.db.notify(NOTIFY.LIST, left ? 'lpop' : 'rpop', a[1]!);
    if (l.length === 0) {
      c.db.delete(a[1]!);
      c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
    } else if (n > 0) c.db.touch(a[1]!);
    c.reply.bulks(out);
  };
}

/** Converts Redis start/stop (negative = from the end) into a [from, to) slice, clamped. */
export function rangeIndexes(start: number, stop: number, len: number): [number, number] {
  if (start < 0) start = len + start;
  if (stop < 0) stop = len + stop;
  if (start < 0) start = 0;
  if (start > stop || start >= len) return [0, 0];
  if (stop >= len) stop = len - 1;
  return [start, stop + 1];
}

function lrange(c: Client, a: string[]): void {
  const start = parseInt64(a[2]!);
  const stop = parseInt64(a[3]!);
  if (start === undefined || stop === undefined) return c.reply.err(E.notInt);
  const l = lookup(c, a[1]!, 'list');
  if (l === null) return;
  if (l === undefined) return c.reply.arr(0);
  const [f, t] = rangeIndexes(start, stop, l.length);
  c.reply.bulks(l.slice(f, t));
}

function llen(c: Client, a: string[]): void {
  const l = lookup(c, a[1]!, 'list');
  if (l === null) return;
  c.reply.int(l?.length ?? 0);
}

function ltrim(c: Client, a: string[]): void {
  const start = parseInt64(a[2]!);
  const stop = parseInt64(a[3]!);
  if (start === undefined || stop === undefined) return c.reply.err(E.notInt);
  const l = lookup(c, a[1]!, 'list');
  if (l === null) return;
  if (l === undefined) return c.reply.ok();
  const [f, t] = rangeIndexes(start, stop, l.length);
  const kept = l.slice(f, t);
  c.db.notify(NOTIFY.LIST, 'ltrim', a[1]!);
  if (kept.length === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else {
    l.replace(kept);
    c.db.touch(a[1]!);
  }
  c.reply.ok();
}

function lindex(c: Client, a: string[]): void {
  const idx = parseInt64(a[2]!);
  if (idx === undefined) return c.reply.err(E.notInt);
  const l = lookup(c, a[1]!, 'list');
  if (l === null) return;
  if (l === undefined) return c.reply.nil();
  c.reply.bulkOrNil(l.at(idx < 0 ? l.length + idx : idx));
}

function lrem(c: Client, a: string[]): void {
  const count = parseInt64(a[2]!);
  if (count === undefined) return c.reply.err(E.notInt);
  const l = lookup(c, a[1]!, 'list');
  if (l === null) return;
  if (l === undefined) return c.reply.int(0);
  const el = a[3]!;
  const limit = count === 0 ? Infinity : Math.abs(count);
  // One pass over a copy, then one rebuild: O(n) however many elements go (splice per hit was O(n²)).
  const items = l.toArray();
  const drop = new Array<boolean>(items.length).fill(false);
  let removed = 0;
  const n = items.length;
  for (let j = 0; j < n && removed < limit; j++) {
    const i = count >= 0 ? j : n - 1 - j;
    if (items[i] === el) {
      drop[i] = true;
      removed++;
    }
  }
  if (removed > 0) {
    l.replace(items.filter((_, i) => !drop[i]));
    c.db.notify(NOTIFY.LIST, 'lrem', a[1]!);
  }
  if (l.length === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else if (removed > 0) c.db.touch(a[1]!);
  c.reply.int(removed);
}

const K: [number, number, number] = [1, 1, 1];
export const listCommands: CommandSpec[] = defs('list', [
  { name: 'lpush', arity: -3, flags: ['write', 'denyoom', 'fast'], keys: K, fn: push(true) },
  { name: 'rpush', arity: -3, flags: ['write', 'denyoom', 'fast'], keys: K, fn: push(false) },
  { name: 'lpop', arity: -2, flags: ['write', 'fast'], keys: K, fn: pop(true) },
  { name: 'rpop', arity: -2, flags: ['write', 'fast'], keys: K, fn: pop(false) },
  { name: 'lrange', arity: 4, flags: ['readonly'], keys: K, fn: lrange },
  { name: 'llen', arity: 2, flags: ['readonly', 'fast'], keys: K, fn: llen },
  { name: 'lindex', arity: 3, flags: ['readonly'], keys: K, fn: lindex },
  { name: 'lrem', arity: 4, flags: ['write'], keys: K, fn: lrem },
  { name: 'ltrim', arity: 4, flags: ['write'], keys: K, fn: ltrim },
]);

import { NOTIFY } from '../notify.ts';
import type { Client } from '../state.ts';
import { E } from './errors.ts';
import { parseInt64 } from './parse.ts';
import { defs, lookup } from './types.ts';
import type { CommandSpec } from './types.ts';

function sadd(c: Client, a: string[]): void {
  let s = lookup(c, a[1]!, 'set');
  if (s === null) return;
  if (s === undefined) {
    s = new Set<string>();
    c.db.put(a[1]!, { t: 'set', v: s });
  }
  let n = 0;
  for (let i = 2; i < a.length; i++) {
    if (!s.has(a[i]!)) {
      s.add(a[i]!);
      n++;
    }
  }
  if (n > 0) {
    c.db.touch(a[1]!);
    c.db.notify(NOTIFY.SET, 'sadd', a[1]!);
  }
  c.reply.int(n);
}

function srem(c: Client, a: string[]): void {
  const s = lookup(c, a[1]!, 'set');
  if (s === null) return;
  if (s === undefined) return c.reply.int(0);
  let n = 0;
  for (let i = 2; i < a.length; i++) if (s.delete(a[i]!)) n++;
  if (n > 0) c.db.notify(NOTIFY.SET, 'srem', a[1]!);
  if (s.size === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else if (n > 0) c.db.touch(a[1]!);
  c.reply.int(n);
}

function smembers(c: Client, a: string[]): void {
  const s = lookup(c, a[1]!, 'set');
  if (s === null) return;
  c.reply.setOfBulks(s === undefined ? [] : [...s]);
}

function sismember(c: Client, a: string[]): void {
  const s = lookup(c, a[1]!, 'set');
  if (s === null) return;
  c.reply.int(s?.has(a[2]!) === true ? 1 : 0);
}

function scard(c: Client, a: string[]): void {
  const s = lookup(c, a[1]!, 'set');
  if (s === null) return;
  c.reply.int(s?.size ?? 0);
}

/** Removes and returns up to `n` uniformly random members (O(size) per pick: sets here are small). */
function takeRandom(set: Set<string>, n: number): string[] {
  const out: string[] = [];
  while (out.length < n && set.size > 0) {
    let i = Math.floor(Math.random() * set.size);
    for (const m of set) {
      if (i-- === 0) {
        set.delete(m);
        out.push(m);
        break;
      }
    }
  }
  return out;
}

function spop(c: Client, a: string[]): void {
  if (a.length > 3) return c.reply.err(E.syntax);
  let count: number | undefined;
  if (a.length === 3) {
    count = parseInt64(a[2]!);
    if (count === undefined || count < 0) return c.reply.err(E.notPositive);
  }
  const s = lookup(c, a[1]!, 'set');
  if (s === null) return;
  if (s === undefined) return count === undefined ? c.reply.nil() : c.reply.setOfBulks([]);
  const taken = takeRandom(s, count ?? 1);
  // A random choice must not be re-made on AOF replay: log which members went.
  c.propagate = ['SREM', a[1]!, ...taken];
  if (taken.length > 0) c.db.notify(NOTIFY.SET, 'spop', a[1]!);
  if (s.size === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else if (taken.length > 0) c.db.touch(a[1]!);
  if (count === undefined) c.reply.bulk(taken[0]!);
  else c.reply.setOfBulks(taken);
}

const K: [number, number, number] = [1, 1, 1];
export const setCommands: CommandSpec[] = defs('set', [
  { name: 'sadd', arity: -3, flags: ['write', 'denyoom', 'fast'], keys: K, fn: sadd },
  { name: 'srem', arity: -3, flags: ['write', 'fast'], keys: K, fn: srem },
  { name: 'smembers', arity: 2, flags: ['readonly'], keys: K, fn: smembers },
  { name: 'sismember', arity: 3, flags: ['readonly', 'fast'], keys: K, fn: sismember },
  { name: 'spop', arity: -2, flags: ['write', 'fast'], keys: K, fn: spop },
  { name: 'scard', arity: 2, flags: ['readonly', 'fast'], keys: K, fn: scard },
]);

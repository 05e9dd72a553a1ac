import { NOTIFY } from '../notify.ts';
import type { Client } from '../state.ts';
import { E, arityError } from './errors.ts';
import { inInt64, parseBig } from './parse.ts';
import { defs, lookup } from './types.ts';
import type { CommandSpec } from './types.ts';

function writable(c: Client, key: string): Map<string, string> | null {
  const h = lookup(c, key, 'hash');
  if (h === null) return null;
  if (h !== undefined) return h;
  const m = new Map<string, string>();
  c.db.put(key, { t: 'hash', v: m });
  return m;
}

function hset(name: string) {
  return (c: Client, a: string[]): void => {
    if (a.length % 2 !== 0) return c.reply.err(arityError(name));
    const h = writable(c, a[1]!);
    if (h === null) return;
    let added = 0;
    for (let i = 2; i < a.length; i += 2) {
      if (!h.has(a[i]!)) added++;
      h.set(a[i]!, a[i + 1]!);
    }
    c.db.touch(a[1]!);
    c.db.notify(NOTIFY.HASH, 'hset', a[1]!);
    if (name === 'hmset') c.reply.ok();
    else c.reply.int(added);
  };
}

function hsetnx(c: Client, a: string[]): void {
  const cur = lookup(c, a[1]!, 'hash');
  if (cur === null) return;
  if (cur?.has(a[2]!) === true) return c.reply.int(0);
  const h = writable(c, a[1]!);
  if (h === null) return;
  h.set(a[2]!, a[3]!);
  c.db.touch(a[1]!);
  c.db.notify(NOTIFY.HASH, 'hset', a[1]!);
  c.reply.int(1);
}

function hget(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  c.reply.bulkOrNil(h?.get(a[2]!));
}

function hmget(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  c.reply.arr(a.length - 2);
  for (let i = 2; i < a.length; i++) c.reply.bulkOrNil(h?.get(a[i]!));
}

function hgetall(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  if (h === undefined) return c.reply.map(0);
  c.reply.map(h.size);
  for (const [f, v] of h) {
    c.reply.bulk(f);
    c.reply.bulk(v);
  }
}

function hdel(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  if (h === undefined) return c.reply.int(0);
  let n = 0;
  for (let i = 2; i < a.length; i++) if (h.delete(a[i]!)) n++;
  if (n > 0) c.db.notify(NOTIFY.HASH, 'hdel', a[1]!);
  if (h.size === 0) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  } else if (n > 0) c.db.touch(a[1]!);
  c.reply.int(n);
}

function hexists(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  c.reply.int(h?.has(a[2]!) === true ? 1 : 0);
}

function hlen(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  c.reply.int(h?.size ?? 0);
}

function hkeys(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  c.reply.bulks(h === undefined ? [] : [...h.keys()]);
}

function hvals(c: Client, a: string[]): void {
  const h = lookup(c, a[1]!, 'hash');
  if (h === null) return;
  c.reply.bulks(h === undefined ? [] : [...h.values()]);
}

function hincrby(c: Client, a: string[]): void {
  const by = parseBig(a[3]!);
  if (by === undefined) return c.reply.err(E.notInt);
  const cur = lookup(c, a[1]!, 'hash');
  if (cur === null) return;
  let base = 0n;
  const old = cur?.get(a[2]!);
  if (old !== undefined) {
    const p = parseBig(old);
    if (p === undefined) return c.reply.err(E.hashNotInt);
    base = p;
  }
  const n = base + by;
  if (!inInt64(n)) return c.reply.err(E.overflow);
  const h = writable(c, a[1]!);
  if (h === null) return;
  h.set(a[2]!, n.toString());
  c.db.touch(a[1]!);
  c.db.notify(NOTIFY.HASH, 'hincrby', a[1]!);
  c.reply.out += ':' + n.toString() + '\r\n';
}

const WF = ['write', 'denyoom', 'fast'];
const R = ['readonly', 'fast'];
const K: [number, number, number] = [1, 1, 1];
export const hashCommands: CommandSpec[] = defs('hash', [
  { name: 'hset', arity: -4, flags: WF, keys: K, fn: hset('hset') },
  { name: 'hmset', arity: -4, flags: WF, keys: K, fn: hset('hmset') },
  { name: 'hsetnx', arity: 4, flags: WF, keys: K, fn: hsetnx },
  { name: 'hget', arity: 3, flags: R, keys: K, fn: hget },
  { name: 'hmget', arity: -3, flags: R, keys: K, fn: hmget },
  { name: 'hgetall', arity: 2, flags: ['readonly'], keys: K, fn: hgetall },
  { name: 'hdel', arity: -3, flags: ['write', 'fast'], keys: K, fn: hdel },
  { name: 'hexists', arity: 3, flags: R, keys: K, fn: hexists },
  { name: 'hlen', arity: 2, flags: R, keys: K, fn: hlen },
  { name: 'hkeys', arity: 2, flags: ['readonly'], keys: K, fn: hkeys },
  { name: 'hvals', arity: 2, flags: ['readonly'], keys: K, fn: hvals },
  { name: 'hincrby', arity: 4, flags: WF, keys: K, fn: hincrby },
]);

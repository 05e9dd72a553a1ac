import { now as clockNow } from '../clock.ts';
import { NOTIFY } from '../notify.ts';
import type { Client } from '../state.ts';
import { E, invalidExpire } from './errors.ts';
import { incrByFloat } from './decimal.ts';
import { expireToAbsMs, inInt64, parseBig } from './parse.ts';
import { defs, lookup } from './types.ts';
import type { CommandSpec } from './types.ts';

/** Parses an EX/PX/EXAT/PXAT value into an absolute ms time; replies and returns undefined on error. */
export function expireArg(c: Client, unit: string, raw: string, cmd: string, now: number): number | undefined {
  const n = parseBig(raw);
  if (n === undefined) {
    c.reply.err(E.notInt);
    return undefined;
  }
  const at = n <= 0n ? undefined : expireToAbsMs(n, unit === 'ex' || unit === 'exat', unit === 'ex' || unit === 'px', now);
  if (at === undefined || at <= 0) {
    c.reply.err(invalidExpire(cmd));
    return undefined;
  }
  return at;
}

function set(c: Client, a: string[]): void {
  const key = a[1]!;
  const val = a[2]!;
  if (a.length === 3) {
    c.db.put(key, { t: 'string', v: val });
    c.db.notify(NOTIFY.STRING, 'set', key);
    c.reply.ok();
    return;
  }
  let nx = false;
  let xx = false;
  let get = false;
  let keepTtl = false;
  let unit = '';
  let raw = '';
  for (let i = 3; i < a.length; i++) {
    const o = a[i]!.toLowerCase();
    const hasNext = i + 1 < a.length;
    if (o === 'nx' && !xx) nx = true;
    else if (o === 'xx' && !nx) xx = true;
    else if (o === 'get') get = true;
    else if (o === 'keepttl' && unit === '') keepTtl = true;
    else if ((o === 'ex' || o === 'px' || o === 'exat' || o === 'pxat') && unit === '' && !keepTtl && hasNext) {
      unit = o;
      raw = a[++i]!;
    } else {
      c.reply.err(E.syntax);
      return;
    }
  }
  const now = clockNow();
  let at: number | undefined;
  if (unit !== '') {
    at = expireArg(c, unit, raw, 'set', now);
    if (at === undefined) return;
  }
  const cur = c.db.get(key, now);
  if (get) {
    if (cur !== undefined && cur.t !== 'string') {
      c.reply.err(E.wrongType);
      return;
    }
  }
  if ((nx && cur !== undefined) || (xx && cur === undefined)) {
    if (get) c.reply.bulkOrNil(cur?.t === 'string' ? cur.v : undefined);
    else c.reply.nil();
    return;
  }
  c.db.put(key, { t: 'string', v: val }, keepTtl);
  c.db.notify(NOTIFY.STRING, 'set', key);
  if (at !== undefined) {
    // Redis 7.0 keeps a deadline already past and lets the key expire (with its 'expired' event).
    c.db.setExpire(key, at);
    c.db.notify(NOTIFY.GENERIC, 'expire', key);
  }
  if (get) c.reply.bulkOrNil(cur?.t === 'string' ? cur.v : undefined);
  else c.reply.ok();
}

function get(c: Client, a: string[]): void {
  const v = lookup(c, a[1]!, 'string');
  if (v === null) return;
  c.reply.bulkOrNil(v);
}

function setexLike(unit: 'ex' | 'px', cmd: string) {
  return (c: Client, a: string[]): void => {
    const now = clockNow();
    const at = expireArg(c, unit, a[2]!, cmd, now);
    if (at === undefined) return;
    c.db.put(a[1]!, { t: 'string', v: a[3]! });
    c.db.setExpire(a[1]!, at);
    c.db.notify(NOTIFY.STRING, 'set', a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'expire', a[1]!);
    c.reply.ok();
  };
}

function setnx(c: Client, a: string[]): void {
  if (c.db.get(a[1]!) !== undefined) return c.reply.int(0);
  c.db.put(a[1]!, { t: 'string', v: a[2]! });
  c.db.notify(NOTIFY.STRING, 'set', a[1]!);
  c.reply.int(1);
}

function getdel(c: Client, a: string[]): void {
  const v = lookup(c, a[1]!, 'string');
  if (v === null) return;
  if (v !== undefined) {
    c.db.delete(a[1]!);
    c.db.notify(NOTIFY.GENERIC, 'del', a[1]!);
  }
  c.reply.bulkOrNil(v);
}

function getex(c: Client, a: string[]): void {
  const key = a[1]!;
  let unit = '';
  let raw = '';
  let persist = false;
  for (let i = 2; i < a.length; i++) {
    const o = a[i]!.toLowerCase();
    if ((o === 'ex' || o === 'px' || o === 'exat' || o === 'pxat') && unit === '' && !persist && i + 1 < a.length) {
      unit = o;
      raw = a[++i]!;
    } else if (o === 'persist' && unit === '') persist = true;
    else return c.reply.err(E.syntax);
  }
  const now = clockNow();
  let at: number | undefined;
  if (unit !== '') {
    at = expireArg(c, unit, raw, 'getex', now);
    if (at === undefined) return;
  }
  const v = lookup(c, key, 'string');
  if (v === null) return;
  if (v === undefined) return c.reply.nil();
  c.reply.bulk(v);
  if (at !== undefined) {
    if (at <= now) {
      c.db.delete(key);
      c.db.notify(NOTIFY.GENERIC, 'del', key);
    } else {
      c.db.setExpire(key, at);
      c.db.notify(NOTIFY.GENERIC, 'expire', key);
    }
  } else if (persist && c.db.ttlAt(key) !== undefined) {
    c.db.expires.delete(key);
    c.db.touch(key);
    c.db.notify(NOTIFY.GENERIC, 'persist', key);
  }
}

function mget(c: Client, a: string[]): void {
  c.reply.arr(a.length - 1);
  for (let i = 1; i < a.length; i++) {
    const e = c.db.get(a[i]!);
    if (e !== undefined && e.t === 'string') c.reply.bulk(e.v);
    else c.reply.nil();
  }
}

function mset(c: Client, a: string[]): void {
  if (a.length % 2 === 0) return c.reply.err("ERR wrong number of arguments for 'mset' command");
  for (let i = 1; i < a.length; i += 2) {
    c.db.put(a[i]!, { t: 'string', v: a[i + 1]! });
    c.db.notify(NOTIFY.STRING, 'set', a[i]!);
  }
  c.reply.ok();
}

function getset(c: Client, a: string[]): void {
  const v = lookup(c, a[1]!, 'string');
  if (v === null) return;
  c.db.put(a[1]!, { t: 'string', v: a[2]! });
  c.db.notify(NOTIFY.STRING, 'set', a[1]!);
  c.reply.bulkOrNil(v);
}

function msetnx(c: Client, a: string[]): void {
  if (a.length % 2 === 0) return c.reply.err("ERR wrong number of arguments for 'msetnx' command");
  for (let i = 1; i < a.length; i += 2) if (c.db.get(a[i]!) !== undefined) return c.reply.int(0);
  for (let i = 1; i < a.length; i += 2) {
    c.db.put(a[i]!, { t: 'string', v: a[i + 1]! });
    c.db.notify(NOTIFY.STRING, 'set', a[i]!);
  }
  c.reply.int(1);
}

function incrBy(c: Client, key: string, by: bigint): void {
  const v = lookup(c, key, 'string');
  if (v === null) return;
  let cur = 0n;
  if (v !== undefined) {
    const p = parseBig(v);
    if (p === undefined) return c.reply.err(E.notInt);
    cur = p;
  }
  const n = cur + by;
  if (!inInt64(n)) return c.reply.err(E.overflow);
  c.db.put(key, { t: 'string', v: n.toString() }, true);
  c.db.notify(NOTIFY.STRING, 'incrby', key);
  c.reply.out += ':' + n.toString() + '\r\n';
}

function incrbyCmd(sign: 1n | -1n, fixed: boolean) {
  return (c: Client, a: string[]): void => {
    if (fixed) return incrBy(c, a[1]!, sign);
    const by = parseBig(a[2]!);
    if (by === undefined) return c.reply.err(E.notInt);
    if (sign === -1n && by === -9223372036854775808n) return c.reply.err('ERR decrement would overflow');
    incrBy(c, a[1]!, by * sign);
  };
}

function incrbyfloat(c: Client, a: string[]): void {
  const key = a[1]!;
  const v = lookup(c, key, 'string');
  if (v === null) return;
  const r = incrByFloat(v ?? '0', a[2]!);
  if ('error' in r) {
    return c.reply.err(r.error === 'notFloat' ? E.notFloat : 'ERR increment would produce NaN or Infinity');
  }
  c.db.put(key, { t: 'string', v: r.ok }, true);
  c.db.notify(NOTIFY.STRING, 'incrbyfloat', key);
  c.reply.bulk(r.ok);
}

function append(c: Client, a: string[]): void {
  const v = lookup(c, a[1]!, 'string');
  if (v === null) return;
  const n = (v ?? '') + a[2]!;
  c.db.put(a[1]!, { t: 'string', v: n }, true);
  c.db.notify(NOTIFY.STRING, 'append', a[1]!);
  c.reply.int(n.length);
}

function strlen(c: Client, a: string[]): void {
  const v = lookup(c, a[1]!, 'string');
  if (v === null) return;
  c.reply.int(v?.length ?? 0);
}

const W = ['write', 'denyoom'];
const R = ['readonly', 'fast'];
const WF = ['write', 'denyoom', 'fast'];
export const stringCommands: CommandSpec[] = defs('string', [
  { name: 'get', arity: 2, flags: R, keys: [1, 1, 1], fn: get, summary: 'Get the value of a key' },
  { name: 'set', arity: -3, flags: W, keys: [1, 1, 1], fn: set, summary: 'Set the string value of a key' },
  { name: 'setex', arity: 4, flags: W, keys: [1, 1, 1], fn: setexLike('ex', 'setex') },
  { name: 'psetex', arity: 4, flags: W, keys: [1, 1, 1], fn: setexLike('px', 'psetex') },
  { name: 'setnx', arity: 3, flags: WF, keys: [1, 1, 1], fn: setnx },
  { name: 'getdel', arity: 2, flags: ['write', 'fast'], keys: [1, 1, 1], fn: getdel },
  { name: 'getex', arity: -2, flags: ['write', 'fast'], keys: [1, 1, 1], fn: getex },
  { name: 'mget', arity: -2, flags: R, keys: [1, -1, 1], fn: mget },
  { name: 'mset', arity: -3, flags: W, keys: [1, -1, 2], fn: mset },
  { name: 'getset', arity: 3, flags: WF, keys: [1, 1, 1], fn: getset },
  { name: 'msetnx', arity: -3, flags: W, keys: [1, -1, 2], fn: msetnx },
  { name: 'incr', arity: 2, flags: WF, keys: [1, 1, 1], fn: incrbyCmd(1n, true) },
  { name: 'decr', arity: 2, flags: WF, keys: [1, 1, 1], fn: incrbyCmd(-1n, true) },
  { name: 'incrby', arity: 3, flags: WF, keys: [1, 1, 1], fn: incrbyCmd(1n, false) },
  { name: 'decrby', arity: 3, flags: WF, keys: [1, 1, 1], fn: incrbyCmd(-1n, false) },
  { name: 'incrbyfloat', arity: 3, flags: WF, keys: [1, 1, 1], fn: incrbyfloat },
  { name: 'append', arity: 3, flags: WF, keys: [1, 1, 1], fn: append },
  { name: 'strlen', arity: 2, flags: R, keys: [1, 1, 1], fn: strlen },
]);

import { now as clockNow } from '../clock.ts';
import { NOTIFY } from '../notify.ts';
import type { Client } from '../state.ts';
import type { Entry } from '../store/db.ts';
import { E, invalidExpire } from './errors.ts';
import { expireToAbsMs, globMatch, parseBig, parseInt64 } from './parse.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';

function del(c: Client, a: string[]): void {
  let n = 0;
  for (let i = 1; i < a.length; i++) {
    if (c.db.get(a[i]!) !== undefined && c.db.delete(a[i]!)) {
      c.db.notify(NOTIFY.GENERIC, 'del', a[i]!);
      n++;
    }
  }
  c.reply.int(n);
}

function exists(c: Client, a: string[]): void {
  let n = 0;
  const now = clockNow();
  for (let i = 1; i < a.length; i++) if (c.db.get(a[i]!, now) !== undefined) n++;
  c.reply.int(n);
}

function type(c: Client, a: string[]): void {
  c.reply.simple(c.db.get(a[1]!)?.t ?? 'none');
}

function keys(c: Client, a: string[]): void {
  const pat = a[1]!;
  const all = pat === '*';
  const now = clockNow();
  const out: string[] = [];
  for (const k of c.db.data.keys()) {
    if ((all || globMatch(pat, k)) && c.db.get(k, now) !== undefined) out.push(k);
  }
  c.reply.bulks(out);
}

function scan(c: Client, a: string[]): void {
  const cursor = parseCursor(a[1]!);
  if (cursor === undefined) return c.reply.err('ERR invalid cursor');
  let pat: string | undefined;
  let count = 10;
  let typ: string | undefined;
  for (let i = 2; i < a.length; i++) {
    const o = a[i]!.toLowerCase();
    const more = i + 1 < a.length;
    if (o === 'count' && more) {
      const n = parseInt64(a[++i]!);
      if (n === undefined) return c.reply.err(E.notInt);
      if (n < 1) return c.reply.err(E.syntax);
      count = n;
    } else if (o === 'match' && more) {
      pat = a[++i]!;
      if (pat === '*') pat = undefined;
    } else if (o === 'type' && more) {
      typ = a[++i]!.toLowerCase();
    } else return c.reply.err(E.syntax);
  }
  // Cursor = SCAN sequence number of the next entry to visit. Map order is insertion order and
  // sequence numbers only grow, so entries present for the whole scan are never skipped even if
  // others are deleted meanwhile.
  const db = c.db;
  const parked = db.scanIters.get(cursor);
  db.scanIters.delete(cursor);
  let it: Iterator<[string, Entry]>;
  let pending: [string, Entry] | undefined;
  if (parked !== undefined) {
    it = parked.it;
    pending = parked.pending;
  } else {
    it = db.data.entries();
    if (cursor > 0) {
      for (;;) {
        const n = it.next();
        if (n.done === true) break;
        if (n.value[1].seq >= cursor) {
          pending = n.value;
          break;
        }
      }
    }
  }
  const now = clockNow();
  const out: string[] = [];
  let next = 0;
  let visited = 0;
  for (;;) {
    let cur: [string, Entry] | undefined = pending;
    pending = undefined;
    if (cur === undefined) {
      const n = it.next();
      if (n.done === true) break;
      cur = n.value;
    }
    if (visited >= count) {
      next = cur[1].seq;
      // Park the live iterator so the follow-up call resumes in O(COUNT) instead of re-walking.
      if (db.scanIters.size >= 64) {
        const oldest = db.scanIters.keys().next();
        if (oldest.done !== true) db.scanIters.delete(oldest.value);
      }
      db.scanIters.set(next, { it, pending: cur });
      break;
    }
    visited++;
    const [k, e] = cur;
    if (db.data.get(k) !== e || db.get(k, now) === undefined) continue;
    if (typ !== undefined && e.t !== typ) continue;
    if (pat !== undefined && !globMatch(pat, k)) continue;
    out.push(k);
  }
  c.reply.arr(2);
  c.reply.bulk(String(next));
  c.reply.bulks(out);
}

/** Redis reads the cursor with strtoull; any number is accepted, unknown ones just end the scan. */
function parseCursor(s: string): number | undefined {
  if (!/^-?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 0 ? n : Number.MAX_SAFE_INTEGER;
}

function expireCmd(unit: 'ex' | 'px' | 'exat' | 'pxat', name: string) {
  return (c: Client, a: string[]): void => {
    const key = a[1]!;
    let nx = false;
    let xx = false;
    let gt = false;
    let lt = false;
    for (let i = 3; i < a.length; i++) {
      const o = a[i]!.toLowerCase();
      if (o === 'nx') nx = true;
      else if (o === 'xx') xx = true;
      else if (o === 'gt') gt = true;
      else if (o === 'lt') lt = true;
      else return c.reply.err(`ERR Unsupported option ${a[i]!}`);
    }
    if (nx && (xx || gt || lt)) {
      return c.reply.err('ERR NX and XX, GT or LT options at the same time are not compatible');
    }
    if (gt && lt) return c.reply.err('ERR GT and LT options at the same time are not compatible');
    const n = parseBig(a[2]!);
    if (n === undefined) return c.reply.err(E.notInt);
    const now = clockNow();
    const at = expireToAbsMs(n, unit === 'ex' || unit === 'exat', unit === 'ex' || unit === 'px', now);
    if (at === undefined) return c.reply.err(invalidExpire(name));
    if (c.db.get(key, now) === undefined) return c.reply.int(0);
    const cur = c.db.ttlAt(key);
    if (nx && cur !== undefined) return c.reply.int(0);
    if (xx && cur === undefined) return c.reply.int(0);
    if (gt && (cur === undefined || at <= cur)) return c.reply.int(0);
    if (lt && cur !== undefined && at >= cur) return c.reply.int(0);
    if (at <= now) {
      c.db.delete(key);
      c.db.notify(NOTIFY.GENERIC, 'del', key);
    } else {
      c.db.setExpire(key, at);
      c.db.notify(NOTIFY.GENERIC, 'expire', key);
    }
    c.reply.int(1);
  };
}

function ttlCmd(ms: boolean) {
  return (c: Client, a: string[]): void => {
    const now = clockNow();
    if (c.db.get(a[1]!, now) === undefined) return c.reply.int(-2);
    const at = c.db.ttlAt(a[1]!);
    if (at === undefined) return c.reply.int(-1);
    const left = Math.max(0, at - now);
    c.reply.int(ms ? left : Math.floor((left + 500) / 1000));
  };
}

function expiretimeCmd(ms: boolean) {
  return (c: Client, a: string[]): void => {
    if (c.db.get(a[1]!) === undefined) return c.reply.int(-2);
    const at = c.db.ttlAt(a[1]!);
    if (at === undefined) return c.reply.int(-1);
    c.reply.int(ms ? at : Math.floor(at / 1000));
  };
}

function persist(c: Client, a: string[]): void {
  if (c.db.get(a[1]!) === undefined || c.db.ttlAt(a[1]!) === undefined) return c.reply.int(0);
  c.db.expires.delete(a[1]!);
  c.db.touch(a[1]!);
  c.db.notify(NOTIFY.GENERIC, 'persist', a[1]!);
  c.reply.int(1);
}

function rename(c: Client, a: string[]): void {
  const src = a[1]!;
  const dst = a[2]!;
  const e = c.db.get(src);
  if (e === undefined) return c.reply.err(E.noKey);
  if (src === dst) return c.reply.ok();
  const at = c.db.ttlAt(src);
  c.db.delete(src);
  c.db.delete(dst);
  const { seq: _seq, ...value } = e;
  c.db.put(dst, value);
  if (at !== undefined) c.db.setExpire(dst, at);
  c.db.notify(NOTIFY.GENERIC, 'rename_from', src);
  c.db.notify(NOTIFY.GENERIC, 'rename_to', dst);
  c.reply.ok();
}

const WF = ['write', 'fast'];
export const keyCommands: CommandSpec[] = defs('generic', [
  { name: 'del', arity: -2, flags: ['write'], keys: [1, -1, 1], fn: del },
  { name: 'unlink', arity: -2, flags: ['write', 'fast'], keys: [1, -1, 1], fn: del },
  { name: 'exists', arity: -2, flags: ['readonly', 'fast'], keys: [1, -1, 1], fn: exists },
  { name: 'type', arity: 2, flags: ['readonly', 'fast'], keys: [1, 1, 1], fn: type },
  { name: 'keys', arity: 2, flags: ['readonly'], fn: keys },
  { name: 'scan', arity: -2, flags: ['readonly'], fn: scan },
  { name: 'expire', arity: -3, flags: WF, keys: [1, 1, 1], fn: expireCmd('ex', 'expire') },
  { name: 'pexpire', arity: -3, flags: WF, keys: [1, 1, 1], fn: expireCmd('px', 'pexpire') },
  { name: 'expireat', arity: -3, flags: WF, keys: [1, 1, 1], fn: expireCmd('exat', 'expireat') },
  { name: 'pexpireat', arity: -3, flags: WF, keys: [1, 1, 1], fn: expireCmd('pxat', 'pexpireat') },
  { name: 'ttl', arity: 2, flags: ['readonly', 'fast'], keys: [1, 1, 1], fn: ttlCmd(false) },
  { name: 'pttl', arity: 2, flags: ['readonly', 'fast'], keys: [1, 1, 1], fn: ttlCmd(true) },
  { name: 'expiretime', arity: 2, flags: ['readonly', 'fast'], keys: [1, 1, 1], fn: expiretimeCmd(false) },
  { name: 'pexpiretime', arity: 2, flags: ['readonly', 'fast'], keys: [1, 1, 1], fn: expiretimeCmd(true) },
  { name: 'persist', arity: 2, flags: WF, keys: [1, 1, 1], fn: persist },
  { name: 'rename', arity: 3, flags: ['write'], keys: [1, 2, 1], fn: rename },
]);

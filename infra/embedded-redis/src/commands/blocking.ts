// BLPOP / BRPOP. A client finding every key empty is parked on each key's FIFO queue; a push to
// one of them marks the key ready, and after the pushing command (or the whole EXEC / script)
// the waiters are served first come first served while the list has elements — Redis 7.0's
// order. Inside MULTI/EXEC or a script nothing blocks: an empty result is a null array at once.
import { now as clockNow, clockPinned, pinClock } from '../clock.ts';
import { NOTIFY } from '../notify.ts';
import type { BlockState, Client, ServerState } from '../state.ts';
import type { Db } from '../store/db.ts';
import { E } from './errors.ts';
import { serveStreamWaiter } from './streams.ts';
import { parseFloatArg } from './parse.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';

/** Pops one element into c's reply as [key, value]; false if the key holds no list elements. */
function popInto(c: Client, db: Db, key: string, left: boolean): boolean {
  const e = db.get(key);
  if (e === undefined || e.t !== 'list' || e.v.length === 0) return false;
  const l = e.v;
  const v = left ? l.shift()! : l.pop()!;
  db.notify(NOTIFY.LIST, left ? 'lpop' : 'rpop', key);
  if (l.length === 0) {
    db.delete(key);
    db.notify(NOTIFY.GENERIC, 'del', key);
  } else db.touch(key);
  c.reply.arr(2);
  c.reply.bulk(key);
  c.reply.bulk(v);
  return true;
}

/** Redis's getTimeoutFromObjectOrReply for seconds: a float, rounded up to milliseconds. */
export function parseTimeout(c: Client, raw: string): number | undefined {
  const f = parseFloatArg(raw);
  if (f === undefined) {
    c.reply.err('ERR timeout is not a float or out of range');
    return undefined;
  }
  const ms = f * 1000;
  if (ms > 2 ** 63) {
    c.reply.err('ERR timeout is out of range');
    return undefined;
  }
  const t = Math.ceil(ms);
  if (t < 0) {
    c.reply.err('ERR timeout is negative');
    return undefined;
  }
  return t;
}

function bpop(left: boolean) {
  return (c: Client, a: string[]): void => {
    const timeout = parseTimeout(c, a[a.length - 1]!);
    if (timeout === undefined) return;
    const keys = a.slice(1, -1);
    for (const key of keys) {
      const e = c.db.get(key);
      if (e === undefined) continue;
      if (e.t !== 'list') return c.reply.err(E.wrongType);
      if (popInto(c, c.db, key, left)) {
        c.propagate = [left ? 'LPOP' : 'RPOP', key];
        return;
      }
    }
    if (c.inExec || c.id < 0) return c.reply.nilArray();
    block(c, { db: c.db, keys: [...new Set(keys)], left, timer: undefined }, timeout);
  };
}

/**
 * Parks c on each key's queue until served or `timeoutMs` passes (0 = forever), when it gets a
 * null array. Timeouts are not logged anywhere: only a served pop or read changes data.
 */
export function block(c: Client, state: BlockState, timeoutMs: number): void {
  c.blocked = state;
  for (const key of state.keys) {
    let q = state.db.blocking.get(key);
    if (q === undefined) state.db.blocking.set(key, (q = []));
    q.push(c);
  }
  if (timeoutMs > 0 && timeoutMs < 2 ** 31) {
    state.timer = setTimeout(() => {
      if (c.blocked !== state) return;
      c.reply.nilArray();
      unblock(c, true);
    }, timeoutMs);
  }
}

/** Takes c off every key queue; with `resume`, sends its reply and goes on with its requests. */
export function unblock(c: Client, resume: boolean): void {
  const b = c.blocked;
  if (b === undefined) return;
  c.blocked = undefined;
  if (b.timer !== undefined) clearTimeout(b.timer);
  for (const k of b.keys) {
    const q = b.db.blocking.get(k);
    if (q === undefined) continue;
    const i = q.indexOf(c);
    if (i >= 0) q.splice(i, 1);
    if (q.length === 0) b.db.blocking.delete(k);
  }
  // After the current batch (whose AOF records and replies go out first).
  if (resume) queueMicrotask(() => c.resume());
}

/** Serves clients waiting on keys that received elements; called after each top-level command. */
export function serveReadyKeys(s: ServerState): void {
  while (s.readyKeys.length > 0) {
    const { db, key } = s.readyKeys.shift()!;
    const q = db.blocking.get(key);
    if (q === undefined) continue;
    // In arrival order. A list waiter takes one element (stop when the list is empty); a stream
    // waiter reads what is new for its group (later waiters of the same group may find nothing).
    for (const w of [...q] as Client[]) {
      const b = w.blocked;
      if (b === undefined) continue;
      // The time recorded is the time the serve ran at (replay pins the clock to it).
      const ts = clockNow();
      const outer = !clockPinned();
      if (outer) pinClock(ts);
      let logged: string[] | undefined;
      try {
        if (b.stream !== undefined) logged = serveStreamWaiter(w, db, key, b.stream);
        else if (popInto(w, db, key, b.left)) logged = [b.left ? 'LPOP' : 'RPOP', key];
      } finally {
        if (outer) pinClock(undefined);
      }
      if (logged === undefined) {
        if (b.stream !== undefined) continue;
        break;
      }
      s.aof?.record(db.index, logged, ts);
      unblock(w, true);
    }
  }
}

export function blockedCount(s: ServerState): number {
  let n = 0;
  for (const c of s.clients.values()) if (c.blocked !== undefined) n++;
  return n;
}

const FLAGS = ['write', 'blocking'];
export const blockingCommands: CommandSpec[] = defs('list', [
  { name: 'blpop', arity: -3, flags: FLAGS, keys: [1, -2, 1], fn: bpop(true) },
  { name: 'brpop', arity: -3, flags: FLAGS, keys: [1, -2, 1], fn: bpop(false) },
]);

// XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID], as Redis 7.0 answers
// it: walks the group's pending entries from `start`, looking at no more than COUNT × 10 of them;
// those idle at least min-idle-time pass to `consumer` (delivery count + 1 unless JUSTID), those
// whose entry the stream no longer holds (trimmed by MAXLEN) leave the PEL and are reported; both
// count towards COUNT.
// Reply: [the pending ID after the last one looked at, or 0-0 at the end; claimed entries (or IDs
// with JUSTID); deleted IDs].
import { now as clockNow } from '../clock.ts';
import type { Client } from '../state.ts';
import { cmpId, fmtId } from '../store/stream.ts';
import type { StreamId } from '../store/stream.ts';
import { E } from './errors.ts';
import { parseInt64 } from './parse.ts';
import { parseBound, seeConsumer, writeEntry } from './streams.ts';
import { defs, lookup } from './types.ts';
import type { CommandSpec } from './types.ts';

const ATTEMPTS_FACTOR = 10;
const COUNT_ERR = 'ERR COUNT must be > 0';

function xautoclaim(c: Client, a: string[]): void {
  const [, key, groupName, consumer, idleArg, startArg] = a as [string, string, string, string, string, string];
  const s = lookup(c, key, 'stream');
  if (s === null) return;
  const g = s?.groups.get(groupName);
  const idle = parseInt64(idleArg);
  if (idle === undefined) return c.reply.err('ERR Invalid min-idle-time argument for XAUTOCLAIM');
  const minIdle = Math.max(0, idle);
  const start = parseBound(startArg, true);
  if (start === undefined || startArg === '+') return c.reply.err('ERR Invalid stream ID specified as stream command argument');
  let count = 100;
  let justId = false;
  for (let j = 6; j < a.length; j++) {
    const opt = a[j]!.toLowerCase();
    if (opt === 'count' && j + 1 < a.length) {
      const n = parseInt64(a[++j]!);
      if (n === undefined || n < 1 || n > Math.floor(Number.MAX_SAFE_INTEGER / ATTEMPTS_FACTOR)) return c.reply.err(COUNT_ERR);
      count = n;
    } else if (opt === 'justid') {
      justId = true;
    } else {
      return c.reply.err(E.syntax);
    }
  }
  if (s === undefined || g === undefined) return c.reply.err(`NOGROUP No such key '${key}' or consumer group '${groupName}'`);
  const now = clockNow();
  seeConsumer(c.db, key, g, consumer, now);
  const pel = [...g.pel.values()].filter((p) => cmpId(p.id, start) >= 0).sort((x, y) => cmpId(x.id, y.id));
  let attempts = count * ATTEMPTS_FACTOR;
  let i = 0;
  const claimed: StreamId[] = [];
  const deleted: StreamId[] = [];
  for (; attempts > 0 && count > 0 && i < pel.length; i++, attempts--) {
    const p = pel[i]!;
    if (s.find(p.id) === undefined) {
      g.pel.delete(fmtId(p.id));
      deleted.push(p.id);
      count--; // COUNT bounds the reply, deleted IDs included.
      continue;
    }
    if (minIdle > 0 && now - p.deliveredAt < minIdle) continue;
    p.consumer = consumer;
    p.deliveredAt = now;
    if (!justId) p.count++;
    claimed.push(p.id);
    count--;
  }
  c.reply.arr(3);
  c.reply.bulk(i < pel.length ? fmtId(pel[i]!.id) : '0-0');
  c.reply.arr(claimed.length);
  for (const id of claimed) {
    if (justId) c.reply.bulk(fmtId(id));
    else writeEntry(c, s.find(id), id);
  }
  c.reply.arr(deleted.length);
  for (const id of deleted) c.reply.bulk(fmtId(id));
}

export const streamClaimCommands: CommandSpec[] = defs('stream', [
  { name: 'xautoclaim', arity: -6, flags: ['write', 'fast'], keys: [1, 1, 1], fn: xautoclaim },
]);

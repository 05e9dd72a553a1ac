import type { Client, ServerState } from '../state.ts';
import { globMatch } from './parse.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';

function subCount(c: Client): number {
  return c.channels.size + c.patterns.size;
}

function ack(c: Client, kind: string, name: string | undefined, count: number): void {
  c.reply.push(3);
  c.reply.bulk(kind);
  c.reply.bulkOrNil(name);
  c.reply.int(count);
}

function subscribe(pattern: boolean) {
  return (c: Client, a: string[], s: ServerState): void => {
    const mine = pattern ? c.patterns : c.channels;
    const index = pattern ? s.patterns : s.channels;
    for (let i = 1; i < a.length; i++) {
      const ch = a[i]!;
      if (!mine.has(ch)) {
        mine.add(ch);
        let set = index.get(ch);
        if (set === undefined) index.set(ch, (set = new Set()));
        set.add(c);
      }
      ack(c, pattern ? 'psubscribe' : 'subscribe', ch, subCount(c));
    }
  };
}

export function dropSubscription(c: Client, s: ServerState, pattern: boolean, ch: string): boolean {
  const mine = pattern ? c.patterns : c.channels;
  const index = pattern ? s.patterns : s.channels;
  if (!mine.delete(ch)) return false;
  const set = index.get(ch);
  set?.delete(c);
  if (set?.size === 0) index.delete(ch);
  return true;
}

function unsubscribe(pattern: boolean) {
  return (c: Client, a: string[], s: ServerState): void => {
    const kind = pattern ? 'punsubscribe' : 'unsubscribe';
    const mine = pattern ? c.patterns : c.channels;
    const names = a.length > 1 ? a.slice(1) : [...mine];
    if (names.length === 0) return ack(c, kind, undefined, subCount(c));
    for (const ch of names) {
      dropSubscription(c, s, pattern, ch);
      ack(c, kind, ch, subCount(c));
    }
  };
}

/** Encodes one delivery in both protocols once, then hands it to each receiver. */
function frame(proto: 2 | 3, parts: string[]): string {
  let out = (proto === 3 ? '>' : '*') + parts.length + '\r\n';
  for (const p of parts) out += '$' + p.length + '\r\n' + p + '\r\n';
  return out;
}

export function publish(s: ServerState, ch: string, msg: string): number {
  let n = 0;
  const subs = s.channels.get(ch);
  if (subs !== undefined) {
    const f2 = frame(2, ['message', ch, msg]);
    const f3 = frame(3, ['message', ch, msg]);
    for (const c of subs) {
      c.send(c.reply.proto === 3 ? f3 : f2);
      n++;
    }
  }
  for (const [pat, set] of s.patterns) {
    if (!globMatch(pat, ch)) continue;
    const f2 = frame(2, ['pmessage', pat, ch, msg]);
    const f3 = frame(3, ['pmessage', pat, ch, msg]);
    for (const c of set) {
      c.send(c.reply.proto === 3 ? f3 : f2);
      n++;
    }
  }
  return n;
}

function publishCmd(c: Client, a: string[], s: ServerState): void {
  c.reply.int(publish(s, a[1]!, a[2]!));
}

export const pubsubCommands: CommandSpec[] = defs('pubsub', [
  { name: 'subscribe', arity: -2, flags: ['pubsub', 'noscript', 'loading', 'stale'], fn: subscribe(false) },
  { name: 'psubscribe', arity: -2, flags: ['pubsub', 'noscript', 'loading', 'stale'], fn: subscribe(true) },
  { name: 'unsubscribe', arity: -1, flags: ['pubsub', 'noscript', 'loading', 'stale'], fn: unsubscribe(false) },
  { name: 'punsubscribe', arity: -1, flags: ['pubsub', 'noscript', 'loading', 'stale'], fn: unsubscribe(true) },
  { name: 'publish', arity: 3, flags: ['pubsub', 'loading', 'stale', 'fast'], fn: publishCmd },
]);

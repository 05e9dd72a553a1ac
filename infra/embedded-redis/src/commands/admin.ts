// Keyspace- and server-wide commands: DBSIZE, FLUSH*, TIME, CONFIG, SAVE/BGSAVE/LASTSAVE.
import type { Client, ServerState } from '../state.ts';
import { E, arityError, unknownSubcommand } from './errors.ts';
import { notifyFlagsToString, parseNotifyFlags } from '../notify.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';

function dbsize(c: Client): void {
  c.reply.int(c.db.size);
}

function flush(all: boolean) {
  return (c: Client, a: string[], s: ServerState): void => {
    if (a.length > 2 || (a.length === 2 && !['sync', 'async'].includes(a[1]!.toLowerCase()))) {
      return c.reply.err(E.syntax);
    }
    if (all) for (const d of s.dbs) d.clear();
    else c.db.clear();
    c.reply.ok();
  };
}

function time(c: Client): void {
  const ms = Date.now();
  const us = Math.floor(performance.timeOrigin * 1000 + performance.now() * 1000) % 1000;
  c.reply.bulks([String(Math.floor(ms / 1000)), String((ms % 1000) * 1000 + us)]);
}

/** Values CONFIG GET reports; enough for redis-benchmark and clients that probe settings. */
function configValues(s: ServerState): Map<string, string> {
  return new Map([
    ['save', s.dataDir !== undefined ? '3600 1 300 100 60 10000' : ''],
    ['appendonly', s.aof !== undefined ? 'yes' : 'no'],
    ['appendfsync', s.appendfsync],
    ['databases', String(16)],
    ['maxmemory', '0'],
    ['maxmemory-policy', 'noeviction'],
    ['port', String(s.port)],
    ['dir', s.dataDir ?? process.cwd()],
    ['timeout', '0'],
    ['requirepass', ''],
    ['notify-keyspace-events', notifyFlagsToString(s.keyEvents.flags)],
    ['busy-reply-threshold', String(s.scriptTimeLimitMs)],
    ['lua-time-limit', String(s.scriptTimeLimitMs)],
    ['maxclients', '10000'],
  ]);
}

function config(c: Client, a: string[], s: ServerState): void {
  const sub = a[1]!.toLowerCase();
  if (sub === 'get') {
    if (a.length < 3) return c.reply.err(arityError('config|get'));
    const vals = configValues(s);
    const out: [string, string][] = [];
    for (let i = 2; i < a.length; i++) {
      const p = a[i]!.toLowerCase();
      for (const [k, v] of vals) {
        if (globMatchSimple(p, k) && !out.some(([x]) => x === k)) out.push([k, v]);
      }
    }
    c.reply.map(out.length);
    for (const [k, v] of out) {
      c.reply.bulk(k);
      c.reply.bulk(v);
    }
    return;
  }
  if (sub === 'set') {
    if (a.length < 4 || a.length % 2 !== 0) return c.reply.err(arityError('config|set'));
    return configSet(c, a, s);
  }
  if (sub === 'resetstat') return c.reply.ok();
  return c.reply.err(unknownSubcommand(a[1]!, 'config'));
}

/** Parameters CONFIG SET changes, each with a check that returns an error text or applies the value. */
type Setter = (v: string, s: ServerState) => { error: string } | (() => void);
const scriptLimit: Setter = (v, s) => {
  if (!/^\d{1,15}$/.test(v)) return { error: "argument couldn't be parsed into an integer" };
  return () => {
    s.scriptTimeLimitMs = Number(v);
  };
};
const SETTERS = new Map<string, Setter>([
  ['busy-reply-threshold', scriptLimit],
  ['lua-time-limit', scriptLimit],
  [
    'notify-keyspace-events',
    (v, s) => {
      const f = parseNotifyFlags(v);
      if (typeof f !== 'number') return f;
      return () => {
        s.keyEvents.flags = f;
      };
    },
  ],
  [
    'appendfsync',
    (v, s) => {
      const p = v.toLowerCase();
      if (p !== 'always' && p !== 'everysec' && p !== 'no') return { error: 'argument(s) must be one of the following: everysec, always, no' };
      return () => {
        s.appendfsync = p;
        if (s.aof !== undefined) s.aof.policy = p;
      };
    },
  ],
]);

/**
 * Applies all parameters or none, like Redis 7. Parameters Redis knows but this server does not
 * implement are refused by name rather than accepted and ignored.
 */
function configSet(c: Client, a: string[], s: ServerState): void {
  const apply: (() => void)[] = [];
  const seen = new Set<string>();
  for (let i = 2; i < a.length; i += 2) {
    const name = a[i]!.toLowerCase();
    const setter = SETTERS.get(name);
    if (setter === undefined || seen.has(name)) {
      if (seen.has(name)) return c.reply.err(`ERR CONFIG SET failed (possibly related to argument '${name}') - duplicate parameter`);
      if (configValues(s).has(name)) {
        return c.reply.err(`ERR CONFIG SET '${name}' is not supported by the embedded server (it reports the value in use)`);
      }
      return c.reply.err(`ERR Unknown option or number of arguments for CONFIG SET - '${a[i]!}'`);
    }
    seen.add(name);
    const r = setter(a[i + 1]!, s);
    if (typeof r !== 'function') return c.reply.err(`ERR CONFIG SET failed (possibly related to argument '${name}') - ${r.error}`);
    apply.push(r);
  }
  for (const f of apply) f();
  c.reply.ok();
}

function globMatchSimple(p: string, k: string): boolean {
  if (p === '*') return true;
  const re = new RegExp('^' + p.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
  return re.test(k);
}

function save(c: Client, _a: string[], s: ServerState): void {
  if (s.save === undefined) return c.reply.err('ERR no data directory configured; snapshots are disabled');
  s.save();
  c.reply.ok();
}

function bgsave(c: Client, a: string[], s: ServerState): void {
  if (a.length > 2) return c.reply.err(E.syntax);
  if (s.save === undefined) return c.reply.err('ERR no data directory configured; snapshots are disabled');
  s.save();
  c.reply.simple('Background saving started');
}

function lastsave(c: Client, _a: string[], s: ServerState): void {
  c.reply.int(s.lastSaveAt);
}

export const adminCommands: CommandSpec[] = defs('server', [
  { name: 'dbsize', arity: 1, flags: ['readonly', 'fast'], fn: dbsize },
  { name: 'flushdb', arity: -1, flags: ['write'], fn: flush(false) },
  { name: 'flushall', arity: -1, flags: ['write'], fn: flush(true) },
  { name: 'time', arity: 1, flags: ['loading', 'stale', 'fast'], fn: time },
  { name: 'config', arity: -2, flags: ['admin', 'noscript', 'loading', 'stale'], fn: config },
  { name: 'save', arity: 1, flags: ['admin', 'noscript'], fn: save },
  { name: 'bgsave', arity: -1, flags: ['admin', 'noscript'], fn: bgsave },
  { name: 'lastsave', arity: 1, flags: ['loading', 'stale', 'fast'], fn: lastsave },
]);

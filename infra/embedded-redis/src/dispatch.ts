// Command dispatch: lookup, arity, pub/sub context, MULTI queueing and the transaction commands.
import { now as clockNow, pinClock, clockPinned } from './clock.ts';
import { arityError, unknownCommand } from './commands/errors.ts';
import { commands } from './commands/registry.ts';
import type { CommandSpec } from './commands/types.ts';
import type { Client, ServerState } from './state.ts';

const ALLOWED_WHILE_SUBSCRIBED = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ping', 'quit', 'reset']);
const NOT_QUEUED = new Set(['exec', 'discard', 'multi', 'watch', 'quit', 'reset']);

/** Command names as clients spell them ("SET", "set", "Set") → spec; saves a toLowerCase per request. */
const byRawName = new Map<string, CommandSpec>();

export function lookupCommand(raw: string): CommandSpec | undefined {
  let spec = byRawName.get(raw);
  if (spec === undefined) {
    spec = commands.get(raw.toLowerCase());
    // Bounded: only real command names are cached, and each has few spellings in practice.
    if (spec !== undefined && byRawName.size < 4096) byRawName.set(raw, spec);
  }
  return spec;
}

export function execute(c: Client, argv: string[], s: ServerState): void {
  s.totalCommands++;
  const raw = argv[0]!;
  const spec = lookupCommand(raw);
  if (spec === undefined) {
    if (c.multi !== undefined) c.multiFailed = true;
    c.reply.err(unknownCommand(raw, argv.slice(1)));
    return;
  }
  const n = argv.length;
  if ((spec.arity > 0 && n !== spec.arity) || n < -spec.arity) {
    if (spec.name === 'exec') {
      // Redis reports a rejected EXEC as the transaction's abort reason.
      if (c.multi !== undefined) endMulti(c);
      c.reply.err(`EXECABORT Transaction discarded because of: ${arityError('exec').slice(4)}`);
      return;
    }
    if (c.multi !== undefined) c.multiFailed = true;
    c.reply.err(arityError(spec.name));
    return;
  }
  const name = spec.name;
  c.lastCmd = name;
  if (c.reply.proto === 2 && (c.channels.size > 0 || c.patterns.size > 0) && !ALLOWED_WHILE_SUBSCRIBED.has(name)) {
    c.reply.err(
      `ERR Can't execute '${name}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`,
    );
    return;
  }
  if (c.multi !== undefined && !NOT_QUEUED.has(name)) {
    c.multi.push(argv);
    c.reply.simple('QUEUED');
    return;
  }
  switch (name) {
    case 'multi':
      if (c.multi !== undefined) return c.reply.err('ERR MULTI calls can not be nested');
      c.multi = [];
      c.multiFailed = false;
      return c.reply.ok();
    case 'discard':
      if (c.multi === undefined) return c.reply.err('ERR DISCARD without MULTI');
      endMulti(c);
      return c.reply.ok();
    case 'exec':
      return exec(c, s);
    case 'watch':
      if (c.multi !== undefined) return c.reply.err('ERR WATCH inside MULTI is not allowed');
      for (let i = 1; i < n; i++) watch(c, argv[i]!);
      return c.reply.ok();
    case 'unwatch':
      unwatchAll(c);
      return c.reply.ok();
    case 'reset':
      unwatchAll(c);
      spec.fn(c, argv, s);
      return;
    default:
      if (s.aof === undefined || !spec.flags.includes('write')) return spec.fn(c, argv, s);
      return loggedWrite(c, spec, argv, s);
  }
}

/**
 * Runs a write command with the clock pinned (so the time it used is the time recorded) and
 * appends it to the AOF if it changed anything.
 */
function loggedWrite(c: Client, spec: CommandSpec, argv: string[], s: ServerState): void {
  const aof = s.aof!;
  if (aof.error !== undefined) return c.reply.err(`MISCONF Errors writing to the AOF file: ${aof.error}`);
  const outer = !clockPinned();
  const ts = clockNow();
  if (outer) pinClock(ts);
  const before = s.writes;
  c.propagate = undefined;
  try {
    spec.fn(c, argv, s);
  } finally {
    if (outer) pinClock(undefined);
  }
  if (s.writes !== before) aof.record(c.db.index, c.propagate ?? argv, ts);
  c.propagate = undefined;
}

function exec(c: Client, s: ServerState): void {
  const queued = c.multi;
  if (queued === undefined) return c.reply.err('ERR EXEC without MULTI');
  if (c.multiFailed) {
    endMulti(c);
    return c.reply.err('EXECABORT Transaction discarded because of previous errors.');
  }
  // Reading each watched key applies lazy expiry, which counts as a modification.
  for (const w of c.watching) w.db.get(w.key);
  if (c.dirtyCas) {
    endMulti(c);
    return c.reply.nilArray();
  }
  endMulti(c);
  c.reply.arr(queued.length);
  const aof = s.aof;
  // The whole transaction runs at one instant and is logged as one MULTI/EXEC unit.
  const outer = !clockPinned();
  if (outer) pinClock(clockNow());
  aof?.beginMulti();
  c.inExec = true;
  try {
    for (const argv of queued) execute(c, argv, s);
  } finally {
    c.inExec = false;
    aof?.endMulti();
    if (outer) pinClock(undefined);
  }
}

function endMulti(c: Client): void {
  c.multi = undefined;
  c.multiFailed = false;
  unwatchAll(c);
}

function watch(c: Client, key: string): void {
  if (c.watching.some((w) => w.db === c.db && w.key === key)) return;
  const existed = c.db.get(key) !== undefined;
  let set = c.db.watched.get(key);
  if (set === undefined) c.db.watched.set(key, (set = new Set()));
  set.add(c);
  c.watching.push({ db: c.db, key, existed });
}

export function unwatchAll(c: Client): void {
  for (const w of c.watching) {
    const set = w.db.watched.get(w.key);
    set?.delete(c);
    if (set?.size === 0) w.db.watched.delete(w.key);
  }
  c.watching = [];
  c.dirtyCas = false;
}

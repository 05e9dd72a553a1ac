// EVAL / EVALSHA / SCRIPT LOAD|EXISTS|FLUSH|KILL. The Lua side lives in src/lua/engine.ts; here
// are the argument rules, and what makes a script one unit: the clock is frozen for its whole
// run (as Redis does) and its writes go to the AOF as one MULTI/EXEC.
import { now as clockNow, clockPinned, pinClock } from '../clock.ts';
import { ScriptEngine } from '../lua/engine.ts';
import type { Client, ServerState } from '../state.ts';
import { E, arityError, unknownSubcommand } from './errors.ts';
import { parseInt64 } from './parse.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';

function engine(s: ServerState): ScriptEngine {
  return (s.scripts ??= new ScriptEngine());
}

function evalGeneric(bySha: boolean) {
  return (c: Client, a: string[], s: ServerState): void => {
    const numkeys = parseInt64(a[2]!);
    if (numkeys === undefined) return c.reply.err(E.notInt);
    if (numkeys < 0) return c.reply.err("ERR Number of keys can't be negative");
    if (numkeys > a.length - 3) return c.reply.err("ERR Number of keys can't be greater than number of args");
    const e = engine(s);
    let sha = a[1]!;
    if (!bySha) {
      const r = e.load(a[1]!);
      if ('error' in r) return c.reply.err(r.error);
      sha = r.sha;
    }
    const outer = !clockPinned();
    if (outer) pinClock(clockNow());
    s.aof?.beginMulti();
    try {
      e.run(c, s, sha, a.slice(3, 3 + numkeys), a.slice(3 + numkeys));
    } finally {
      s.aof?.endMulti();
      if (outer) pinClock(undefined);
    }
  };
}

function script(c: Client, a: string[], s: ServerState): void {
  const sub = a[1]!.toLowerCase();
  if (sub === 'load') {
    if (a.length !== 3) return c.reply.err(arityError('script|load'));
    const r = engine(s).load(a[2]!);
    return 'error' in r ? c.reply.err(r.error) : c.reply.bulk(r.sha);
  }
  if (sub === 'exists') {
    if (a.length < 3) return c.reply.err(arityError('script|exists'));
    c.reply.arr(a.length - 2);
    for (let i = 2; i < a.length; i++) c.reply.int(s.scripts?.has(a[i]!) === true ? 1 : 0);
    return;
  }
  if (sub === 'flush') {
    if (a.length > 3) return c.reply.err(arityError('script|flush'));
    if (a.length === 3 && !['sync', 'async'].includes(a[2]!.toLowerCase())) {
      return c.reply.err('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
    }
    s.scripts?.reset();
    return c.reply.ok();
  }
  // Scripts run to completion before any other command is read, so none is ever running here.
  if (sub === 'kill') return c.reply.err('NOTBUSY No scripts in execution right now.');
  return c.reply.err(unknownSubcommand(a[1]!, 'script'));
}

export const scriptingCommands: CommandSpec[] = defs('scripting', [
  { name: 'eval', arity: -3, flags: ['noscript', 'skip_monitor', 'may_replicate', 'no_mandatory_keys', 'stale'], fn: evalGeneric(false) },
  { name: 'evalsha', arity: -3, flags: ['noscript', 'skip_monitor', 'may_replicate', 'no_mandatory_keys', 'stale'], fn: evalGeneric(true) },
  { name: 'script', arity: -2, flags: ['noscript'], fn: script },
]);

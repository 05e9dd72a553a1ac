import type { Client, ServerState } from '../state.ts';
import { DB_COUNT, REDIS_VERSION } from '../state.ts';
import { E, arityError, unknownSubcommand } from './errors.ts';
import { parseInt64 } from './parse.ts';
import { dropSubscription } from './pubsub.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';

function ping(c: Client, a: string[]): void {
  if (a.length > 2) return c.reply.err(arityError('ping'));
  // RESP2 subscribers get the pub/sub-shaped pong, as Redis does.
  if (c.reply.proto === 2 && (c.channels.size > 0 || c.patterns.size > 0)) {
    c.reply.arr(2);
    c.reply.bulk('pong');
    c.reply.bulk(a[1] ?? '');
    return;
  }
  if (a.length === 2) c.reply.bulk(a[1]!);
  else c.reply.simple('PONG');
}

function echo(c: Client, a: string[]): void {
  c.reply.bulk(a[1]!);
}

function hello(c: Client, a: string[], s: ServerState): void {
  let i = 1;
  if (a.length > 1) {
    const v = parseInt64(a[1]!);
    if (v === undefined) return c.reply.err('ERR Protocol version is not an integer or out of range');
    if (v !== 2 && v !== 3) return c.reply.err('NOPROTO unsupported protocol version');
    i = 2;
    for (; i < a.length; i++) {
      const o = a[i]!.toLowerCase();
      const left = a.length - i - 1;
      if (o === 'auth' && left >= 2) {
        // Only the password-less "default" user exists; it accepts any password.
        if (a[i + 1] !== 'default') return c.reply.err('WRONGPASS invalid username-password pair or user is disabled.');
        i += 2;
      }
      else if (o === 'setname' && left >= 1) {
        const name = a[++i]!;
        if (!validName(name)) {
          return c.reply.err('ERR Client names cannot contain spaces, newlines or special characters.');
        }
        c.name = name;
      } else return c.reply.err(`ERR Syntax error in HELLO option '${a[i]!}'`);
    }
    c.reply.proto = v;
  }
  c.reply.map(7);
  c.reply.bulk('server');
  c.reply.bulk('redis');
  c.reply.bulk('version');
  c.reply.bulk(REDIS_VERSION);
  c.reply.bulk('proto');
  c.reply.int(c.reply.proto);
  c.reply.bulk('id');
  c.reply.int(c.id);
  c.reply.bulk('mode');
  c.reply.bulk('standalone');
  c.reply.bulk('role');
  c.reply.bulk('master');
  c.reply.bulk('modules');
  c.reply.arr(0);
  void s;
}

function auth(c: Client, a: string[]): void {
  if (a.length > 3) return c.reply.err(E.syntax);
  if (a.length === 2) {
    return c.reply.err(
      'ERR AUTH <password> called without any password configured for the default user. ' +
        'Are you sure your configuration is correct?',
    );
  }
  // The only user is "default" with no password, which accepts any password.
  if (a[1] !== 'default') return c.reply.err('WRONGPASS invalid username-password pair or user is disabled.');
  c.reply.ok();
}

function select(c: Client, a: string[], s: ServerState): void {
  const n = parseInt64(a[1]!);
  if (n === undefined) return c.reply.err(E.notInt);
  if (n < 0 || n >= DB_COUNT) return c.reply.err(E.dbRange);
  c.db = s.dbs[n]!;
  c.reply.ok();
}

function quit(c: Client): void {
  c.closeAfterReply = true;
  c.reply.ok();
}

/** RESET: back to a fresh connection's state (the dispatcher has already dropped WATCHes). */
function reset(c: Client, _a: string[], s: ServerState): void {
  c.multi = undefined;
  c.multiFailed = false;
  for (const ch of [...c.channels]) dropSubscription(c, s, false, ch);
  for (const p of [...c.patterns]) dropSubscription(c, s, true, p);
  c.db = s.dbs[0]!;
  c.name = '';
  c.reply.proto = 2;
  c.reply.simple('RESET');
}

function validName(n: string): boolean {
  for (let i = 0; i < n.length; i++) {
    const ch = n.charCodeAt(i);
    if (ch < 33 || ch > 126) return false;
  }
  return true;
}

export function clientLine(c: Client): string {
  const now = Date.now();
  const sub = c.channels.size;
  const psub = c.patterns.size;
  const flags = sub + psub > 0 ? 'P' : c.multi !== undefined ? 'x' : 'N';
  return (
    `id=${c.id} addr=${c.addr} laddr=${c.laddr} fd=0 name=${c.name} ` +
    `age=${Math.floor((now - c.createdAt) / 1000)} idle=${Math.floor((now - c.lastActive) / 1000)} ` +
    `flags=${flags} db=${c.db.index} sub=${sub} psub=${psub} ssub=0 multi=${c.multi?.length ?? -1} ` +
    `qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=0 rbp=0 obl=0 oll=0 omem=0 tot-mem=0 events=r ` +
    `cmd=${c.lastCmd} user=default redir=-1 resp=${c.reply.proto}`
  );
}

function client(c: Client, a: string[], s: ServerState): void {
  const sub = a[1]!.toLowerCase();
  const n = a.length;
  const need = (k: number, name: string): boolean => {
    if (n === k) return true;
    c.reply.err(arityError(`client|${name}`));
    return false;
  };
  switch (sub) {
    case 'setname':
      if (!need(3, 'setname')) return;
      if (!validName(a[2]!)) {
        return c.reply.err('ERR Client names cannot contain spaces, newlines or special characters.');
      }
      c.name = a[2]!;
      return c.reply.ok();
    case 'getname':
      if (!need(2, 'getname')) return;
      return c.name === '' ? c.reply.nil() : c.reply.bulk(c.name);
    case 'setinfo': {
      if (!need(4, 'setinfo')) return;
      const attr = a[2]!.toLowerCase();
      if (attr === 'lib-name') c.libName = a[3]!;
      else if (attr === 'lib-ver') c.libVer = a[3]!;
      else return c.reply.err(`ERR Unrecognized option '${a[2]!}'`);
      return c.reply.ok();
    }
    case 'id':
      if (!need(2, 'id')) return;
      return c.reply.int(c.id);
    case 'list': {
      let out = '';
      for (const cl of s.clients.values()) out += clientLine(cl) + '\n';
      return c.reply.verbatim(out);
    }
    case 'info':
      if (!need(2, 'info')) return;
      return c.reply.verbatim(clientLine(c) + '\n');
    case 'help':
      return c.reply.bulks([
        'CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
        'GETNAME',
        'SETNAME <name>',
        'SETINFO <LIB-NAME|LIB-VER> <value>',
        'ID',
        'INFO',
        'LIST',
      ]);
    default:
      return c.reply.err(unknownSubcommand(a[1]!, 'client'));
  }
}

export const connectionCommands: CommandSpec[] = defs('connection', [
  { name: 'ping', arity: -1, flags: ['fast', 'stale'], fn: ping },
  { name: 'echo', arity: 2, flags: ['fast'], fn: echo },
  { name: 'hello', arity: -1, flags: ['noscript', 'loading', 'stale', 'fast', 'no_auth'], fn: hello },
  { name: 'auth', arity: -2, flags: ['noscript', 'loading', 'stale', 'fast', 'no_auth'], fn: auth },
  { name: 'select', arity: 2, flags: ['loading', 'stale', 'fast'], fn: select },
  { name: 'quit', arity: -1, flags: ['allow_busy', 'noscript', 'loading', 'stale', 'fast', 'no_auth'], fn: quit },
  { name: 'reset', arity: 1, flags: ['noscript', 'loading', 'stale', 'fast', 'no_auth'], fn: reset },
  { name: 'client', arity: -2, flags: ['noscript', 'loading', 'stale'], fn: client },
]);

// The command table, plus COMMAND itself (redis-cli reads it for hints and completion).
import type { Client } from '../state.ts';
import { adminCommands } from './admin.ts';
import { connectionCommands } from './connection.ts';
import { arityError, unknownSubcommand } from './errors.ts';
import { hashCommands } from './hashes.ts';
import { infoCommands } from './info.ts';
import { keyCommands } from './keys.ts';
import { blockingCommands } from './blocking.ts';
import { listCommands } from './lists.ts';
import { pubsubCommands } from './pubsub.ts';
import { scriptingCommands } from './scripting.ts';
import { setCommands } from './sets.ts';
import { streamClaimCommands } from './stream-claim.ts';
import { streamCommands } from './streams.ts';
import { stringCommands } from './strings.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';
import { zsetCommands } from './zsets.ts';

/** Transaction commands are executed by the dispatcher itself; the table only describes them. */
const noop = (): void => undefined;
const txCommands = defs('transactions', [
  { name: 'multi', arity: 1, flags: ['noscript', 'loading', 'stale', 'fast', 'allow_busy'], fn: noop },
  { name: 'exec', arity: 1, flags: ['noscript', 'loading', 'stale', 'skip_slowlog'], fn: noop },
  { name: 'discard', arity: 1, flags: ['noscript', 'loading', 'stale', 'fast', 'allow_busy'], fn: noop },
  { name: 'watch', arity: -2, flags: ['noscript', 'loading', 'stale', 'fast', 'allow_busy'], keys: [1, -1, 1], fn: noop },
  { name: 'unwatch', arity: 1, flags: ['noscript', 'loading', 'stale', 'fast', 'allow_busy'], fn: noop },
]);

export const commands = new Map<string, CommandSpec>();

function writeInfo(c: Client, spec: CommandSpec): void {
  const r = c.reply;
  r.arr(10);
  r.bulk(spec.name);
  r.int(spec.arity);
  r.set(spec.flags.length);
  for (const f of spec.flags) r.simple(f);
  r.int(spec.first);
  r.int(spec.last);
  r.int(spec.step);
  const cats = aclCategories(spec);
  r.set(cats.length);
  for (const cat of cats) r.simple(cat);
  r.set(0); // tips
  r.arr(0); // key specs: not modelled; first/last/step above carry the key positions
  const subs = spec.subs ? [...spec.subs.values()] : [];
  r.set(subs.length);
  for (const s of subs) writeInfo(c, s);
}

const GROUP_CATEGORY: Record<string, string> = {
  'sorted-set': '@sortedset',
  generic: '@keyspace',
  transactions: '@transaction',
  server: '@admin',
};

/** ACL categories in Redis's order: read/write, the data-type category, then fast/slow. */
function aclCategories(spec: CommandSpec): string[] {
  const out: string[] = [];
  if (spec.flags.includes('write')) out.push('@write');
  else if (spec.flags.includes('readonly')) out.push('@read');
  out.push(GROUP_CATEGORY[spec.group] ?? '@' + spec.group);
  out.push(spec.flags.includes('fast') ? '@fast' : '@slow');
  return out;
}

function writeDocs(c: Client, spec: CommandSpec): void {
  c.reply.bulk(spec.name);
  c.reply.map(3);
  c.reply.bulk('summary');
  c.reply.bulk(spec.summary !== '' ? spec.summary : `${spec.name.toUpperCase()} command`);
  c.reply.bulk('since');
  c.reply.bulk('1.0.0');
  c.reply.bulk('group');
  c.reply.bulk(spec.group);
}

function command(c: Client, a: string[]): void {
  if (a.length === 1) {
    c.reply.arr(commands.size);
    for (const spec of commands.values()) writeInfo(c, spec);
    return;
  }
  const sub = a[1]!.toLowerCase();
  if (sub === 'count') {
    if (a.length !== 2) return c.reply.err(arityError('command|count'));
    return c.reply.int(commands.size);
  }
  if (sub === 'info') {
    const names = a.length === 2 ? [...commands.keys()] : a.slice(2);
    c.reply.arr(names.length);
    for (const n of names) {
      const spec = commands.get(n.toLowerCase());
      if (spec === undefined) c.reply.nilArray();
      else writeInfo(c, spec);
    }
    return;
  }
  if (sub === 'docs') {
    const specs = a.length === 2 ? [...commands.values()] : [];
    for (const n of a.slice(2)) {
      const spec = commands.get(n.toLowerCase());
      if (spec !== undefined) specs.push(spec);
    }
    c.reply.map(specs.length);
    for (const spec of specs) writeDocs(c, spec);
    return;
  }
  if (sub === 'list') return c.reply.bulks([...commands.keys()]);
  return c.reply.err(unknownSubcommand(a[1]!, 'command'));
}

const commandCommand = defs('server', [{ name: 'command', arity: -1, flags: ['loading', 'stale'], fn: command }]);

for (const list of [
  connectionCommands,
  adminCommands,
  infoCommands,
  stringCommands,
  keyCommands,
  hashCommands,
  setCommands,
  zsetCommands,
  listCommands,
  blockingCommands,
  streamCommands,
  streamClaimCommands,
  pubsubCommands,
  scriptingCommands,
  txCommands,
  commandCommand,
]) {
  for (const spec of list) commands.set(spec.name, spec);
}

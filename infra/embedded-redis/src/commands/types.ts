import type { Client, ServerState } from '../state.ts';
import type { TypeName, Value } from '../store/db.ts';
import { E } from './errors.ts';

export type Handler = (c: Client, a: string[], s: ServerState) => void;

export interface CommandSpec {
  /** Lowercase name; subcommands use "parent|sub" like Redis's fullname. */
  name: string;
  arity: number;
  flags: readonly string[];
  first: number;
  last: number;
  step: number;
  group: string;
  summary: string;
  fn: Handler;
  subs?: Map<string, CommandSpec>;
}

export type Def = Omit<CommandSpec, 'first' | 'last' | 'step' | 'group' | 'summary' | 'subs'> & {
  keys?: [number, number, number];
  summary?: string;
};

export function defs(group: string, list: Def[]): CommandSpec[] {
  return list.map((d) => ({
    name: d.name,
    arity: d.arity,
    flags: d.flags,
    first: d.keys?.[0] ?? 0,
    last: d.keys?.[1] ?? 0,
    step: d.keys?.[2] ?? 0,
    group,
    summary: d.summary ?? '',
    fn: d.fn,
  }));
}

interface ValueMap {
  string: Extract<Value, { t: 'string' }>['v'];
  hash: Extract<Value, { t: 'hash' }>['v'];
  set: Extract<Value, { t: 'set' }>['v'];
  zset: Extract<Value, { t: 'zset' }>['v'];
  list: Extract<Value, { t: 'list' }>['v'];
  stream: Extract<Value, { t: 'stream' }>['v'];
}
type ValueOf<T extends TypeName> = ValueMap[T];

/**
 * Fetches a key expecting one type. Returns undefined when absent, null after replying
 * WRONGTYPE (caller just returns).
 */
export function lookup<T extends TypeName>(c: Client, key: string, t: T): ValueOf<T> | undefined | null {
  const e = c.db.get(key);
  if (e === undefined) return undefined;
  if (e.t !== t) {
    c.reply.err(E.wrongType);
    return null;
  }
  return e.v as unknown as ValueOf<T>;
}

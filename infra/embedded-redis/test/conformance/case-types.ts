import type { Plain } from '../support/raw-client.ts';

/** Matches a reply: a literal (deep-equal) or one of the loose forms. */
export type Expect =
  | Plain
  | { range: [number, number] }
  | { any: true }
  | { sorted: Plain[] }
  | { errorStartsWith: string };

export interface Step {
  /** Arguments; "{k}" inside any argument is replaced with a per-run key prefix. */
  cmd?: (string | number)[];
  expect?: Expect;
  /** Overrides `expect` for RESP3 connections (nested pairs, etc.). */
  expect3?: Expect;
  /** Sleep this long before the step (real short expiries). */
  sleepMs?: number;
  /** Run on a second connection (same database) instead of the main one. */
  conn?: 1 | 2;
}

export interface Case {
  name: string;
  steps: Step[];
  /** Raw-only: ioredis transforms some replies (or refuses some commands). */
  rawOnly?: boolean;
}

export const err = (msg: string): Plain => ({ error: msg });
export const NOT_INT = err('ERR value is not an integer or out of range');
export const SYNTAX = err('ERR syntax error');
export const WRONGTYPE = err('WRONGTYPE Operation against a key holding the wrong kind of value');
export const NOT_FLOAT = err('ERR value is not a valid float');
export const arity = (c: string): Plain => err(`ERR wrong number of arguments for '${c}' command`);

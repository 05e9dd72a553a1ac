// Range queries over sorted sets: ZRANGE (index, BYSCORE, REV, LIMIT) and its legacy forms.
import type { Client } from '../state.ts';
import type { SortedSet, ZItem } from '../store/sortedset.ts';
import { E } from './errors.ts';
import { rangeIndexes } from './lists.ts';
import { parseFloatArg, parseInt64 } from './parse.ts';
import { lookup } from './types.ts';

interface ScoreBound {
  v: number;
  ex: boolean;
}

export function parseBound(s: string): ScoreBound | undefined {
  const ex = s.startsWith('(');
  const v = parseFloatArg(ex ? s.slice(1) : s);
  return v === undefined ? undefined : { v, ex };
}

export function scoreSlice(z: SortedSet, min: ScoreBound, max: ScoreBound): [number, number] {
  const from = z.firstInScore(min.v, min.ex);
  const to = z.endInScore(max.v, max.ex);
  return [from, Math.max(from, to)];
}

export function replyItems(c: Client, items: ZItem[], withScores: boolean): void {
  if (!withScores) {
    c.reply.bulks(items.map((x) => x.m));
    return;
  }
  if (c.reply.proto === 3) {
    c.reply.arr(items.length);
    for (const it of items) {
      c.reply.arr(2);
      c.reply.bulk(it.m);
      c.reply.dbl(it.s);
    }
    return;
  }
  c.reply.arr(items.length * 2);
  for (const it of items) {
    c.reply.bulk(it.m);
    c.reply.dbl(it.s);
  }
}

interface RangeOpts {
  byScore: boolean;
  rev: boolean;
  withScores: boolean;
  offset: number;
  limit: number;
  hasLimit: boolean;
}

/** Shared body of ZRANGE and its legacy forms; `a` is [cmd, key, start|min, stop|max, ...opts]. */
function genericRange(c: Client, key: string, lo: string, hi: string, o: RangeOpts): void {
  if (o.hasLimit && !o.byScore) {
    return c.reply.err('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
  }
  let items: ZItem[];
  if (o.byScore) {
    const min = parseBound(o.rev ? hi : lo);
    const max = parseBound(o.rev ? lo : hi);
    if (!min || !max) return c.reply.err(E.minMaxNotFloat);
    const z = lookup(c, key, 'zset');
    if (z === null) return;
    if (z === undefined) return c.reply.arr(0);
    const [f, t] = scoreSlice(z, min, max);
    items = z.items.slice(f, t);
    if (o.rev) items.reverse();
    if (o.hasLimit) {
      if (o.offset < 0) items = [];
      else items = items.slice(o.offset, o.limit < 0 ? undefined : o.offset + o.limit);
    }
  } else {
    const start = parseInt64(lo);
    const stop = parseInt64(hi);
    if (start === undefined || stop === undefined) return c.reply.err(E.notInt);
    const z = lookup(c, key, 'zset');
    if (z === null) return;
    if (z === undefined) return c.reply.arr(0);
    const len = z.size;
    const [f, t] = rangeIndexes(start, stop, len);
    if (o.rev) items = z.items.slice(len - t, len - f).reverse();
    else items = z.items.slice(f, t);
  }
  replyItems(c, items, o.withScores);
}

function parseRangeOpts(c: Client, a: string[], from: number, o: RangeOpts, allowModes: boolean): boolean {
  for (let i = from; i < a.length; i++) {
    const w = a[i]!.toLowerCase();
    if (w === 'withscores') o.withScores = true;
    else if (w === 'limit' && i + 2 < a.length) {
      const off = parseInt64(a[i + 1]!);
      const cnt = parseInt64(a[i + 2]!);
      if (off === undefined || cnt === undefined) {
        c.reply.err(E.notInt);
        return false;
      }
      o.offset = off;
      o.limit = cnt;
      o.hasLimit = true;
      i += 2;
    } else if (allowModes && w === 'byscore') o.byScore = true;
    else if (allowModes && w === 'rev') o.rev = true;
    else {
      c.reply.err(E.syntax);
      return false;
    }
  }
  return true;
}

function newOpts(byScore: boolean, rev: boolean): RangeOpts {
  return { byScore, rev, withScores: false, offset: 0, limit: -1, hasLimit: false };
}

export function zrange(c: Client, a: string[]): void {
  const o = newOpts(false, false);
  if (!parseRangeOpts(c, a, 4, o, true)) return;
  genericRange(c, a[1]!, a[2]!, a[3]!, o);
}

export function zrangebyscore(rev: boolean) {
  return (c: Client, a: string[]): void => {
    const o = newOpts(true, rev);
    if (!parseRangeOpts(c, a, 4, o, false)) return;
    // ZREVRANGEBYSCORE takes max first; genericRange expects ZRANGE ... REV order (max, min).
    genericRange(c, a[1]!, a[2]!, a[3]!, o);
  };
}

export function zrevrange(c: Client, a: string[]): void {
  const o = newOpts(false, true);
  if (a.length > 5 || (a.length === 5 && a[4]!.toLowerCase() !== 'withscores')) return c.reply.err(E.syntax);
  o.withScores = a.length === 5;
  genericRange(c, a[1]!, a[2]!, a[3]!, o);
}


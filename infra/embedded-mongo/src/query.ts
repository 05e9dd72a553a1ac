// Query evaluation on top of mingo: filters, sorting and projection. Running reads: reads.ts;
// updates and upsert seeds: update.ts.
import { Context } from 'mingo/core';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { compare } from 'mingo/util';
import { ObjectId } from 'bson';
import type { Visible } from './engine.ts';
import { badValue } from './errors.ts';
import { MINGO_CONTEXT, MINGO_OPTS } from './mingo-context.ts';
import { yieldTurn } from './slices.ts';
import { getPath, isPlainObject, toPlain } from './values.ts';
import type { Doc } from './values.ts';

export { MINGO_OPTS };

/** Options that let mingo build its own small context (the updater's positional filter). */
export const PLAIN_OPTS = { scriptEnabled: false };

/**
 * mingo copies its whole operator table for every Query built from plain options, which dominated
 * per-command cost. Building queries from one prepared options object skips that copy; the
 * prepared object is captured from a throwaway operator because mingo does not export its class.
 */
function prepareOptions(): Options {
  let captured: Options | undefined;
  const grab = Context.from(MINGO_CONTEXT).addQueryOps({
    $__captureOptions: (_sel: string, _v: unknown, options: Options) => {
      captured = options;
      return () => true;
    },
  } as never);
  new Query({ x: { $__captureOptions: 1 } }, { ...MINGO_OPTS, context: grab });
  if (!captured) throw new Error('mingo options capture failed');
  return captured;
}

const OPTS = prepareOptions();

/** What a read needs of a compiled filter. */
export interface Matcher {
  test(plain: Doc): boolean;
}

const MATCH_ALL: Matcher = { test: () => true };

/** Equality of a stored plain value and a filter scalar (see simpleFilter), by BSON type. */
function sameScalar(a: unknown, b: unknown): boolean {
  if (typeof b === 'string' || typeof b === 'number' || typeof b === 'boolean') return a === b;
  if (b instanceof Date) return a instanceof Date && a.getTime() === b.getTime();
  return a instanceof ObjectId && a.equals(b as ObjectId);
}

function isSimpleScalar(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isNaN(v);
  return typeof v === 'string' || typeof v === 'boolean' || (v instanceof Date && !Number.isNaN(v.getTime())) || v instanceof ObjectId;
}

/**
 * A filter of top-level fields each equal to a scalar (string, number, boolean, date, ObjectId),
 * directly or through `$eq`/`$in`: `{_id}`, `{_id: {$in: ids}}`, `{userId}`, `{pending: true}`,
 * `{}` — what the services send on the order path. Matched without building a mingo query, as
 * the server matches: the field equals the value, or is an array with an element that does
 * (numbers of every type compare by value). Undefined for anything else (null, regexes, objects,
 * arrays, dotted paths, other operators), which goes to mingo.
 */
function simpleFilter(plain: Doc): Matcher | undefined {
  const tests: Array<[string, unknown[]]> = [];
  for (const k of Object.keys(plain)) {
    if (k === '' || k.startsWith('$') || k.includes('.')) return undefined;
    const v = plain[k];
    let values: unknown[];
    if (isPlainObject(v)) {
      const ops = Object.keys(v);
      if (ops.length !== 1) return undefined;
      const arg = v[ops[0]!];
      if (ops[0] === '$eq') values = [arg];
      else if (ops[0] === '$in' && Array.isArray(arg)) values = arg;
      else return undefined;
    } else values = [v];
    if (!values.every(isSimpleScalar)) return undefined;
    tests.push([k, values]);
  }
  if (tests.length === 0) return MATCH_ALL;
  const one = (field: unknown, values: unknown[]): boolean => {
    for (const w of values) if (sameScalar(field, w)) return true;
    return false;
  };
  return {
    test(d: Doc): boolean {
      for (const [k, values] of tests) {
        const field = d[k];
        if (one(field, values)) continue;
        if (!Array.isArray(field) || !field.some((e) => one(e, values))) return false;
      }
      return true;
    },
  };
}

export function compileFilter(filter: Doc): Matcher {
  const plain = toPlain(filter) as Doc;
  return simpleFilter(plain) ?? mingoFilter(plain);
}

/** The general path of compileFilter (exported for the test that compares both). */
export function mingoFilter(plain: Doc): Matcher {
  try {
    return new Query(plain, OPTS);
  } catch (e) {
    throw badValue((e as Error).message);
  }
}

function sortComparator(sort: Doc): (a: Visible, b: Visible) => number {
  const keys = Object.entries(toPlain(sort) as Doc).map(([k, d]) => [k, d === -1 ? -1 : 1] as const);
  return (a, b) => {
    for (const [k, dir] of keys) {
      const c = compare(getPath(a.plain, k), getPath(b.plain, k));
      if (c !== 0) return c * dir;
    }
    return 0;
  };
}

export function sortVisible(rows: Visible[], sort: Doc | undefined): Visible[] {
  if (!sort || Object.keys(sort).length === 0) return rows;
  return rows.slice().sort(sortComparator(sort));
}

const SORT_RUN = 5000;

/**
 * The same order as sortVisible, for large inputs sorted in runs and merged so that other clients
 * are served between slices (a sort of a million rows would otherwise hold the server for seconds).
 */
export async function sortVisibleYielding(rows: Visible[], sort: Doc | undefined): Promise<Visible[]> {
  if (!sort || Object.keys(sort).length === 0 || rows.length <= SORT_RUN) return sortVisible(rows, sort);
  const cmp = sortComparator(sort);
  const pause = (): Promise<void> => new Promise((r) => setImmediate(r));
  let runs: Visible[][] = [];
  for (let i = 0; i < rows.length; i += SORT_RUN) {
    runs.push(rows.slice(i, i + SORT_RUN).sort(cmp));
    await pause();
  }
  while (runs.length > 1) {
    const next: Visible[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const a = runs[r]!;
      const b = runs[r + 1];
      if (!b) {
        next.push(a);
        continue;
      }
      const out: Visible[] = new Array<Visible>(a.length + b.length);
      let i = 0;
      let j = 0;
      let k = 0;
      // Stable: on ties the earlier run wins.
      while (i < a.length && j < b.length) {
        out[k++] = cmp(b[j]!, a[i]!) < 0 ? b[j++]! : a[i++]!;
        if ((k & 8191) === 0) await pause();
      }
      while (i < a.length) out[k++] = a[i++]!;
      while (j < b.length) out[k++] = b[j++]!;
      next.push(out);
    }
    runs = next;
  }
  return runs[0] ?? [];
}

/**
 * A projection naming only top-level fields with 1/0 (true/false) — `{_id: 1}`, `{balanceDeci: 1,
 * seq: 1}`, `{topic: 1, event: 1, trace: 1}`, `{createdAt: 0}`: what the services send. Applied
 * without mingo (which cost about a tenth of the server's CPU on the order path). Fields come in the
 * document's order, `_id` first, as on the server. Undefined when the general path is needed (dotted
 * paths, operators, expressions, mixed inclusion and exclusion, which fails there).
 */
function simpleProjection(projection: Doc): ((d: Doc) => Doc) | undefined {
  let idShown = true;
  const named = new Set<string>();
  let include: boolean | undefined;
  for (const k of Object.keys(projection)) {
    const v = toPlain(projection[k]);
    if (v !== 0 && v !== 1 && v !== true && v !== false) return undefined;
    const on = v === 1 || v === true;
    if (k === '_id') {
      idShown = on;
      continue;
    }
    if (k === '' || k.includes('.') || k.startsWith('$')) return undefined;
    if (include === undefined) include = on;
    else if (include !== on) return undefined;
    named.add(k);
  }
  if (include === undefined) {
    // Only _id: {_id: 1} keeps just it, {_id: 0} drops just it.
    if (idShown) return (d) => ('_id' in d ? { _id: d['_id'] } : {});
    include = false;
  } else if (!include && idShown && '_id' in projection) {
    // {n: 0, _id: 1}: refused by the general path, as before.
    return undefined;
  }
  if (include) {
    return (d) => {
      const out: Doc = {};
      for (const k of Object.keys(d)) if (k === '_id' ? idShown : named.has(k)) out[k] = d[k];
      return out;
    };
  }
  return (d) => {
    const out: Doc = {};
    for (const k of Object.keys(d)) if (k === '_id' ? idShown : !named.has(k)) out[k] = d[k];
    return out;
  };
}

export function project(docs: Doc[], projection: Doc | undefined): Doc[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  const simple = simpleProjection(projection);
  return simple ? docs.map(simple) : mingoProject(docs, projection);
}

/** Documents projected per slice of a large result, between which other clients are served. */
const PROJECT_SLICE = 2000;

/**
 * project() of a large result in slices with a turn of the event loop between them (a find of
 * 200,000 documents with a projection made them all in one go), same answer.
 */
export async function projectYielding(docs: Doc[], projection: Doc | undefined): Promise<Doc[]> {
  if (!projection || Object.keys(projection).length === 0 || docs.length <= PROJECT_SLICE) return project(docs, projection);
  const out: Doc[] = [];
  for (let i = 0; i < docs.length; i += PROJECT_SLICE) {
    for (const d of project(docs.slice(i, i + PROJECT_SLICE), projection)) out.push(d);
    await yieldTurn();
  }
  return out;
}

/** The general path of project (exported for the test that compares both). */
export function mingoProject(docs: Doc[], projection: Doc): Doc[] {
  try {
    return new Query({}, OPTS).find(docs, toPlain(projection) as Doc).all() as Doc[];
  } catch (e) {
    throw badValue((e as Error).message);
  }
}

/**
 * Calls `visit` with each field condition of a filter, in order, `$and` branches included; other
 * top-level operators (`$or`, `$nor`, `$expr`, …) are skipped. The planner bounds indexes and an
 * upsert seeds its document from these.
 */
export function forEachFieldCondition(filter: Doc, visit: (field: string, condition: unknown) => void): void {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (isPlainObject(sub)) forEachFieldCondition(sub, visit);
    } else if (!k.startsWith('$')) visit(k, v);
  }
}

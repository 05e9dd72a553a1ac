// Query evaluation on top of mingo: filters, sorting, projection, update application and upsert
// seeding (mingo has no $setOnInsert or upsert document construction). Running reads: reads.ts.
import { Aggregator, Context, Query as FullQuery } from 'mingo';
import { Query } from 'mingo/query';
import { update as mingoUpdate } from 'mingo/updater';
import type { Options } from 'mingo/types';
import { compare } from 'mingo/util';
import { ObjectId } from 'bson';
import type { Visible } from './engine.ts';
import { Codes, MongoError, badValue } from './errors.ts';
import { clone, getPath, hasTyped, isPlainObject, numberKind, retype, toPlain, valueKey, widenKind, withNumberKind } from './values.ts';
import type { Doc } from './values.ts';

export const MINGO_OPTS = { scriptEnabled: false };

/**
 * mingo copies its whole operator table for every Query built from plain options, which dominated
 * per-command cost. Building queries from one prepared options object skips that copy; the
 * prepared object is captured from a throwaway operator because mingo does not export its class.
 */
function prepareOptions(): Options {
  let captured: Options | undefined;
  const grab = Context.init({
    query: {
      $__captureOptions: (_sel: string, _v: unknown, options: Options) => {
        captured = options;
        return () => true;
      },
    },
  });
  new FullQuery({ x: { $__captureOptions: 1 } }, { ...MINGO_OPTS, context: grab });
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

/** The general path of project (exported for the test that compares both). */
export function mingoProject(docs: Doc[], projection: Doc): Doc[] {
  try {
    return new Query({}, OPTS).find(docs, toPlain(projection) as Doc).all() as Doc[];
  } catch (e) {
    throw badValue((e as Error).message);
  }
}

export function isOperatorUpdate(u: Doc): boolean {
  const keys = Object.keys(u);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

const simpleField = (k: string) => k !== '_id' && k !== '' && !k.includes('.') && !k.startsWith('$');

/**
 * `$set`, `$unset` and `$inc` of top-level fields (the outbox relays' marks, payment changes,
 * leases, balance and sequence increments), with `$setOnInsert` ignored (the document exists):
 * applied without mingo and without copying the untouched fields, which for a large document (an
 * outbox record carries its whole event) cost more than the update itself, and mingo's updater
 * context cost most of an `$inc`. The result is the one `applyUpdate` gives, number types
 * included (`$inc` widens as the server does). Undefined when the update needs that general path:
 * dotted or positional paths, other operators, `_id`, a field named twice, an empty operator, an
 * `$inc` that is not a number or meets a field that is not one, or an integer sum past 2^53.
 */
export function applySimpleUpdate(old: { doc: Doc; plain: Doc }, u: Doc | Doc[]): { doc: Doc; plain: Doc; modified: boolean } | undefined {
  if (Array.isArray(u)) return undefined;
  let set: Doc | undefined;
  let unset: Doc | undefined;
  let inc: Doc | undefined;
  const named = new Set<string>();
  for (const op of Object.keys(u)) {
    const fields = u[op];
    if (!isPlainObject(fields)) return undefined;
    const keys = Object.keys(fields);
    if (keys.length === 0) return undefined;
    if (op === '$set') set = fields;
    else if (op === '$unset') unset = fields;
    else if (op === '$inc') inc = fields;
    else if (op !== '$setOnInsert') return undefined;
    for (const k of keys) {
      if (!simpleField(k) || named.has(k)) return undefined;
      named.add(k);
    }
  }
  if (set === undefined && unset === undefined && inc === undefined) return undefined;
  // The new values of the $inc fields, typed, before anything is copied.
  const incremented: Array<[string, unknown]> = [];
  for (const k of Object.keys(inc ?? {})) {
    const by = inc![k];
    const byKind = numberKind(by);
    const cur = old.doc[k];
    const curKind = cur === undefined ? 'int' : numberKind(cur);
    if (!byKind || !curKind) return undefined;
    const sum = (cur === undefined ? 0 : (toPlain(cur) as number)) + (toPlain(by) as number);
    const kind = widenKind(curKind, byKind);
    if (kind !== 'double' && !Number.isSafeInteger(sum)) return undefined;
    incremented.push([k, withNumberKind(sum, kind)]);
  }
  const doc: Doc = { ...old.doc };
  // Untyped documents are their own plain twin; stay so unless a typed value (Long, Double) comes in.
  const shared = old.plain === old.doc && !(set && Object.values(set).some(hasTyped)) && !incremented.some(([, v]) => hasTyped(v));
  const plain: Doc = shared ? doc : { ...old.plain };
  let modified = false;
  for (const k of Object.keys(set ?? {})) {
    const value = set![k];
    if (!modified && (!(k in old.doc) || valueKey(value) !== valueKey(old.doc[k]))) modified = true;
    doc[k] = clone(value);
    if (!shared) plain[k] = toPlain(doc[k]);
  }
  for (const [k, value] of incremented) {
    if (!modified && (!(k in old.doc) || valueKey(value) !== valueKey(old.doc[k]))) modified = true;
    doc[k] = value;
    if (!shared) plain[k] = toPlain(value);
  }
  for (const k of Object.keys(unset ?? {})) {
    if (!(k in doc)) continue;
    modified = true;
    delete doc[k];
    if (!shared) delete plain[k];
  }
  return { doc, plain, modified };
}

/** Returns the new typed document for an update applied to `old` (or to an upsert seed). */
export function applyUpdate(
  old: { doc: Doc; plain: Doc },
  u: Doc | Doc[],
  filter: Doc,
  arrayFilters: Doc[] | undefined,
  inserting: boolean,
): Doc {
  let next: Doc;
  try {
    if (Array.isArray(u)) {
      const out = new Aggregator(toPlain(u) as Doc[], MINGO_OPTS).run([clone(old.plain)]);
      next = retype(out[0] ?? {}, old.doc, undefined) as Doc;
    } else if (!isOperatorUpdate(u)) {
      if (Object.keys(u).some((k) => k.startsWith('$'))) throw badValue('Unknown modifier mixed with fields in update');
      next = { _id: old.doc['_id'], ...clone(u) };
      if (next['_id'] === undefined) delete next['_id'];
    } else {
      const spec: Doc = { ...u };
      const soi = spec['$setOnInsert'];
      delete spec['$setOnInsert'];
      if (inserting && isPlainObject(soi)) spec['$set'] = { ...(isPlainObject(spec['$set']) ? spec['$set'] : {}), ...soi };
      const target = clone(old.plain);
      const set = spec['$set'];
      if (inserting && isPlainObject(set) && '_id' in set) {
        // mingo refuses to touch _id at all; on insert setting it is legal.
        const { _id, ...rest } = set;
        target['_id'] = toPlain(_id);
        old = { doc: { ...old.doc, _id }, plain: target };
        spec['$set'] = rest;
      }
      if (Object.keys(spec).length > 0) {
        // The document already matched; the filter only matters for the positional `$` operator.
        // Plain options let mingo build its small updater context instead of copying the full one.
        const positional = Object.values(spec).some((o) => isPlainObject(o) && Object.keys(o).some((k) => k.split('.').includes('$')));
        mingoUpdate(target, toPlain(spec) as Doc, toPlain(arrayFilters) as Doc[] | undefined, positional ? (toPlain(filter) as Doc) : undefined, {
          cloneMode: 'copy',
          queryOptions: MINGO_OPTS,
        });
      }
      next = retype(target, old.doc, spec) as Doc;
    }
  } catch (e) {
    if (e instanceof MongoError) throw e;
    const msg = (e as Error).message;
    throw new MongoError(/immutable field/.test(msg) ? Codes.ImmutableField : Codes.FailedToParse, msg);
  }
  if (!inserting && old.doc['_id'] !== undefined && valueKey(next['_id']) !== valueKey(old.doc['_id'])) {
    throw new MongoError(Codes.ImmutableField, "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return withIdFirst(next);
}

export function withIdFirst(d: Doc): Doc {
  if (d['_id'] === undefined) return { _id: new ObjectId(), ...d };
  if (Object.keys(d)[0] === '_id') return d;
  const { _id, ...rest } = d;
  return { _id, ...rest };
}

/** The document an upsert starts from: the equality parts of the filter. */
export function upsertSeed(filter: Doc): Doc {
  const seed: Doc = {};
  const visit = (f: Doc): void => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        for (const s of v) if (isPlainObject(s)) visit(s);
        continue;
      }
      if (k.startsWith('$')) continue;
      let val: unknown;
      if (isPlainObject(v)) {
        const keys = Object.keys(v);
        if (keys.length === 0 || !keys[0]?.startsWith('$')) val = v;
        else if (keys.length === 1 && keys[0] === '$eq') val = v['$eq'];
        else continue;
      } else if (v instanceof RegExp) continue;
      else val = v;
      setPath(seed, k, clone(val));
    }
  };
  visit(filter);
  return seed;
}

function setPath(d: Doc, path: string, v: unknown): void {
  const parts = path.split('.');
  let cur = d;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i] ?? '';
    if (!isPlainObject(cur[p])) cur[p] = {};
    cur = cur[p] as Doc;
  }
  cur[parts[parts.length - 1] ?? ''] = v;
}

export function validateDoc(d: Doc): void {
  for (const k of Object.keys(d)) {
    if (k.startsWith('$')) throw new MongoError(Codes.DollarPrefixedFieldName, `Document can't have $ prefixed field names: ${k}`);
  }
  if (Array.isArray(d['_id'])) throw new MongoError(Codes.InvalidIdField, "The '_id' value cannot be of type array");
}


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
import { clone, getPath, hasTyped, isPlainObject, retype, toPlain, valueKey } from './values.ts';
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

export function compileFilter(filter: Doc): Query {
  try {
    return new Query(toPlain(filter) as Doc, OPTS);
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

export function project(docs: Doc[], projection: Doc | undefined): Doc[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
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
 * `$set` and `$unset` of top-level fields (the outbox relays' marks, payment changes, leases):
 * applied without mingo and without copying the untouched fields, which for a large document (an
 * outbox record carries its whole event) cost more than the update itself. The result is the one
 * `applyUpdate` gives. Undefined when the update needs that general path: dotted or positional
 * paths, other operators, `_id`, a field both set and unset, an empty operator.
 */
export function applySimpleUpdate(old: { doc: Doc; plain: Doc }, u: Doc | Doc[]): { doc: Doc; plain: Doc; modified: boolean } | undefined {
  if (Array.isArray(u)) return undefined;
  let set: Doc | undefined;
  let unset: Doc | undefined;
  for (const op of Object.keys(u)) {
    const fields = u[op];
    if (!isPlainObject(fields) || Object.keys(fields).length === 0) return undefined;
    if (op === '$set') set = fields;
    else if (op === '$unset') unset = fields;
    else return undefined;
  }
  if (set === undefined && unset === undefined) return undefined;
  if (set && !Object.keys(set).every(simpleField)) return undefined;
  if (unset && !Object.keys(unset).every((k) => simpleField(k) && !(set && k in set))) return undefined;
  const doc: Doc = { ...old.doc };
  // Untyped documents are their own plain twin; stay so unless a typed value (Long, Double) comes in.
  const shared = old.plain === old.doc && !(set && Object.values(set).some(hasTyped));
  const plain: Doc = shared ? doc : { ...old.plain };
  let modified = false;
  for (const k of Object.keys(set ?? {})) {
    const value = set![k];
    if (!modified && (!(k in old.doc) || valueKey(value) !== valueKey(old.doc[k]))) modified = true;
    doc[k] = clone(value);
    if (!shared) plain[k] = toPlain(doc[k]);
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


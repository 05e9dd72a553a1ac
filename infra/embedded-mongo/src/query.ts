// Query evaluation on top of mingo: matching, sorting, projection, update application and upsert
// seeding (mingo has no $setOnInsert or upsert document construction).
import { Aggregator, Context, Query as FullQuery } from 'mingo';
import { Query } from 'mingo/query';
import { update as mingoUpdate } from 'mingo/updater';
import type { Options } from 'mingo/types';
import { compare } from 'mingo/util';
import { ObjectId } from 'bson';
import type { Collection } from './collection.ts';
import type { Engine, Visible } from './engine.ts';
import { Codes, MongoError, badValue } from './errors.ts';
import type { Txn } from './txn.ts';
import { clone, getPath, isPlainObject, retype, toPlain, valueKey } from './values.ts';
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

/** Visible documents matching the filter, in natural order; stops after `limit` matches when given. */
export function matching(engine: Engine, txn: Txn | null, coll: Collection | undefined, filter: Doc, limit = Infinity): Visible[] {
  const q = compileFilter(filter);
  if (!coll) return [];
  const plainFilter = toPlain(filter) as Doc;
  const out: Visible[] = [];
  try {
    let examined = 0;
    for (const v of engine.candidates(txn, coll, plainFilter)) {
      examined++;
      if (q.test(v.plain)) {
        out.push(v);
        if (out.length >= limit) break;
      }
    }
    engine.stats.scannedObjects += examined;
  } catch (e) {
    throw badValue((e as Error).message);
  }
  return out;
}

export function sortVisible(rows: Visible[], sort: Doc | undefined): Visible[] {
  if (!sort || Object.keys(sort).length === 0) return rows;
  const keys = Object.entries(toPlain(sort) as Doc).map(([k, d]) => [k, d === -1 ? -1 : 1] as const);
  return rows.slice().sort((a, b) => {
    for (const [k, dir] of keys) {
      const c = compare(getPath(a.plain, k), getPath(b.plain, k));
      if (c !== 0) return c * dir;
    }
    return 0;
  });
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


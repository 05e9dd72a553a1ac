// Update application on top of mingo's updater, with a direct path for the common top-level
// $set/$unset/$inc, upsert seeding (mingo has no $setOnInsert or upsert document construction) and
// the checks a stored document must pass.
import { Aggregator } from 'mingo';
import { update as mingoUpdate } from 'mingo/updater';
import { ObjectId } from 'bson';
import { Codes, MongoError, badValue } from './errors.ts';
import { MINGO_OPTS, forEachFieldCondition } from './query.ts';
import { clone, hasTyped, isPlainObject, numberKind, retype, toPlain, valueKey, widenKind, withNumberKind } from './values.ts';
import type { Doc } from './values.ts';

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
  forEachFieldCondition(filter, (k, v) => {
    let val: unknown;
    if (isPlainObject(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0 || !keys[0]?.startsWith('$')) val = v;
      else if (keys.length === 1 && keys[0] === '$eq') val = v['$eq'];
      else return;
    } else if (v instanceof RegExp) return;
    else val = v;
    setPath(seed, k, clone(val));
  });
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


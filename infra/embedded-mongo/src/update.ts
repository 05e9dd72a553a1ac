// Update application on top of mingo's updater, with a direct path for the common top-level
// $set/$unset/$inc, upsert seeding (mingo has no $setOnInsert or upsert document construction) and
// the checks a stored document must pass.
import { Aggregator } from 'mingo/aggregator';
import { update as mingoUpdate } from 'mingo/updater';
import { ObjectId } from 'bson';
import { Codes, MongoError, badValue } from './errors.ts';
import { MINGO_OPTS, PLAIN_OPTS, forEachFieldCondition } from './query.ts';
import { clone, hasTyped, isPlainObject, numberKind, retype, toPlain, valueKey, widenKind, withNumberKind } from './values.ts';
import type { Doc } from './values.ts';

export function isOperatorUpdate(u: Doc): boolean {
  const keys = Object.keys(u);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

const simpleField = (k: string) => k !== '_id' && k !== '' && !k.includes('.') && !k.startsWith('$');

/** `{ 'a.b': { $in: [strings] } }`: a `$pull` condition the direct path takes, as its path and values. */
function pullByValues(condition: unknown): { path: string[]; values: Set<string> } | undefined {
  if (!isPlainObject(condition)) return undefined;
  const keys = Object.keys(condition);
  if (keys.length !== 1 || keys[0]!.startsWith('$') || keys[0]!.split('.').some((p) => p === '' || /^\d+$/.test(p))) return undefined;
  const test = condition[keys[0]!];
  if (!isPlainObject(test) || Object.keys(test).length !== 1 || !Array.isArray(test['$in'])) return undefined;
  const values = test['$in'] as unknown[];
  if (!values.every((v) => typeof v === 'string')) return undefined;
  return { path: keys[0]!.split('.'), values: new Set(values as string[]) };
}

/** The string at `path` inside `element`; null when a step is missing, undefined when one is an array (not the direct path's business). */
function stringAt(element: unknown, path: readonly string[]): string | null | undefined {
  let at: unknown = element;
  for (const step of path) {
    if (Array.isArray(at)) return undefined;
    if (!isPlainObject(at)) return null;
    at = at[step];
  }
  if (Array.isArray(at)) return undefined;
  return typeof at === 'string' ? at : null;
}

/**
 * `$set`, `$unset` and `$inc` of top-level fields (the outbox relays' marks, payment changes,
 * leases, balance and sequence increments), `$push` of one value onto a top-level array and
 * `$pull` of the documents of one whose field (by path) is among strings (an event kept in a
 * document, and its removal once sent), with `$setOnInsert` ignored (the document exists):
 * applied without mingo and without copying the untouched fields, which for a large document (an
 * outbox record carries its whole event) cost more than the update itself, and mingo's updater
 * context cost most of an `$inc`. The result is the one `applyUpdate` gives, number types
 * included (`$inc` widens as the server does). Undefined when the update needs that general path:
 * dotted or positional paths, other operators, `_id`, a field named twice, an empty operator, an
 * `$inc` that is not a number or meets a field that is not one, or an integer sum past 2^53; a
 * `$push` with modifiers or a `$pull` of another condition, or either on a field that is not an array.
 */
export function applySimpleUpdate(old: { doc: Doc; plain: Doc }, u: Doc | Doc[]): { doc: Doc; plain: Doc; modified: boolean } | undefined {
  if (Array.isArray(u)) return undefined;
  let set: Doc | undefined;
  let unset: Doc | undefined;
  let inc: Doc | undefined;
  let push: Doc | undefined;
  let pull: Doc | undefined;
  const named = new Set<string>();
  for (const op of Object.keys(u)) {
    const fields = u[op];
    if (!isPlainObject(fields)) return undefined;
    const keys = Object.keys(fields);
    if (keys.length === 0) return undefined;
    if (op === '$set') set = fields;
    else if (op === '$unset') unset = fields;
    else if (op === '$inc') inc = fields;
    else if (op === '$push') push = fields;
    else if (op === '$pull') pull = fields;
    else if (op !== '$setOnInsert') return undefined;
    for (const k of keys) {
      if (!simpleField(k) || named.has(k)) return undefined;
      named.add(k);
    }
  }
  if (set === undefined && unset === undefined && inc === undefined && push === undefined && pull === undefined) return undefined;
  // The new arrays of the $push and $pull fields, before anything is copied.
  const arrays: Array<[string, unknown[]]> = [];
  for (const k of Object.keys(push ?? {})) {
    const value = push![k];
    if (isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'))) return undefined; // $each, $position, ...
    const cur = old.doc[k];
    if (cur !== undefined && !Array.isArray(cur)) return undefined;
    arrays.push([k, [...((cur as unknown[] | undefined) ?? []), clone(value)]]);
  }
  for (const k of Object.keys(pull ?? {})) {
    const by = pullByValues(pull![k]);
    const cur = old.doc[k];
    if (!by || (cur !== undefined && !Array.isArray(cur))) return undefined;
    if (cur === undefined) continue;
    const kept: unknown[] = [];
    for (const element of cur as unknown[]) {
      const at = stringAt(element, by.path);
      if (at === undefined) return undefined;
      if (at === null || !by.values.has(at)) kept.push(element);
    }
    if (kept.length !== (cur as unknown[]).length) arrays.push([k, kept]);
  }
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
  const shared =
    old.plain === old.doc && !(set && Object.values(set).some(hasTyped)) && !incremented.some(([, v]) => hasTyped(v)) && !(push && Object.values(push).some(hasTyped));
  const plain: Doc = shared ? doc : { ...old.plain };
  let modified = false;
  let removed: Set<string> | undefined;
  const put = (k: string, value: unknown, changed: boolean) => {
    if (changed) modified = true;
    doc[k] = value;
    if (!shared) plain[k] = toPlain(value);
  };
  const changes = (k: string, value: unknown) => !(k in old.doc) || valueKey(value) !== valueKey(old.doc[k]);
  const arrayOf = new Map(arrays);
  // In the update's operator order, as the general path applies them (new fields land in that order).
  for (const op of Object.keys(u)) {
    if (op === '$set') for (const k of Object.keys(set!)) put(k, clone(set![k]), changes(k, set![k]));
    else if (op === '$inc') for (const [k, value] of incremented) put(k, value, changes(k, value));
    else if (op === '$push' || op === '$pull') {
      for (const k of Object.keys(u[op] as Doc)) if (arrayOf.has(k)) put(k, arrayOf.get(k), true);
    } else if (op === '$unset') {
      for (const k of Object.keys(unset!)) {
        if (!(k in doc)) continue;
        modified = true;
        (removed ??= new Set()).add(k);
      }
    }
  }
  if (!removed) return { doc, plain, modified };
  const kept = without(doc, removed);
  return { doc: kept, plain: shared ? kept : without(plain, removed), modified };
}

/**
 * A copy of `doc` without the `removed` fields, in the same field order. `delete` would do it in
 * place, but V8 then turns the object into a hash table of its properties (dictionary mode), ~1 KB
 * more per document for as long as it is stored: every outbox record the relays mark published
 * (`$unset: {pending: ''}`) was one.
 */
function without(doc: Doc, removed: ReadonlySet<string>): Doc {
  const out: Doc = {};
  for (const k of Object.keys(doc)) if (!removed.has(k)) out[k] = doc[k];
  return out;
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
          queryOptions: PLAIN_OPTS,
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


// Aggregation stages past the leading $match/$sort/$skip/$limit, run on typed documents so int32,
// int64 and double keep their types as on the server: $group accumulators, arithmetic, $project,
// $unwind, $lookup, $facet... are evaluated here with the server's widening rules. mingo (plain JS
// numbers, no types) still runs filters and the stages and operators not implemented here, but
// only where its answer is exact; otherwise the pipeline is refused with an error naming why.
import { Aggregator } from 'mingo/aggregator';
import { Query } from 'mingo/query';
import { Long } from 'bson';
import { compareValues } from '../keyorder.ts';
import { Codes, MongoError } from '../errors.ts';
import { MINGO_OPTS, sortVisible } from '../query.ts';
import { isPlainObject, plainDoc, toPlain, valueKey, widenLargeInts } from '../values.ts';
import type { Doc } from '../values.ts';
import { REFUSED, accumulator, evaluate, fieldPath } from './expressions.ts';
import { ambiguous, asNumber, kindOf, refuse, truthy } from './numbers.ts';

export interface Row {
  doc: Doc;
  plain: Doc;
}

/** Plain twins of another collection's visible documents, for $lookup. */
export type Resolver = (name: string) => Row[];

/** Operators whose result is a double (or keeps a double's type) even when every input is int32. */
const TYPE_SENSITIVE = /"\$(avg|divide|stdDevPop|stdDevSamp|sqrt|exp|ln|log|log10|pow|toDouble|toLong|toDecimal|round|trunc|ceil|floor|median|percentile|sin|cos|tan|asin|acos|atan|atan2|degreesToRadians|radiansToDegrees|convert)":/;

function row(doc: Doc): Row {
  return { doc, plain: plainDoc(doc) };
}

function group(rows: Row[], spec: Doc, idOf = (doc: Doc): unknown => evaluate(spec['_id'], doc)): Row[] {
  if (!('_id' in spec)) throw new MongoError(Codes.FailedToParse, 'a group specification must include an _id');
  const accs = Object.keys(spec)
    .filter((k) => k !== '_id')
    .map((k) => [k, accumulator(k, spec[k])] as const);
  const groups = new Map<string, { id: unknown; docs: Doc[] }>();
  for (const r of rows) {
    let id = idOf(r.doc);
    if (id === undefined) id = null;
    const key = valueKey(id);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { id, docs: [] }));
    g.docs.push(r.doc);
  }
  return [...groups.values()].map((g) => {
    const out: Doc = { _id: g.id };
    for (const [k, acc] of accs) out[k] = acc(g.docs);
    return row(out);
  });
}

// ---- other typed stages ----

/** $bucket as the manual states it: [lower, upper) per bucket, empty buckets omitted, `default` last. */
function bucket(rows: Row[], spec: Doc): Row[] {
  const bounds = spec['boundaries'];
  if (!Array.isArray(bounds) || bounds.length < 2) throw new MongoError(40192, "The $bucket 'boundaries' field must be an array of at least two values");
  for (let i = 1; i < bounds.length; i++) {
    if (compareValues(toPlain(bounds[i - 1]), toPlain(bounds[i])) >= 0) throw new MongoError(40194, "The 'boundaries' option to $bucket must be sorted in ascending order");
  }
  const hasDefault = 'default' in spec;
  const output = isPlainObject(spec['output']) ? spec['output'] : { count: { $sum: 1 } };
  const idOf = (doc: Doc): unknown => {
    const v = toPlain(evaluate(spec['groupBy'], doc) ?? null);
    for (let i = 0; i + 1 < bounds.length; i++) {
      if (compareValues(v, toPlain(bounds[i])) >= 0 && compareValues(v, toPlain(bounds[i + 1])) < 0) return bounds[i];
    }
    if (!hasDefault) throw new MongoError(40066, "$switch could not find a matching branch for an input, and no default was specified.");
    return spec['default'];
  };
  const out = group(rows, { _id: null, ...output }, idOf);
  const rank = (id: unknown): number => {
    const i = bounds.findIndex((b) => valueKey(b) === valueKey(id));
    return i < 0 ? bounds.length : i;
  };
  return out.sort((a, b) => rank(a.doc['_id']) - rank(b.doc['_id']));
}

function project(rows: Row[], spec: Doc, addOnly: boolean): Row[] | undefined {
  const keys = Object.keys(spec);
  if (keys.some((k) => k.includes('.') || k.startsWith('$'))) return undefined;
  const isFlag = (v: unknown): boolean => typeof v === 'boolean' || kindOf(v) !== undefined;
  // Nested projections ({a: {b: 1}}) go to mingo.
  if (keys.some((k) => isPlainObject(spec[k]) && !Object.keys(spec[k] as Doc)[0]?.startsWith('$'))) return undefined;
  const flags = addOnly ? [] : keys.filter((k) => isFlag(spec[k]));
  const computed = addOnly ? keys : keys.filter((k) => !isFlag(spec[k]));
  // {_id: 0} alone is an exclusion too.
  const exclusion = flags.some((k) => k !== '_id' && !truthy(spec[k])) || (flags.length > 0 && !computed.length && flags.every((k) => !truthy(spec[k])));
  if (exclusion && computed.length) throw new MongoError(31254, 'Cannot do inclusion on a computed field in exclusion projection');
  return rows.map(({ doc }) => {
    let out: Doc;
    if (addOnly || exclusion) {
      out = { ...doc };
      for (const k of flags) if (!truthy(spec[k])) delete out[k];
    } else {
      // Included fields keep the document's order, _id first unless excluded; computed ones follow.
      out = {};
      const idFlag = spec['_id'];
      if ((idFlag === undefined || (isFlag(idFlag) && truthy(idFlag))) && doc['_id'] !== undefined) out['_id'] = doc['_id'];
      for (const k of Object.keys(doc)) if (k !== '_id' && isFlag(spec[k]) && truthy(spec[k])) out[k] = doc[k];
    }
    for (const k of computed) {
      const value = evaluate(spec[k], doc);
      if (value === undefined) delete out[k];
      else out[k] = value;
    }
    return row(out);
  });
}

function unwind(rows: Row[], spec: unknown): Row[] | undefined {
  const o = typeof spec === 'string' ? { path: spec } : (spec as Doc);
  const path = String(o['path'] ?? '');
  // A dotted path goes to mingo (exact over int32-only documents, refused otherwise).
  if (!path.startsWith('$') || path.includes('.')) return undefined;
  const field = path.slice(1);
  const indexField = typeof o['includeArrayIndex'] === 'string' ? o['includeArrayIndex'] : undefined;
  const keep = o['preserveNullAndEmptyArrays'] === true;
  const out: Row[] = [];
  for (const { doc } of rows) {
    const v = doc[field];
    if (Array.isArray(v) && v.length) {
      v.forEach((x, i) => out.push(row({ ...doc, [field]: x, ...(indexField ? { [indexField]: Long.fromNumber(i) } : {}) })));
    } else if (!Array.isArray(v) && v !== undefined && v !== null) {
      out.push(row({ ...doc, ...(indexField ? { [indexField]: null } : {}) }));
    } else if (keep) {
      const d = { ...doc, ...(indexField ? { [indexField]: null } : {}) };
      if (Array.isArray(v)) delete d[field];
      out.push(row(d));
    }
  }
  return out;
}

function lookup(rows: Row[], spec: Doc, resolve: Resolver): Row[] | undefined {
  const { from, localField, foreignField, as } = spec;
  if (typeof from !== 'string' || typeof localField !== 'string' || typeof foreignField !== 'string' || typeof as !== 'string') return undefined;
  if ('pipeline' in spec || 'let' in spec || as.includes('.')) return undefined;
  const foreign = resolve(from);
  const keysOf = (v: unknown): string[] => (Array.isArray(v) ? (v.length ? v.map(valueKey) : [valueKey(undefined)]) : [valueKey(v)]);
  const byKey = new Map<string, Doc[]>();
  for (const f of foreign) {
    for (const k of new Set(keysOf(fieldPath(f.doc, foreignField.split('.'))))) {
      let list = byKey.get(k);
      if (!list) byKey.set(k, (list = []));
      list.push(f.doc);
    }
  }
  return rows.map(({ doc }) => {
    const matched = new Set<Doc>();
    for (const k of keysOf(fieldPath(doc, localField.split('.')))) for (const d of byKey.get(k) ?? []) matched.add(d);
    return row({ ...doc, [as]: foreign.map((f) => f.doc).filter((d) => matched.has(d)) });
  });
}

function stageName(st: Doc): string {
  return Object.keys(st)[0] ?? '';
}

/** Runs pipeline stages on typed rows. */
export function runPipeline(rows: Row[], stages: Doc[], resolve: Resolver): Row[] {
  for (const st of stages) {
    const name = stageName(st);
    const spec = st[name];
    const refused = REFUSED.get(name);
    if (refused) refuse(refused);
    for (const [op, message] of REFUSED) if (JSON.stringify(toPlain(spec) ?? null).includes(`"${op}":`)) refuse(message);
    const typed = typedStage(rows, name, spec, resolve);
    rows = typed ?? viaMingoStage(rows, st, resolve);
  }
  return rows;
}

function typedStage(rows: Row[], name: string, spec: unknown, resolve: Resolver): Row[] | undefined {
  switch (name) {
    case '$match': {
      if (!isPlainObject(spec)) return undefined;
      const q = new Query(toPlain(spec) as Doc, MINGO_OPTS);
      return rows.filter((r) => q.test(r.plain));
    }
    case '$sort':
      return isPlainObject(spec) ? sortVisible(rows.map((r) => ({ id: '', ...r })), spec) : undefined;
    case '$skip':
      return rows.slice(asNumber(spec));
    case '$limit':
      return rows.slice(0, asNumber(spec));
    case '$count':
      return typeof spec === 'string' ? [row({ [spec]: rows.length })] : undefined;
    case '$group':
      return isPlainObject(spec) ? group(rows, spec) : undefined;
    case '$sortByCount': {
      const grouped = group(rows, { _id: spec, count: { $sum: 1 } });
      return grouped.sort((a, b) => (b.doc['count'] as number) - (a.doc['count'] as number));
    }
    case '$project':
      return isPlainObject(spec) ? project(rows, spec, false) : undefined;
    case '$addFields':
    case '$set':
      return isPlainObject(spec) ? project(rows, spec, true) : undefined;
    case '$unset': {
      const names = Array.isArray(spec) ? spec : [spec];
      if (names.some((n) => typeof n !== 'string' || n.includes('.'))) return undefined;
      return rows.map(({ doc }) => {
        const out = { ...doc };
        for (const n of names as string[]) delete out[n];
        return row(out);
      });
    }
    case '$replaceRoot':
    case '$replaceWith': {
      const expr = name === '$replaceRoot' ? (spec as Doc)['newRoot'] : spec;
      return rows.map(({ doc }) => {
        const v = evaluate(expr, doc);
        if (!isPlainObject(v)) throw new MongoError(40228, `'newRoot' expression must evaluate to an object, but resulting value was: ${JSON.stringify(toPlain(v) ?? null)}`);
        return row(v);
      });
    }
    case '$unwind':
      return unwind(rows, spec);
    case '$bucket':
      return isPlainObject(spec) ? bucket(rows, spec) : undefined;
    case '$lookup':
      return isPlainObject(spec) ? lookup(rows, spec, resolve) : undefined;
    case '$facet': {
      if (!isPlainObject(spec)) return undefined;
      const out: Doc = {};
      for (const k of Object.keys(spec)) out[k] = runPipeline(rows, spec[k] as Doc[], resolve).map((r) => r.doc);
      return [row(out)];
    }
    default:
      return undefined;
  }
}

/**
 * A stage not implemented here runs in mingo on plain values. Its answer is exact only when no
 * input number needs a type a plain number cannot carry and no operator in it computes numbers
 * whose type depends on the inputs' types; otherwise the stage is refused.
 */
function viaMingoStage(rows: Row[], st: Doc, resolve: Resolver): Row[] {
  const name = stageName(st);
  const text = JSON.stringify(toPlain(st[name]) ?? null);
  const from = ['$lookup', '$graphLookup', '$unionWith'].includes(name) ? foreignName(st[name]) : undefined;
  const foreign = from ? resolve(from) : [];
  const op = TYPE_SENSITIVE.exec(text)?.[0].replace(/[":]/g, '');
  if (op) refuse(`${name} with ${op} is not supported by the embedded server's aggregation (it cannot give the server's number types there)`);
  if (ambiguous(st[name]) || rows.some((r) => ambiguous(r.doc)) || foreign.some((r) => ambiguous(r.doc))) {
    refuse(`${name} over int64 or double values is not supported by the embedded server's aggregation (it computes this stage on plain numbers, which cannot keep their types); only int32 numbers can pass through it`);
  }
  try {
    const out = new Aggregator([toPlain(st) as Doc], {
      ...MINGO_OPTS,
      collectionResolver: (n: string) => resolve(n).map((r) => r.plain),
    }).run(rows.map((r) => r.plain)) as Doc[];
    return out.map((d) => row(widenLargeInts(d) as Doc));
  } catch (e) {
    if (e instanceof MongoError) throw e;
    throw new MongoError(Codes.FailedToParse, (e as Error).message);
  }
}

function foreignName(spec: unknown): string | undefined {
  if (typeof spec === 'string') return spec;
  if (!isPlainObject(spec)) return undefined;
  const f = spec['from'] ?? spec['coll'];
  return typeof f === 'string' ? f : undefined;
}

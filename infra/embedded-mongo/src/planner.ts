// Query planning: picks the _id lookup, an index (equality prefix, then at most one range field,
// possibly also delivering the requested sort) or a collection scan, and describes the choice the
// way the server's explain does. Index bounds are a superset: the full filter is always applied.
import type { Collection } from './collection.ts';
import { MAX_KEY, MIN_KEY, TypeEdge, compareValues, typeRank } from './keyorder.ts';
import type { Entry, Index } from './indexes.ts';
import { compileFilter, forEachFieldCondition } from './query.ts';
import { isPlainObject, toPlain, valueKey } from './values.ts';
import type { Doc } from './values.ts';

interface Range {
  lo: unknown;
  loIncl: boolean;
  hi: unknown;
  hiIncl: boolean;
}

interface FieldPred {
  points?: unknown[];
  range?: Range;
  /** `$ne: null`: every key after null (null and missing fields share the null key). */
  notNull?: boolean;
}

/** The keys after every null: what `$ne: null` can match on an index that is not multikey. */
const NOT_NULL: Range = { lo: new TypeEdge(2, true), loIncl: true, hi: MAX_KEY, hiIncl: true };

export interface Plan {
  stage: 'IDHACK' | 'IXSCAN' | 'COLLSCAN' | 'OR' | 'EOF';
  /** Candidate ids in plan order (may repeat for a multikey index); undefined for a scan. */
  ids?: () => Iterable<string>;
  /** True when candidates come in the requested sort order. */
  sorted: boolean;
  keysExamined: number;
  describe(): Doc;
}

const MAX_POINTS = 1000;

function isBoundValue(v: unknown): boolean {
  if (v === undefined || v instanceof RegExp || Array.isArray(v) || isPlainObject(v)) return false;
  const r = typeRank(v);
  return r >= 2 && r <= 12 && r !== 5 && r !== 6;
}

function addRange(p: FieldPred, op: string, v: unknown): void {
  if (!isBoundValue(v) || v === null) return;
  const r = typeRank(v);
  const cur = p.range ?? { lo: new TypeEdge(r, false), loIncl: true, hi: new TypeEdge(r, true), hiIncl: true };
  if (typeRank(cur.lo) !== r) return; // mixed types: no bounds from this operator
  if (op === '$gt' || op === '$gte') {
    const c = cur.lo instanceof TypeEdge ? -1 : compareValues(cur.lo, v);
    if (c < 0 || (c === 0 && op === '$gt')) Object.assign(cur, { lo: v, loIncl: op === '$gte' });
  } else {
    const c = cur.hi instanceof TypeEdge ? 1 : compareValues(cur.hi, v);
    if (c > 0 || (c === 0 && op === '$lt')) Object.assign(cur, { hi: v, hiIncl: op === '$lte' });
  }
  p.range = cur;
}

/** Per-field predicates an index can bound: equality points and ranges of one type. */
export function predicates(filter: Doc): Map<string, FieldPred> {
  const out = new Map<string, FieldPred>();
  forEachFieldCondition(filter, (k, v) => {
    const p = out.get(k) ?? {};
    if (isPlainObject(v) && Object.keys(v).some((o) => o.startsWith('$'))) {
      for (const [op, arg] of Object.entries(v)) {
        if (op === '$eq' && isBoundValue(arg)) p.points = [arg];
        else if (op === '$in' && Array.isArray(arg) && arg.length <= MAX_POINTS && arg.every(isBoundValue)) p.points ??= arg;
        else if (op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte') addRange(p, op, arg);
        // A missing field is indexed as null (outside sparse indexes, which coversSparse keeps out).
        else if (op === '$exists' && (arg === false || arg === 0)) p.points ??= [null];
        else if (op === '$ne' && arg === null) p.notNull = true;
      }
    } else if (isBoundValue(v)) p.points = [v];
    if (p.points || p.range || p.notNull) out.set(k, p);
  });
  return out;
}

interface Candidate {
  ix: Index;
  eq: number;
  range: Range | undefined;
  points: unknown[][];
  sortDir: 0 | 1 | -1;
}

/** Whether the index delivers `sort` after its first `eq` (fixed) fields: 1 forward, -1 backward, 0 no. */
function sortDirection(ix: Index, eq: number, fixed: Set<string>, sort: Array<[string, number]>): 0 | 1 | -1 {
  const keys = sort.filter(([f]) => !fixed.has(f));
  if (keys.length === 0) return 1;
  if (ix.multikey) return 0;
  let dir: 0 | 1 | -1 = 0;
  for (let i = 0; i < keys.length; i++) {
    const [f, d] = keys[i]!;
    if (ix.fields[eq + i] !== f) return 0;
    const rel = d * (ix.dirs[eq + i] ?? 1) > 0 ? 1 : -1;
    if (dir !== 0 && rel !== dir) return 0;
    dir = rel;
  }
  return dir;
}

function candidate(ix: Index, preds: Map<string, FieldPred>, sort: Array<[string, number]>): Candidate {
  let eq = 0;
  const points: unknown[][] = [];
  let product = 1;
  while (eq < ix.fields.length) {
    const p = preds.get(ix.fields[eq]!);
    if (!p?.points) break;
    product *= p.points.length;
    if (product > MAX_POINTS) break;
    points.push([...p.points].sort(compareValues));
    eq++;
  }
  const next = ix.fields[eq];
  // No ranges on a multikey index: an array's elements bound it in combinations (and [] has no null key).
  const pred = next !== undefined && !ix.multikey ? preds.get(next) : undefined;
  const range = pred?.range ?? (pred?.notNull ? NOT_NULL : undefined);
  const fixed = new Set(ix.fields.slice(0, eq).filter((_, i) => points[i]?.length === 1));
  const allSingle = fixed.size === eq;
  const sortDir = sort.length === 0 ? 0 : allSingle ? sortDirection(ix, eq, fixed, sort) : 0;
  return { ix, eq, range, points, sortDir };
}

/**
 * Operators whose verdict on a field depends on that field's value alone, and on an array through
 * any element: a document whose field equals a point (or holds it in an array) passes whenever the
 * point itself does.
 */
const POINTWISE = new Set(['$eq', '$in', '$gt', '$gte', '$lt', '$lte', '$type']);

/** The field conditions of a partial filter expression (fields and `$and`), or undefined when it has anything else. */
function partialConditions(expr: Doc, out: Array<[string, unknown]> = []): Array<[string, unknown]> | undefined {
  for (const [k, v] of Object.entries(expr)) {
    if (k === '$and') {
      if (!Array.isArray(v) || !v.every((sub) => isPlainObject(sub) && partialConditions(sub, out))) return undefined;
    } else if (k.startsWith('$')) return undefined;
    else out.push([k, v]);
  }
  return out;
}

/** `{ a: { b: value } }` for the path `a.b`. */
function atPath(path: string, value: unknown): Doc {
  return path
    .split('.')
    .reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Doc;
}

/** Per partial index: its conditions, compiled once (null: an expression no filter can be proven to imply). */
const partialTests = new WeakMap<Index, Array<{ field: string; test: { test(d: Doc): boolean } }> | null>();

function partialTestsOf(ix: Index): Array<{ field: string; test: { test(d: Doc): boolean } }> | null {
  let tests = partialTests.get(ix);
  if (tests !== undefined) return tests;
  const conditions = partialConditions(toPlain(ix.spec.partialFilterExpression) as Doc);
  const pointwise = (condition: unknown) =>
    !isPlainObject(condition) ||
    !Object.keys(condition).some((op) => op.startsWith('$')) ||
    Object.entries(condition).every(([op, arg]) => POINTWISE.has(op) || (op === '$exists' && arg === true));
  tests = conditions && conditions.length > 0 && conditions.every(([, c]) => pointwise(c)) ? conditions.map(([field, c]) => ({ field, test: compileFilter({ [field]: c }) })) : null;
  partialTests.set(ix, tests);
  return tests;
}

/**
 * Whether every document the filter can match is in the partial index, as MongoDB decides before it
 * uses one: each field of the partial filter expression must be fixed by the filter to equality
 * points that all pass that field's condition (`{ key: 'x' }` against `{ key: { $type: 'string' } }`).
 * Conservative: negations, `$or`, `$exists: false`, a field the filter leaves open — not proven,
 * and the index is not used.
 */
function coversPartial(ix: Index, preds: Map<string, FieldPred>): boolean {
  if (!ix.spec.partialFilterExpression) return true;
  const tests = partialTestsOf(ix);
  if (!tests) return false;
  return tests.every(({ field, test }) => {
    const points = preds.get(field)?.points;
    return points !== undefined && points.every((p) => p !== null && test.test(atPath(field, p)));
  });
}

/**
 * Whether every document the filter can match is in the sparse index, which leaves out documents
 * missing all of its fields: so when the filter fixes one of them to non-null points (null also
 * matches a missing field), as MongoDB decides.
 */
function coversSparse(ix: Index, preds: Map<string, FieldPred>): boolean {
  if (!ix.spec.sparse) return true;
  return ix.fields.some((field) => preds.get(field)?.points?.every((p) => p !== null) === true);
}

/** Chooses how to find the candidates of a filter (sort: the requested order, if any). */
export function choosePlan(coll: Collection, filter: Doc, sort: Doc | undefined): Plan {
  const preds = predicates(filter);
  const idPoints = preds.get('_id')?.points;
  if (idPoints) {
    return {
      stage: 'IDHACK',
      ids: () => new Set(idPoints.map(valueKey)),
      sorted: idPoints.length <= 1,
      keysExamined: 0,
      describe: () => ({ stage: 'IDHACK' }),
    };
  }
  const sortKeys = Object.entries(sort ?? {}).map(([k, d]) => [k, d === -1 ? -1 : 1] as [string, number]);
  let best: Candidate | undefined;
  const score = (c: Candidate): number => c.eq * 4 + (c.range ? 2 : 0) + (c.sortDir !== 0 ? 1 : 0);
  for (const ix of [coll.idIndex, ...coll.indexes]) {
    if (!coversSparse(ix, preds) || !coversPartial(ix, preds)) continue;
    const c = candidate(ix, preds, sortKeys);
    if (score(c) > 0 && (!best || score(c) > score(best))) best = c;
  }
  if (best) return indexPlan(best);
  const or = filter['$or'];
  if (Array.isArray(or) && or.length > 0 && or.length <= 100 && or.every(isPlainObject)) {
    const branches = (or as Doc[]).map((b) => choosePlan(coll, b, undefined));
    if (branches.every((b) => b.ids)) {
      const plan: Plan = {
        stage: 'OR',
        sorted: false,
        keysExamined: 0,
        ids: function* () {
          for (const b of branches) {
            yield* b.ids!();
            plan.keysExamined += b.keysExamined;
          }
        },
        describe: () => ({ stage: 'OR', inputStages: branches.map((b) => b.describe()) }),
      };
      return plan;
    }
  }
  return { stage: 'COLLSCAN', sorted: false, keysExamined: 0, describe: () => ({ stage: 'COLLSCAN', direction: 'forward' }) };
}

/** Start and end key tuples (in index order) of each interval the candidate scans. */
function intervals(c: Candidate): Array<{ start: unknown[]; startIncl: boolean; end: unknown[]; endIncl: boolean }> {
  const { ix } = c;
  let prefixes: unknown[][] = [[]];
  for (const pts of c.points) {
    const next: unknown[][] = [];
    for (const p of prefixes) for (const v of pts) next.push([...p, v]);
    prefixes = next;
  }
  const n = ix.fields.length;
  // Sentinels that come first / last in index order for a field.
  const first = (i: number): unknown => ((ix.dirs[i] ?? 1) > 0 ? MIN_KEY : MAX_KEY);
  const last = (i: number): unknown => ((ix.dirs[i] ?? 1) > 0 ? MAX_KEY : MIN_KEY);
  const out = [];
  for (const p of prefixes) {
    const start = [...p];
    const end = [...p];
    let startIncl = true;
    let endIncl = true;
    if (c.range) {
      const asc = (ix.dirs[c.eq] ?? 1) > 0;
      const r = c.range;
      start.push(asc ? r.lo : r.hi);
      end.push(asc ? r.hi : r.lo);
      startIncl = asc ? r.loIncl : r.hiIncl;
      endIncl = asc ? r.hiIncl : r.loIncl;
    }
    // Fields after the bounded ones are open: an exclusive bound skips past them, an inclusive one covers them.
    for (let i = start.length; i < n; i++) start.push(startIncl ? first(i) : last(i));
    for (let i = end.length; i < n; i++) end.push(endIncl ? last(i) : first(i));
    out.push({ start, startIncl, end, endIncl });
  }
  return out;
}

function showBound(v: unknown): string {
  if (v === MIN_KEY) return 'MinKey';
  if (v === MAX_KEY) return 'MaxKey';
  if (v instanceof TypeEdge) return v.high ? `<end of type ${v.rank}>` : `<start of type ${v.rank}>`;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  return String(v);
}

function indexPlan(c: Candidate): Plan {
  const { ix } = c;
  const ivs = intervals(c);
  const reverse = c.sortDir === -1;
  const order = reverse ? [...ivs].reverse() : ivs;
  const plan: Plan = {
    stage: 'IXSCAN',
    sorted: c.sortDir !== 0,
    keysExamined: 0,
    ids: function* () {
      for (const iv of order) {
        const afterStart = (e: Entry): boolean => {
          const x = ix.compareKeys(e, iv.start);
          return iv.startIncl ? x >= 0 : x > 0;
        };
        const beforeEnd = (e: Entry): boolean => {
          const x = ix.compareKeys(e, iv.end);
          return iv.endIncl ? x <= 0 : x < 0;
        };
        const inside = reverse ? afterStart : beforeEnd;
        for (const e of ix.ordered.scan(reverse ? beforeEnd : afterStart, reverse)) {
          if (!inside(e)) break;
          plan.keysExamined++;
          yield ix.entryId(e);
        }
      }
    },
    describe: () => {
      const indexBounds: Doc = {};
      ix.fields.forEach((f, i) => {
        if (i < c.eq) indexBounds[f] = (c.points[i] ?? []).map((v) => `[${showBound(v)}, ${showBound(v)}]`);
        else if (i === c.eq && c.range) {
          const r = c.range;
          indexBounds[f] = [`${r.loIncl ? '[' : '('}${showBound(r.lo)}, ${showBound(r.hi)}${r.hiIncl ? ']' : ')'}`];
        } else indexBounds[f] = ['[MinKey, MaxKey]'];
      });
      return {
        stage: 'FETCH',
        inputStage: {
          stage: 'IXSCAN',
          keyPattern: ix.spec.key,
          indexName: ix.name,
          isMultiKey: ix.multikey,
          isUnique: ix.unique || ix.name === '_id_',
          isSparse: false,
          isPartial: false,
          direction: reverse ? 'backward' : 'forward',
          indexBounds,
        },
      };
    },
  };
  return plan;
}

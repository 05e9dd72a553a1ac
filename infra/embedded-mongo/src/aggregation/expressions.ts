// Aggregation expressions and accumulators evaluated on typed documents, so results keep the
// server's number types; operators not implemented here run in mingo when that is exact.
import { Aggregator } from 'mingo/aggregator';
import { Long } from 'bson';
import { compareValues } from '../keyorder.ts';
import { Codes, MongoError } from '../errors.ts';
import { MINGO_OPTS } from '../query.ts';
import { isPlainObject, plainDoc, toPlain, valueKey } from '../values.ts';
import type { Doc } from '../values.ts';
import { DATE_EXPRESSIONS, dateExpression } from './date-arith.ts';
import { asBig, asNumber, containsNumber, double, integer, isNullish, kindOf, refuse, truthy, typedProduct, typedSum, widest } from './numbers.ts';

/** Refused by name wherever they appear: not implemented, and mingo's attempt would mislead. */
export const REFUSED = new Map<string, string>([
  ['$setWindowFields', '$setWindowFields (window functions) is not supported by the embedded server'],
  ['$function', '$function (server-side JavaScript) is not supported by the embedded server'],
  ['$accumulator', '$accumulator (server-side JavaScript) is not supported by the embedded server'],
  ['$where', '$where (server-side JavaScript) is not supported by the embedded server'],
]);

/** Expression operators whose numeric result is always an int32 on the server. */
const INT32_RESULT = new Set(
  '$size $strLenCP $strLenBytes $indexOfArray $indexOfCP $indexOfBytes $cmp $strcasecmp $year $month $dayOfMonth $dayOfWeek $dayOfYear $hour $minute $second $millisecond $week $isoWeek $isoWeekYear $isoDayOfWeek'.split(' '),
);

/** Value at a dotted path of a typed document; through arrays it collects, as "$a.b" does. */
export function fieldPath(doc: unknown, parts: string[]): unknown {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    if (Array.isArray(cur)) {
      const rest = parts.slice(i);
      return cur.map((x) => fieldPath(x, rest)).filter((x) => x !== undefined);
    }
    if (!isPlainObject(cur)) return undefined;
    cur = cur[parts[i]!];
  }
  return cur;
}

/** Evaluates an aggregation expression on a typed document. */
export function evaluate(expr: unknown, doc: Doc): unknown {
  if (typeof expr === 'string' && expr.startsWith('$')) {
    if (expr === '$$ROOT' || expr === '$$CURRENT') return doc;
    if (expr.startsWith('$$ROOT.') || expr.startsWith('$$CURRENT.')) return fieldPath(doc, expr.split('.').slice(1));
    if (expr.startsWith('$$')) return viaMingo(expr, doc);
    return fieldPath(doc, expr.slice(1).split('.'));
  }
  if (Array.isArray(expr)) return expr.map((e) => evaluate(e, doc));
  if (!isPlainObject(expr)) return expr;
  const keys = Object.keys(expr);
  const op = keys[0];
  if (keys.length === 1 && op?.startsWith('$')) return operator(op, expr[op], doc, expr);
  const out: Doc = {};
  for (const k of keys) {
    const v = evaluate(expr[k], doc);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function args(spec: unknown, doc: Doc): unknown[] {
  return (Array.isArray(spec) ? spec : [spec]).map((a) => evaluate(a, doc));
}

/** `whole` is the expression object itself ({[op]: spec}), the cache key of its mingo form. */
function operator(op: string, spec: unknown, doc: Doc, whole: Doc): unknown {
  const refused = REFUSED.get(op);
  if (refused) refuse(refused);
  if (DATE_EXPRESSIONS.has(op)) return dateExpression(op, spec, doc, evaluate);
  switch (op) {
    case '$literal':
      return spec;
    case '$add': {
      const a = args(spec, doc);
      if (a.some(isNullish)) return null;
      const date = a.find((x) => x instanceof Date) as Date | undefined;
      if (date) return new Date(a.reduce<number>((s, x) => s + (x instanceof Date ? x.getTime() : asNumber(x)), 0));
      return typedSum(a);
    }
    case '$subtract': {
      const [x, y] = args(spec, doc);
      if (isNullish(x) || isNullish(y)) return null;
      if (x instanceof Date && y instanceof Date) return Long.fromNumber(x.getTime() - y.getTime());
      if (x instanceof Date) return new Date(x.getTime() - asNumber(y));
      const kind = widest(kindOf(x) ?? 'int', kindOf(y) ?? 'int');
      return kind === 'double' ? double(asNumber(x) - asNumber(y)) : integer(asBig(x) - asBig(y), kind);
    }
    case '$multiply': {
      const a = args(spec, doc);
      return a.some(isNullish) ? null : typedProduct(a);
    }
    case '$divide': {
      const [x, y] = args(spec, doc);
      if (isNullish(x) || isNullish(y)) return null;
      if (asNumber(y) === 0) throw new MongoError(Codes.BadValue, "can't $divide by zero");
      return double(asNumber(x) / asNumber(y));
    }
    case '$toDouble': {
      const [x] = args(spec, doc);
      const v = kindOf(x) ? x : viaMingo(whole, doc);
      return typeof v === 'number' || kindOf(v) ? double(asNumber(v)) : v;
    }
    case '$toLong': {
      const [x] = args(spec, doc);
      if (x instanceof Long) return x;
      const v = kindOf(x) ? x : viaMingo(whole, doc);
      return typeof v === 'number' || kindOf(v) ? integer(BigInt(Math.trunc(asNumber(v))), 'long') : v;
    }
    case '$cond': {
      const [c, t, f] = Array.isArray(spec) ? spec : [(spec as Doc)['if'], (spec as Doc)['then'], (spec as Doc)['else']];
      return evaluate(truthy(evaluate(c, doc)) ? t : f, doc);
    }
    case '$sum':
    case '$avg':
    case '$min':
    case '$max': {
      // On one array argument they reduce its elements, otherwise their arguments.
      const a = args(spec, doc);
      const values = !Array.isArray(spec) && Array.isArray(a[0]) ? (a[0] as unknown[]) : a;
      return accumulator('', { [op]: '$$CURRENT' })(values as Doc[]);
    }
    case '$first':
    case '$last':
    case '$arrayElemAt': {
      const a = args(spec, doc);
      const arr = a[0];
      if (isNullish(arr)) return null;
      if (!Array.isArray(arr)) return viaMingo(whole, doc);
      const i = op === '$first' ? 0 : op === '$last' ? arr.length - 1 : asNumber(a[1]);
      return arr[i < 0 ? arr.length + i : i];
    }
    case '$ifNull': {
      const a = Array.isArray(spec) ? spec : [spec];
      for (let i = 0; i < a.length - 1; i++) {
        const v = evaluate(a[i], doc);
        if (!isNullish(v)) return v;
      }
      return evaluate(a[a.length - 1], doc);
    }
    default: {
      // Everything else runs in mingo on plain values: exact when the answer holds no number.
      const v = viaMingo(whole, doc);
      if (containsNumber(v) && !(INT32_RESULT.has(op) && typeof v === 'number' && kindOf(v) === 'int')) {
        refuse(`${op} with a numeric result is not supported by the embedded server's aggregation (it cannot keep the server's int32/int64/double type)`);
      }
      return v;
    }
  }
}

/** One compiled mingo pipeline per expression object of the command, reused for every document. */
const compiled = new WeakMap<object, Aggregator>();

function viaMingo(expr: unknown, doc: Doc): unknown {
  const key = typeof expr === 'object' && expr !== null ? expr : undefined;
  let agg = key ? compiled.get(key) : undefined;
  if (!agg) {
    agg = new Aggregator([{ $replaceWith: { v: toPlain(expr) } }], MINGO_OPTS);
    if (key) compiled.set(key, agg);
  }
  const out = agg.run([plainDoc(doc)]) as Doc[];
  return out[0]?.['v'];
}

export type Acc = (docs: Doc[]) => unknown;

export function accumulator(name: string, spec: unknown): Acc {
  const op = isPlainObject(spec) ? Object.keys(spec)[0] : undefined;
  if (!op || Object.keys(spec as Doc).length !== 1) throw new MongoError(Codes.FailedToParse, `The field '${name}' must be an accumulator object`);
  const arg = (spec as Doc)[op];
  const values = (docs: Doc[]): unknown[] => docs.map((d) => evaluate(arg, d));
  switch (op) {
    case '$sum':
      return (docs) => typedSum(values(docs));
    case '$count':
      return (docs) => docs.length;
    case '$avg':
      return (docs) => {
        const nums = values(docs).filter((v) => kindOf(v));
        if (!nums.length) return null;
        return double(nums.reduce<number>((a, v) => a + asNumber(v), 0) / nums.length);
      };
    case '$min':
    case '$max':
      return (docs) => {
        let best: unknown;
        for (const v of values(docs)) {
          if (isNullish(v)) continue;
          const c = best === undefined ? 0 : compareValues(toPlain(v), toPlain(best));
          if (best === undefined || (op === '$min' ? c < 0 : c > 0)) best = v;
        }
        return best ?? null;
      };
    case '$first':
      return (docs) => (docs.length ? (evaluate(arg, docs[0]!) ?? null) : null);
    case '$last':
      return (docs) => (docs.length ? (evaluate(arg, docs[docs.length - 1]!) ?? null) : null);
    case '$push':
      return (docs) => values(docs).filter((v) => v !== undefined);
    case '$addToSet':
      return (docs) => {
        const seen = new Map<string, unknown>();
        for (const v of values(docs)) if (v !== undefined && !seen.has(valueKey(v))) seen.set(valueKey(v), v);
        return [...seen.values()];
      };
    default:
      if (REFUSED.has(op)) refuse(REFUSED.get(op)!);
      return refuse(`accumulator ${op} is not supported by the embedded server's aggregation`);
  }
}


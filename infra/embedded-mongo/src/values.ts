// Internal value model. Documents are kept "typed": plain JS numbers stand for whatever bson would
// naturally serialize them as (int32 when integral and in range, double otherwise); integral doubles
// stay bson Double and int64 stays bson Long, so every number goes back out with the type it came in
// with. mingo only understands plain numbers, so queries, sorts and updates run on a "plain" twin.
import { Binary, BSONRegExp, Double, Int32, Long, ObjectId, Timestamp, Decimal128 } from 'bson';

export type Doc = Record<string, unknown>;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Converts a value deserialized with promoteValues:false into the typed internal model. */
export function fromWire(v: unknown): unknown {
  if (v instanceof Int32) return v.value;
  if (v instanceof BSONRegExp) return new RegExp(v.pattern, [...v.options].filter((f) => 'imsu'.includes(f)).join(''));
  if (v instanceof Double) return Number.isInteger(v.value) && isInt32Range(v.value) ? new Double(v.value) : v.value;
  if (Array.isArray(v)) return v.map(fromWire);
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) out[k] = fromWire(v[k]);
    return out;
  }
  return v;
}

export function fromWireDoc(v: Doc): Doc {
  return fromWire(v) as Doc;
}

function isInt32Range(n: number): boolean {
  return n >= INT32_MIN && n <= INT32_MAX;
}

/** True when the value (recursively) holds a Long or Double wrapper. */
export function hasTyped(v: unknown): boolean {
  if (v instanceof Long || v instanceof Double) return true;
  if (Array.isArray(v)) return v.some(hasTyped);
  if (isPlainObject(v)) {
    for (const k in v) if (hasTyped(v[k])) return true;
  }
  return false;
}

/** Plain twin of a typed value, for mingo. */
export function toPlain(v: unknown): unknown {
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Double) return v.value;
  if (Array.isArray(v)) return v.map(toPlain);
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) out[k] = toPlain(v[k]);
    return out;
  }
  return v;
}

export function plainDoc(d: Doc): Doc {
  return hasTyped(d) ? (toPlain(d) as Doc) : d;
}

/** Deep copy of plain objects and arrays; bson value objects are immutable here and shared. */
export function clone<T>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) out[k] = clone(v[k]);
    return out as T;
  }
  return v;
}

export type NumKind = 'int' | 'long' | 'double';

function kindOf(v: unknown): NumKind | undefined {
  if (v instanceof Long) return 'long';
  if (v instanceof Double) return 'double';
  if (typeof v === 'number') return Number.isInteger(v) && isInt32Range(v) ? 'int' : 'double';
  return undefined;
}

function withKind(n: number, kind: NumKind): unknown {
  if (kind === 'long') return Number.isInteger(n) ? Long.fromNumber(n) : n;
  if (kind === 'double') return Number.isInteger(n) && isInt32Range(n) ? new Double(n) : n;
  // int32 arithmetic that overflows becomes int64, as the server does.
  if (Number.isInteger(n) && !isInt32Range(n) && Number.isSafeInteger(n)) return Long.fromNumber(n);
  return n;
}

function widen(a: NumKind, b: NumKind): NumKind {
  if (a === 'double' || b === 'double') return 'double';
  if (a === 'long' || b === 'long') return 'long';
  return 'int';
}

/** The number type of a typed value (int32, int64, double), undefined for anything else. */
export const numberKind = kindOf;
/** The type of arithmetic on two numbers of these types ($inc), as on the server. */
export const widenKind = widen;
/** A number as a typed value of that type (int32 arithmetic overflowing gives an int64). */
export const withNumberKind = withKind;

function getPath(d: unknown, path: string): unknown {
  let cur: unknown = d;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Doc)[part];
  }
  return cur;
}

export { getPath };

/**
 * Restores numeric types on the plain result of an update. A number keeps the type the client sent
 * for it in the update, arithmetic widens like the server ($inc int32+int64 = int64), and untouched
 * fields keep the type they had before.
 */
export function retype(plainNew: unknown, typedOld: unknown, typedSpec: Doc | undefined, path = ''): unknown {
  if (typeof plainNew === 'number') {
    const specKind = typedSpec ? specKindFor(typedSpec, path, typedOld, plainNew) : undefined;
    if (specKind) return withKind(plainNew, specKind);
    const oldKind = kindOf(typedOld);
    if (oldKind && oldKind !== 'int' && toPlain(typedOld) === plainNew) return withKind(plainNew, oldKind);
    return plainNew;
  }
  if (Array.isArray(plainNew)) {
    const oldArr = Array.isArray(typedOld) ? typedOld : [];
    return plainNew.map((v, i) => retype(v, oldArr[i], typedSpec, path ? `${path}.${i}` : String(i)));
  }
  if (isPlainObject(plainNew)) {
    const oldObj = isPlainObject(typedOld) ? typedOld : {};
    const out: Doc = {};
    for (const k of Object.keys(plainNew)) out[k] = retype(plainNew[k], oldObj[k], typedSpec, path ? `${path}.${k}` : k);
    return out;
  }
  return plainNew;
}

function specKindFor(spec: Doc, path: string, typedOld: unknown, value: number): NumKind | undefined {
  for (const op of ['$inc', '$mul']) {
    const o = spec[op];
    if (isPlainObject(o) && path in o) {
      const k = kindOf(o[path]);
      if (!k) return undefined;
      return widen(kindOf(typedOld) ?? 'int', k);
    }
  }
  for (const op of ['$set', '$setOnInsert', '$max', '$min', '$']) {
    const o = op === '$' ? spec : spec[op];
    if (!isPlainObject(o)) continue;
    const given = op === '$' ? getPath(o, path) : specValue(o, path);
    const k = kindOf(given);
    if (k && toPlain(given) === value) return k;
  }
  return undefined;
}

/**
 * Aggregation output is computed on plain numbers; integers past int32 come back as int64 (what the
 * server's $sum/$add give) instead of bson's default double.
 */
export function widenLargeInts(v: unknown): unknown {
  if (typeof v === 'number') return Number.isSafeInteger(v) && !isInt32Range(v) ? Long.fromNumber(v) : v;
  if (Array.isArray(v)) return v.map(widenLargeInts);
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) out[k] = widenLargeInts(v[k]);
    return out;
  }
  return v;
}

/** Value an operator object assigns at `path`, also when it sets a parent ({$set: {a: {b: 1}}} for a.b). */
function specValue(o: Doc, path: string): unknown {
  if (path in o) return o[path];
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const key = parts.slice(0, i).join('.');
    if (key in o) return getPath(o[key], parts.slice(i).join('.'));
  }
  return undefined;
}

/** Canonical string for equality of bson values; numbers of every type share one form. */
export function valueKey(v: unknown): string {
  if (v === undefined || v === null) return 'z';
  if (typeof v === 'number') return `n${v}`;
  if (v instanceof Long) return `n${v.toString()}`;
  if (v instanceof Double || v instanceof Int32) return `n${v.value}`;
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'boolean') return v ? 'bt' : 'bf';
  if (v instanceof ObjectId) return `o${v.toHexString()}`;
  if (v instanceof Date) return `d${v.getTime()}`;
  if (v instanceof Binary) return `x${v.sub_type}:${Buffer.from(v.buffer).toString('hex')}`;
  if (v instanceof Timestamp) return `t${v.toString()}`;
  if (v instanceof Decimal128) return `m${v.toString()}`;
  if (Array.isArray(v)) return `a[${v.map(valueKey).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${valueKey(v[k])}`).join(',')}}`;
  return `?${String(v)}`;
}

export { isPlainObject };

/** Char codes of the lowercase hex digits. */
const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * valueKey of an ObjectId (`o` + its 24 hex digits), built as one flat string. The template in
 * valueKey makes a cons string that the first hash lookup flattens into a second copy; a snapshot
 * load makes one of these per document (the key of the document's version chain and index entries).
 */
export function objectIdKey(oid: ObjectId): string {
  // bson 7 keeps an ObjectId as four 24-bit numbers; anything else takes the general path.
  const parts = oid as unknown as { i0: unknown; i1: unknown; i2: unknown; i3: unknown };
  const { i0, i1, i2, i3 } = parts;
  if (typeof i0 !== 'number' || typeof i1 !== 'number' || typeof i2 !== 'number' || typeof i3 !== 'number') return valueKey(oid);
  const c = new Array<number>(25);
  c[0] = 111; // 'o'
  let at = 1;
  for (const w of [i0, i1, i2, i3]) {
    for (let shift = 20; shift >= 0; shift -= 4) c[at++] = HEX[(w >>> shift) & 15]!;
  }
  return String.fromCharCode.apply(null, c);
}

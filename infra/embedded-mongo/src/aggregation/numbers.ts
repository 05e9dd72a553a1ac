// Typed numbers in aggregation: the server's int32 / int64 / double kinds and its widening rules
// ($add/$sum: int32 overflowing gives int64, int64 overflowing gives double, a double makes a double).
import { Decimal128, Double, Long } from 'bson';
import { Codes, MongoError } from '../errors.ts';
import { isPlainObject } from '../values.ts';

export type Kind = 'int' | 'long' | 'double';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

export function refuse(message: string): never {
  throw new MongoError(Codes.CommandNotSupported, message);
}

export function kindOf(v: unknown): Kind | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? 'int' : 'double';
  if (v instanceof Long) return 'long';
  if (v instanceof Double) return 'double';
  if (v instanceof Decimal128) refuse('Decimal128 arithmetic in aggregation is not supported by the embedded server');
  return undefined;
}

export function widest(a: Kind, b: Kind): Kind {
  return a === 'double' || b === 'double' ? 'double' : a === 'long' || b === 'long' ? 'long' : 'int';
}

export function asNumber(v: unknown): number {
  return v instanceof Long ? v.toNumber() : v instanceof Double ? v.value : (v as number);
}

export function asBig(v: unknown): bigint {
  return v instanceof Long ? v.toBigInt() : BigInt(asNumber(v));
}

export function double(n: number): unknown {
  return Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX ? new Double(n) : n;
}

/** An integer result of `kind`: int32 that overflows becomes int64, int64 that overflows double. */
export function integer(n: bigint, kind: 'int' | 'long'): unknown {
  if (kind === 'int' && n >= BigInt(INT32_MIN) && n <= BigInt(INT32_MAX)) return Number(n);
  if (n >= LONG_MIN && n <= LONG_MAX) return Long.fromBigInt(n);
  return Number(n);
}

/** Sum with the server's widening ($add, $sum): exact in int64, double as soon as a double takes part. */
export function typedSum(values: unknown[]): unknown {
  let kind: Kind = 'int';
  let big = 0n;
  let dbl = 0;
  for (const v of values) {
    const k = kindOf(v);
    if (!k) continue;
    kind = widest(kind, k);
    if (k === 'double') dbl += asNumber(v);
    else big += asBig(v);
  }
  if (kind === 'double') return double(dbl + Number(big));
  return integer(big, kind);
}

export function typedProduct(values: unknown[]): unknown {
  let kind: Kind = 'int';
  for (const v of values) kind = widest(kind, kindOf(v) ?? 'int');
  if (kind === 'double') return double(values.reduce<number>((a, v) => a * asNumber(v), 1));
  return integer(values.reduce<bigint>((a, v) => a * asBig(v), 1n), kind);
}

export function isNullish(v: unknown): boolean {
  return v === null || v === undefined;
}

export function containsNumber(v: unknown): boolean {
  if (typeof v === 'number') return true;
  if (Array.isArray(v)) return v.some(containsNumber);
  if (isPlainObject(v)) return Object.values(v).some(containsNumber);
  return false;
}

/**
 * True when the value holds a number other than int32. mingo's arithmetic on such numbers gives
 * plain numbers whose server type cannot be told (0.5 + 0.5 is the double 1, not the int32 1).
 */
export function ambiguous(v: unknown): boolean {
  if (v instanceof Long || v instanceof Double || v instanceof Decimal128) return true;
  if (typeof v === 'number') return kindOf(v) !== 'int';
  if (Array.isArray(v)) return v.some(ambiguous);
  if (isPlainObject(v)) {
    for (const k in v) if (ambiguous(v[k])) return true;
  }
  return false;
}

export function truthy(v: unknown): boolean {
  if (isNullish(v) || v === false) return false;
  const k = kindOf(v);
  return k ? asNumber(v) !== 0 : true;
}


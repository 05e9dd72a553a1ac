// The server's comparison order of BSON values, used by ordered indexes: values of different types
// order by type (MinKey < null/missing < numbers < strings < objects < arrays < binary < ObjectId <
// booleans < dates < timestamps < regexes < MaxKey), numbers of every type compare by value.
import { Binary, Decimal128, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { isPlainObject } from './values.ts';

/** A bound below (or above) every value of one type rank; used for type-bracketed ranges. */
export class TypeEdge {
  constructor(
    readonly rank: number,
    readonly high: boolean,
  ) {}
}

export const MIN_KEY = new TypeEdge(0, false);
export const MAX_KEY = new TypeEdge(99, true);

export function typeRank(v: unknown): number {
  if (v instanceof TypeEdge) return v.rank;
  if (v === undefined || v === null) return 2;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
    default:
  }
  if (v instanceof Decimal128) return 3;
  if (Array.isArray(v)) return 6;
  if (isPlainObject(v)) return 5;
  if (v instanceof Binary) return 7;
  if (v instanceof ObjectId) return 8;
  if (v instanceof Date) return 10;
  if (v instanceof Timestamp) return 11;
  if (v instanceof RegExp) return 12;
  if (v instanceof MinKey) return 0;
  if (v instanceof MaxKey) return 99;
  return 50;
}

function cmpPrim<T extends string | number | bigint>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareValues(a: unknown, b: unknown): number {
  // Fast paths for the common key types.
  const ta = typeof a;
  if (ta === typeof b) {
    if (ta === 'string') return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    if (ta === 'number') return cmpNum(a as number, b as number);
    if (a instanceof ObjectId && b instanceof ObjectId) return Buffer.compare(a.id, b.id);
    if (a instanceof Date && b instanceof Date) return cmpPrim(a.getTime(), b.getTime());
  }
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (a instanceof TypeEdge || b instanceof TypeEdge) {
    const ea = a instanceof TypeEdge ? (a.high ? 1 : -1) : 0;
    const eb = b instanceof TypeEdge ? (b.high ? 1 : -1) : 0;
    return ea === eb ? 0 : ea < eb ? -1 : 1;
  }
  switch (ra) {
    case 2:
    case 0:
    case 99:
      return 0;
    case 3:
      return cmpNum(num(a), num(b));
    case 4:
      return cmpPrim(a as string, b as string);
    case 9:
      return cmpPrim(Number(a), Number(b));
    case 10:
      return cmpPrim((a as Date).getTime(), (b as Date).getTime());
    case 8:
      return Buffer.compare((a as ObjectId).id, (b as ObjectId).id);
    case 11:
      return (a as Timestamp).compare(b as Timestamp);
    case 7: {
      const x = a as Binary;
      const y = b as Binary;
      if (x.length() !== y.length()) return x.length() < y.length() ? -1 : 1;
      if (x.sub_type !== y.sub_type) return x.sub_type < y.sub_type ? -1 : 1;
      return Buffer.compare(Buffer.from(x.buffer), Buffer.from(y.buffer));
    }
    case 6: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
      return cmpPrim(x.length, y.length);
    }
    case 5: {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      const ky = Object.keys(y);
      for (let i = 0; i < Math.min(kx.length, ky.length); i++) {
        const c = compareValues(x[kx[i]!], y[ky[i]!]) || cmpPrim(kx[i]!, ky[i]!);
        if (c !== 0) return c;
      }
      return cmpPrim(kx.length, ky.length);
    }
    case 12:
      return cmpPrim(String(a), String(b));
    default:
      return cmpPrim(String(a), String(b));
  }
}

/** Numbers in the server's order: NaN below every other number (and equal to NaN). */
function cmpNum(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  const na = Number.isNaN(a);
  return na === Number.isNaN(b) ? 0 : na ? -1 : 1;
}

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return Number((v as Decimal128).toString());
}

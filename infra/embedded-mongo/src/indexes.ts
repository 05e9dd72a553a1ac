// Secondary indexes over the latest committed version of each document: unique enforcement and
// equality lookups. Every prefix of a compound index gets its own map so {a} can use an {a,b} index.
import { Query } from 'mingo';
import { ObjectId } from 'bson';
import { getPath, isPlainObject, toPlain, valueKey } from './values.ts';
import type { Doc } from './values.ts';

export interface IndexSpec {
  v: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
  [opt: string]: unknown;
}

const SEP = '\u0001';

export class Index {
  readonly fields: string[];
  private readonly prefixMaps: Array<Map<string, Set<string>>>;
  private readonly partial: Query | undefined;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.prefixMaps = this.fields.map(() => new Map());
    this.partial = spec.partialFilterExpression ? new Query(toPlain(spec.partialFilterExpression) as Doc) : undefined;
  }

  get name(): string {
    return this.spec.name;
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** Full-key tuples of a document (several when a field holds an array); empty when not indexed. */
  keyTuples(plain: Doc): string[][] {
    if (this.partial && !this.partial.test(plain)) return [];
    const perField: string[][] = [];
    let allMissing = true;
    for (const f of this.fields) {
      const v = getPath(plain, f);
      if (v !== undefined) allMissing = false;
      if (Array.isArray(v) && v.length > 0) perField.push([...new Set(v.map(valueKey))]);
      else perField.push([valueKey(v)]);
    }
    if (this.spec.sparse && allMissing) return [];
    let tuples: string[][] = [[]];
    for (const options of perField) {
      const next: string[][] = [];
      for (const t of tuples) for (const o of options) next.push([...t, o]);
      tuples = next;
    }
    return tuples;
  }

  fullKeys(plain: Doc): string[] {
    return [...new Set(this.keyTuples(plain).map((t) => t.join(SEP)))];
  }

  add(id: string, plain: Doc): void {
    this.mutate(id, plain, true);
  }

  remove(id: string, plain: Doc): void {
    this.mutate(id, plain, false);
  }

  private mutate(id: string, plain: Doc, add: boolean): void {
    for (const tuple of this.keyTuples(plain)) {
      for (let i = 0; i < tuple.length; i++) {
        const map = this.prefixMaps[i];
        if (!map) continue;
        const k = tuple.slice(0, i + 1).join(SEP);
        let set = map.get(k);
        if (add) {
          if (!set) map.set(k, (set = new Set()));
          set.add(id);
        } else if (set) {
          set.delete(id);
          if (set.size === 0) map.delete(k);
        }
      }
    }
  }

  /** Ids holding the full key, for unique checks. */
  owners(fullKey: string): Set<string> | undefined {
    return this.prefixMaps[this.fields.length - 1]?.get(fullKey);
  }

  /** Ids matching equality on the first n fields; `values[i]` lists accepted value keys for field i. */
  lookup(values: string[][]): Set<string> {
    const out = new Set<string>();
    const map = this.prefixMaps[values.length - 1];
    if (!map) return out;
    let tuples: string[][] = [[]];
    for (const opts of values) {
      const next: string[][] = [];
      for (const t of tuples) for (const o of opts) next.push([...t, o]);
      tuples = next;
    }
    for (const t of tuples) {
      const set = map.get(t.join(SEP));
      if (set) for (const id of set) out.add(id);
    }
    return out;
  }

  clear(): void {
    for (const m of this.prefixMaps) m.clear();
  }

  keyValue(typed: Doc): Doc {
    const kv: Doc = {};
    for (const f of this.fields) kv[f] = getPath(typed, f) ?? null;
    return kv;
  }
}

function fmt(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof ObjectId) return `ObjectId('${v.toHexString()}')`;
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[ ${v.map(fmt).join(', ')} ]`;
  if (isPlainObject(v)) return `{ ${Object.keys(v).map((k) => `${k}: ${fmt(v[k])}`).join(', ')} }`;
  return String(toPlain(v));
}

export function dupKeyMessage(ns: string, indexName: string, keyValue: Doc): string {
  return `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: ${fmt(keyValue)}`;
}

/**
 * Equality constraints usable for index lookups: field -> accepted value keys. Only scalar
 * equality and $in of scalars qualify; anything else is left to the full matcher.
 */
export function equalities(filter: Doc): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const visit = (f: Doc): void => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        for (const sub of v) if (isPlainObject(sub)) visit(sub);
        continue;
      }
      if (k.startsWith('$')) continue;
      if (isScalar(v)) {
        out.set(k, [valueKey(v)]);
      } else if (isPlainObject(v)) {
        const keys = Object.keys(v);
        if (keys.length === 1 && keys[0] === '$eq' && isScalar(v['$eq'])) out.set(k, [valueKey(v['$eq'])]);
        else if (keys.length === 1 && keys[0] === '$in' && Array.isArray(v['$in']) && v['$in'].every(isScalar) && v['$in'].length <= 1000) {
          out.set(k, v['$in'].map(valueKey));
        }
      }
    }
  };
  visit(filter);
  return out;
}

function isScalar(v: unknown): boolean {
  if (v === null || v === undefined) return false; // null also matches missing fields and arrays of null
  if (Array.isArray(v) || v instanceof RegExp) return false;
  if (isPlainObject(v)) return false;
  return typeof v !== 'object' || v instanceof ObjectId || v instanceof Date || typeof (v as { _bsontype?: unknown })._bsontype === 'string';
}

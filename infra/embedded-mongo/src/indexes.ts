// Secondary indexes over the latest committed version of each document: the keys in index order
// (equality, ranges and sorts; see planner.ts, and the owners of a key for the duplicate checks
// every write makes on a unique index).
import { Query } from 'mingo/query';
import { ObjectId } from 'bson';
import { compareValues } from './keyorder.ts';
import { MINGO_OPTS } from './mingo-context.ts';
import { SortedBlocks } from './sorted.ts';
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

/**
 * One key of the ordered index: the indexed values in field order followed by the document's id,
 * as one array (so it can be compared as a key tuple as it is). An object holding a tuple and an
 * id was one more object per key: 40 MB and a share of the garbage collection per million keys
 * at a snapshot load.
 */
export type Entry = unknown[];

/** Documents to index, as parallel arrays (a bulk load makes no object per document). */
export interface KeyRows {
  ids: string[];
  plains: Doc[];
}

/** A key tuple (its first n values) as one string, as `uniqueKeys` names it; a one-field key needs no join. */
function fullKey(values: unknown[], n = values.length): string {
  if (n === 1) return valueKey(values[0]);
  let out = valueKey(values[0]);
  for (let i = 1; i < n; i++) out += SEP + valueKey(values[i]);
  return out;
}

/** A key tuple with the document's id appended: the index entry. */
function entryOf(values: unknown[], id: string): Entry {
  const n = values.length;
  const e = new Array<unknown>(n + 1);
  for (let i = 0; i < n; i++) e[i] = values[i];
  e[n] = id;
  return e;
}

export class Index {
  readonly fields: string[];
  /** 1 or -1 per field: the order of the ordered keys. */
  readonly dirs: number[];
  readonly ordered: SortedBlocks;
  /** Documents whose key came through an array: such an index serves equality only. */
  multikeyDocs = 0;
  private readonly partial: Query | undefined;
  /** No dotted field: keys are read straight off the document. */
  private readonly flat: boolean;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.dirs = this.fields.map((f) => (spec.key[f] === -1 ? -1 : 1));
    this.flat = this.fields.every((f) => !f.includes('.'));
    this.partial = spec.partialFilterExpression ? new Query(toPlain(spec.partialFilterExpression) as Doc, MINGO_OPTS) : undefined;
    const n = this.fields.length;
    this.ordered = new SortedBlocks(n + 1, (a, b) => {
      const c = this.compareKeys(a, b);
      if (c !== 0) return c;
      const x = a[n] as string;
      const y = b[n] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }

  /** The document id of an entry. */
  entryId(e: Entry): string {
    return e[this.fields.length] as string;
  }

  /** Compares two key tuples (or entries) in index order (bounds may hold TypeEdge sentinels). */
  compareKeys(a: unknown[], b: unknown[]): number {
    for (let i = 0; i < this.dirs.length; i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c * (this.dirs[i] ?? 1);
    }
    return 0;
  }

  get multikey(): boolean {
    return this.multikeyDocs > 0;
  }

  get name(): string {
    return this.spec.name;
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** Key tuples of a document (several when a field holds an array); empty when not indexed. */
  private valueTuples(plain: Doc): { tuples: unknown[][]; multi: boolean } {
    if (this.partial && !this.partial.test(plain)) return { tuples: [], multi: false };
    if (this.flat) {
      // Top-level fields holding no arrays: one tuple of the values as they are.
      // Sized up front: an array grown by push reserves 17 slots, ~140 bytes per index key wasted.
      const n = this.fields.length;
      const t = new Array<unknown>(n);
      let missing = 0;
      for (let i = 0; i < n; i++) {
        const v = plain[this.fields[i]!];
        if (Array.isArray(v)) return this.expandedTuples(plain);
        if (v === undefined) missing++;
        t[i] = v;
      }
      if (this.spec.sparse && missing === t.length) return { tuples: [], multi: false };
      return { tuples: [t], multi: false };
    }
    return this.expandedTuples(plain);
  }

  /**
   * The one entry of a document when its key is read straight off it (a flat index without a
   * partial filter, no array among the values, not a sparse key missing every field), built
   * without the tuple objects `valueTuples` makes; undefined otherwise (take `valueTuples`).
   */
  private simpleEntry(plain: Doc, id: string): Entry | undefined {
    if (!this.flat || this.partial) return undefined;
    const n = this.fields.length;
    const e = new Array<unknown>(n + 1);
    let missing = 0;
    for (let i = 0; i < n; i++) {
      const v = plain[this.fields[i]!];
      if (Array.isArray(v)) return undefined;
      if (v === undefined) missing++;
      e[i] = v;
    }
    if (missing === n && this.spec.sparse) return undefined;
    e[n] = id;
    return e;
  }

  private expandedTuples(plain: Doc): { tuples: unknown[][]; multi: boolean } {
    const perField: unknown[][] = [];
    let allMissing = true;
    let multi = false;
    for (const f of this.fields) {
      const vs = keyValues(plain, f);
      if (vs.some((v) => v !== undefined)) allMissing = false;
      if (vs.length !== 1 || Array.isArray(vs[0]) || throughArray(plain, f)) multi = true;
      if (vs.length === 1) perField.push(vs);
      else {
        const seen = new Set<string>();
        perField.push(vs.filter((v) => !seen.has(valueKey(v)) && seen.add(valueKey(v))));
      }
    }
    if (this.spec.sparse && allMissing) return { tuples: [], multi: false };
    if (perField.every((f) => f.length === 1)) return { tuples: [perField.map((f) => f[0])], multi };
    let tuples: unknown[][] = [[]];
    for (const options of perField) {
      const next: unknown[][] = [];
      for (const t of tuples) for (const o of options) next.push([...t, o]);
      tuples = next;
    }
    return { tuples, multi };
  }

  /** A document's distinct keys: each as its values and as one string (the name of its lock). */
  uniqueKeys(plain: Doc): Array<{ key: string; values: unknown[] }> {
    const out = new Map<string, unknown[]>();
    for (const t of this.valueTuples(plain).tuples) {
      const key = t.map(valueKey).join(SEP);
      if (!out.has(key)) out.set(key, t);
    }
    return [...out].map(([key, values]) => ({ key, values }));
  }

  add(id: string, plain: Doc): void {
    this.mutate(id, plain, true);
  }

  remove(id: string, plain: Doc): void {
    this.mutate(id, plain, false);
  }

  /** Moves a document's keys from its old to its new version, touching only keys that changed. */
  replace(id: string, before: Doc, after: Doc): void {
    const a = this.valueTuples(before);
    const b = this.valueTuples(after);
    if (a.multi === b.multi && a.tuples.length === 1 && b.tuples.length === 1 && this.compareKeys(a.tuples[0]!, b.tuples[0]!) === 0 && sameTypes(a.tuples[0]!, b.tuples[0]!)) return;
    this.apply(id, a, false);
    this.apply(id, b, true);
  }

  /**
   * Adds many documents to an empty index at once: keys are collected, sorted once (skipped when
   * they already come in order, as the _id keys of a snapshot do) and laid out as blocks. A
   * non-empty index takes them one at a time.
   */
  bulkAdd(rows: KeyRows, order?: Uint32Array): void {
    const { ids, plains } = rows;
    if (this.ordered.size > 0) {
      for (let i = 0; i < ids.length; i++) this.add(ids[i]!, plains[i]!);
      return;
    }
    let entries = order && this.entriesInOrder(rows, order);
    if (!entries) {
      entries = [];
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        const e = this.simpleEntry(plains[i]!, id);
        if (e) {
          entries.push(e);
          continue;
        }
        const { tuples, multi } = this.valueTuples(plains[i]!);
        if (multi) this.multikeyDocs++;
        for (const values of tuples) entries.push(entryOf(values, id));
      }
    }
    const cmp = primitiveCompare(entries, this.fields, this.dirs) ?? this.ordered.cmpFn;
    let sorted = true;
    for (let i = 1; i < entries.length && sorted; i++) if (cmp(entries[i - 1]!, entries[i]!) > 0) sorted = false;
    if (!sorted) entries.sort(cmp);
    this.ordered.load(entries);
  }

  /**
   * The entries laid out in a stored order (a snapshot's record of this index's order as
   * positions in `rows`), for an index with one key per document; undefined when the order does
   * not fit (the caller then collects and sorts). The caller still checks the result is sorted.
   */
  private entriesInOrder(rows: KeyRows, order: Uint32Array): Entry[] | undefined {
    const { ids, plains } = rows;
    const n = ids.length;
    if (order.length !== n) return undefined;
    const entries = new Array<Entry>(n);
    const seen = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
      const pos = order[j]!;
      if (pos >= n || seen[pos]) return undefined;
      seen[pos] = 1;
      let e = this.simpleEntry(plains[pos]!, ids[pos]!);
      if (!e) {
        const { tuples, multi } = this.valueTuples(plains[pos]!);
        if (multi || tuples.length !== 1) return undefined;
        e = entryOf(tuples[0]!, ids[pos]!);
      }
      entries[j] = e;
    }
    return entries;
  }

  private mutate(id: string, plain: Doc, add: boolean): void {
    this.apply(id, this.valueTuples(plain), add);
  }

  private apply(id: string, { tuples, multi }: { tuples: unknown[][]; multi: boolean }, add: boolean): void {
    if (multi) this.multikeyDocs += add ? 1 : -1;
    for (const values of tuples) {
      if (add) this.ordered.insert(entryOf(values, id));
      else this.ordered.delete(entryOf(values, id));
    }
  }

  /**
   * Ids holding a key (values as `uniqueKeys` gives them), for unique checks: the entries of the
   * ordered index equal to it (a binary search) whose full key is also the same, so exactly the
   * keys the hash map from full key to owners that this replaced treated as one. No such map is
   * kept: building it cost about a second and 70 MB per million keys at a snapshot load.
   */
  owners(values: unknown[], key = fullKey(values)): string[] {
    const out: string[] = [];
    const n = this.fields.length;
    for (const e of this.ordered.scan((x) => this.compareKeys(x, values) >= 0, false)) {
      if (this.compareKeys(e, values) !== 0) break;
      if (fullKey(e, n) === key) out.push(e[n] as string);
    }
    return out;
  }

  clear(): void {
    this.ordered.clear();
    this.multikeyDocs = 0;
  }

  keyValue(typed: Doc): Doc {
    const kv: Doc = {};
    for (const f of this.fields) kv[f] = getPath(typed, f) ?? null;
    return kv;
  }
}

/**
 * When every key holds only strings, or only numbers, field by field (or, for `_id`, only
 * ObjectIds, whose order is that of the id strings), the same order as the general comparison
 * without its type dispatch: a large bulk build spends most of its time sorting.
 */
function primitiveCompare(entries: Entry[], fields: string[], dirs: number[]): ((a: Entry, b: Entry) => number) | undefined {
  const byId: boolean[] = [];
  const n = fields.length;
  for (let i = 0; i < dirs.length; i++) {
    const first = entries[0]?.[i];
    const t = typeof first;
    if (fields[i] === '_id' && first instanceof ObjectId) {
      for (const e of entries) if (!(e[i] instanceof ObjectId)) return undefined;
      byId.push(true);
      continue;
    }
    if (t !== 'string' && t !== 'number') return undefined;
    for (const e of entries) if (typeof e[i] !== t || Number.isNaN(e[i])) return undefined;
    byId.push(false);
  }
  return (a, b) => {
    for (let i = 0; i < dirs.length; i++) {
      const x = (byId[i] ? a[n] : a[i]) as string;
      const y = (byId[i] ? b[n] : b[i]) as string;
      if (x !== y) return x < y ? -dirs[i]! : dirs[i]!;
    }
    const x = a[n] as string;
    const y = b[n] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/**
 * The values a document contributes to an index on `path`, as the server computes index keys: an
 * array is expanded into its elements (also on the way down a dotted path), and a missing field or
 * a path that ends at a non-document contributes null (undefined here), so `{f: null}` finds both.
 * An empty array at the end of the path is kept as the value `[]`, which null does not match.
 */
export function keyValues(plain: unknown, path: string): unknown[] {
  if (!path.includes('.') && isPlainObject(plain)) {
    const v = plain[path];
    if (!Array.isArray(v)) return [v];
  }
  const out: unknown[] = [];
  collect(plain, path.split('.'), 0, out, false);
  return out;
}

/** Same BSON types position by position (1 and 1.0 compare equal but are different keys to keep). */
function sameTypes(a: unknown[], b: unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (typeof a[i] !== typeof b[i] || valueKey(a[i]) !== valueKey(b[i])) return false;
  return true;
}

/** True when an array lies on the path (the server then marks the index multikey). */
function throughArray(v: unknown, path: string): boolean {
  if (!path.includes('.')) return isPlainObject(v) && Array.isArray(v[path]);
  let cur = v;
  for (const part of path.split('.')) {
    if (Array.isArray(cur)) return true;
    if (!isPlainObject(cur)) return false;
    cur = cur[part];
  }
  return Array.isArray(cur);
}

function collect(v: unknown, parts: string[], i: number, out: unknown[], inArray: boolean): void {
  if (i === parts.length) {
    if (Array.isArray(v) && v.length > 0 && !inArray) for (const x of v) out.push(x);
    else out.push(v);
    return;
  }
  if (Array.isArray(v) && !inArray) {
    if (v.length === 0) out.push(undefined);
    const part = parts[i] ?? '';
    // A numeric component can name a position as well as a field of the elements.
    if (/^\d+$/.test(part) && Number(part) < v.length) collect(v[Number(part)], parts, i + 1, out, false);
    for (const x of v) collect(x, parts, i, out, true);
    return;
  }
  if (isPlainObject(v)) {
    collect(v[parts[i] ?? ''], parts, i + 1, out, false);
    return;
  }
  out.push(undefined);
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

// The form a collection keeps its documents in, made as each write commits (and as the journal is
// replayed): it holds the same values, in less memory.
// - One string per distinct value of each field path that repeats. Every written document arrives
//   decoded from its own BSON, so each held its own copy of every string: a topic, an event type, a
//   status, a member's id — on the order path the same ten values in every document (47 MB of
//   duplicate copies after 28,000 orders, a sixth of the heap). A load shares the repeated values
//   of indexed fields in one pass (collection.ts); this does it for every write, by path.
// - Objects of many fields in V8's fast layout. An object built one field at a time under computed
//   names (BSON's decoder, our own copies) turns into a hash table of its properties at its 20th
//   field: ~1.4 KB for a fulfillment forward of ~25 fields, against ~0.2 KB laid out in the object
//   itself, which a spread copy gives.
import { isPlainObject } from './values.ts';
import type { Doc } from './values.ts';

/** Strings seen at a path before deciding whether its values repeat enough to share. */
const SAMPLE = 10_000;
/** Distinct values kept per path at most: a pool holds its strings even after their documents go. */
const CAP = 50_000;

class PathPool {
  private children: Map<string, PathPool> | undefined;
  /** null: the path's sampled values were mostly distinct (ids, links), left alone from then on. */
  private values: Map<string, string> | null = new Map();
  private seen = 0;

  child(key: string): PathPool {
    this.children ??= new Map();
    let c = this.children.get(key);
    if (c === undefined) this.children.set(key, (c = new PathPool()));
    return c;
  }

  /** The pool's string equal to `v` (`v` itself when it is the first, or the path is not shared). */
  share(v: string): string {
    const values = this.values;
    if (values === null) return v;
    this.seen++;
    const kept = values.get(v);
    if (kept !== undefined) return kept;
    if (this.seen >= SAMPLE && values.size * 2 > this.seen) {
      this.values = null;
      return v;
    }
    if (values.size < CAP) values.set(v, v);
    return v;
  }
}

/** Fields from which an object is copied into the fast layout (V8 gives up on it at 20). */
const MANY_FIELDS = 17;

/** `doc` itself, or when it has many fields a copy in the fast layout (same fields, same order). */
export function fastLayout(doc: Doc, keys: readonly string[] = Object.keys(doc)): Doc {
  return keys.length >= MANY_FIELDS && Object.getPrototypeOf(doc) === Object.prototype ? { ...doc } : doc;
}

/** `d` with its strings shared: `d` itself, or for an object of many fields a fast copy. */
function shareIn(doc: Doc, pool: PathPool): Doc {
  const keys = Object.keys(doc);
  const d = fastLayout(doc, keys);
  for (const k of keys) {
    const v = d[k];
    if (typeof v === 'string') {
      // Always stored: `!==` compares strings by value, so the pool's copy cannot be told apart here.
      d[k] = pool.child(k).share(v);
    } else if (Array.isArray(v)) shareInArray(v, pool.child(k));
    else if (isPlainObject(v)) d[k] = shareIn(v, pool.child(k));
  }
  return d;
}

/** An array's elements share the array's path, as MongoDB's dotted paths see them. */
function shareInArray(a: unknown[], pool: PathPool): void {
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (typeof v === 'string') {
      a[i] = pool.share(v);
    } else if (Array.isArray(v)) shareInArray(v, pool);
    else if (isPlainObject(v)) a[i] = shareIn(v, pool);
  }
}

/**
 * A collection's kept form. `keep` gives the document to store: each string replaced by an equal
 * one the pool already holds for the same path, objects of many fields as fast copies. No value
 * changes, so nothing a client reads does. The document and its plain twin, when they are two
 * objects, go through separately (their strings end up the same).
 */
export class KeptForm {
  private readonly root = new PathPool();

  keep(doc: Doc): Doc {
    return shareIn(doc, this.root);
  }

  /** A document and its plain twin (the same object when untyped, and then still one) as kept. */
  keepPair(doc: Doc, plain: Doc): { doc: Doc; plain: Doc } {
    const kept = this.keep(doc);
    return { doc: kept, plain: plain === doc ? kept : this.keep(plain) };
  }
}

// One string per distinct value of each field path that repeats, for the documents a collection
// keeps. Every written document arrives decoded from its own BSON, so each held its own copy of
// every string: a topic, an event type, a status, a member's id — on the order path the same ten
// values in every document (47 MB of duplicate copies after 28,000 orders, a sixth of the heap).
// A load shares the repeated values of indexed fields in one pass (collection.ts); this does it for
// every write, by path, as the write commits.
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

function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function shareIn(d: Doc, pool: PathPool): void {
  for (const k of Object.keys(d)) {
    const v = d[k];
    if (typeof v === 'string') {
      // Always stored: `!==` compares strings by value, so the pool's copy cannot be told apart here.
      d[k] = pool.child(k).share(v);
    } else if (Array.isArray(v)) shareInArray(v, pool.child(k));
    else if (isPlainObject(v)) shareIn(v, pool.child(k));
  }
}

/** An array's elements share the array's path, as MongoDB's dotted paths see them. */
function shareInArray(a: unknown[], pool: PathPool): void {
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (typeof v === 'string') {
      a[i] = pool.share(v);
    } else if (Array.isArray(v)) shareInArray(v, pool);
    else if (isPlainObject(v)) shareIn(v, pool);
  }
}

/**
 * A collection's pool. `share` replaces, in place, each string of a document by an equal one the
 * pool already holds for the same path; no value changes, so nothing a client reads does.
 */
export class StringPool {
  private readonly root = new PathPool();

  share(doc: Doc): void {
    shareIn(doc, this.root);
  }
}

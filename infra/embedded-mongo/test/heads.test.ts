// The version table of a collection (a base table loaded from a snapshot plus an overlay of later
// writes) must answer exactly as a Map given the same sets and deletes, iteration order included.
import { describe, expect, it } from 'vitest';
import { Heads } from '../src/heads.ts';
import type { Version } from '../src/heads.ts';

function version(ts: number, n: number | null): Version {
  return { ts, doc: n === null ? null : { n }, plain: n === null ? null : { n }, prev: null, pos: 0 };
}

/** Deterministic pseudo-random numbers (the test repeats exactly). */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const view = (v: Version | undefined): unknown => (v ? { ts: v.ts, doc: v.doc, plain: v.plain } : undefined);

describe('version table', () => {
  it('answers get, has, size and iteration order as a Map does through sets and deletes after a base load', () => {
    for (const seed of [1, 2, 3]) {
      const rand = rng(seed);
      const ids = Array.from({ length: 200 }, (_, i) => `o${String(i * 2).padStart(5, '0')}`);
      const heads = new Heads();
      const map = new Map<string, Version>();
      expect(heads.loadBase(ids, ids.map((_, i) => ({ n: i })), ids.map((_, i) => ({ n: i })), 7)).toBe(true);
      ids.forEach((id, i) => map.set(id, version(7, i)));
      for (let step = 0; step < 3000; step++) {
        // Ids of the base and ids between and after them (never loaded).
        const id = `o${String(Math.floor(rand() * 420)).padStart(5, '0')}`;
        const r = rand();
        if (r < 0.45) {
          const v = version(8 + step, step);
          heads.set(id, v);
          map.set(id, v);
        } else if (r < 0.75) {
          expect(heads.delete(id)).toBe(map.delete(id));
        } else {
          expect(view(heads.get(id))).toEqual(view(map.get(id)));
          expect(heads.has(id)).toBe(map.has(id));
        }
        if (step % 250 === 0) {
          expect(heads.size).toBe(map.size);
          expect([...heads.keys()]).toEqual([...map.keys()]);
          expect([...heads].map(([k, v]) => [k, view(v)])).toEqual([...map].map(([k, v]) => [k, view(v)]));
        }
      }
      expect(heads.size).toBe(map.size);
      expect([...heads.keys()]).toEqual([...map.keys()]);
    }
  });

  it('keeps a snapshot writer position on an untouched base document, and refuses a base out of id order', () => {
    const heads = new Heads();
    expect(heads.loadBase(['b', 'a'], [{ n: 1 }, { n: 2 }], [{ n: 1 }, { n: 2 }], 1)).toBe(false);
    expect(heads.size).toBe(0);
    expect(heads.loadBase(['a', 'b'], [{ n: 1 }, { n: 2 }], [{ n: 1 }, { n: 2 }], 1)).toBe(true);
    const v = heads.get('b')!;
    heads.setPos('b', v, 41);
    expect(heads.get('b')!.pos).toBe(41);
    const moved = version(2, 3);
    heads.set('b', moved);
    heads.setPos('b', moved, 5);
    expect(heads.get('b')).toBe(moved);
    expect(heads.get('b')!.pos).toBe(5);
  });
});

// The newest version of each document of a collection, by id: a Map in its API and iteration
// order, kept as two parts. Documents loaded from a snapshot sit in a base table (ids in sorted
// order, found by binary search, their documents in parallel arrays): no version object and no
// hash-map entry per document, which were about a second and a good part of the garbage
// collection of a 1M-document restart. A document's first write after the load moves it into
// the overlay Map, which holds every version written since; reads of an untouched base document
// get a fresh version object (its chain is just that version: nothing older exists).
import type { Doc } from './values.ts';

export interface Version {
  ts: number;
  doc: Doc | null;
  plain: Doc | null;
  prev: Version | null;
  /** Scratch for the snapshot being written: the document's position among its documents. */
  pos: number;
}

/** Base slot states: still in the base, superseded by an overlay entry at the same place in the order, gone. */
const BASE = 0;
const MOVED = 1;
const GONE = 2;

export class Heads {
  private readonly overlay = new Map<string, Version>();
  /** Base ids, strictly ascending (string order). */
  private baseIds: string[] = [];
  private baseDocs: Doc[] = [];
  private basePlains: Doc[] = [];
  private baseState = new Uint8Array(0);
  /** Positions set by a snapshot writer on base versions (see Version.pos); made on first use. */
  private basePos: Int32Array | undefined;
  private baseTs = 0;
  /** Base slots still in state BASE. */
  private baseLive = 0;

  get size(): number {
    return this.overlay.size + this.baseLive;
  }

  /**
   * Makes the given documents the base (an empty table only); false, leaving the table alone, when
   * the ids are not strictly ascending (the caller then sets them one by one).
   */
  loadBase(ids: string[], docs: Doc[], plains: Doc[], ts: number): boolean {
    if (this.overlay.size > 0 || this.baseIds.length > 0) return false;
    for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) return false;
    this.baseIds = ids;
    this.baseDocs = docs;
    this.basePlains = plains;
    this.baseState = new Uint8Array(ids.length);
    this.baseTs = ts;
    this.baseLive = ids.length;
    return true;
  }

  /** The last slot found: a snapshot writer asks for the ids in base order, one after another. */
  private hint = 0;

  /** The base slot of an id, or -1. */
  private slot(id: string): number {
    const ids = this.baseIds;
    const h = this.hint;
    if (ids[h] === id) return h;
    if (ids[h + 1] === id) return (this.hint = h + 1);
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ids[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    if (lo < ids.length && ids[lo] === id) return (this.hint = lo);
    return -1;
  }

  private baseVersion(s: number): Version {
    return { ts: this.baseTs, doc: this.baseDocs[s]!, plain: this.basePlains[s]!, prev: null, pos: this.basePos?.[s] ?? 0 };
  }

  get(id: string): Version | undefined {
    const v = this.overlay.get(id);
    if (v !== undefined || this.baseLive === 0) return v;
    const s = this.slot(id);
    return s >= 0 && this.baseState[s] === BASE ? this.baseVersion(s) : undefined;
  }

  has(id: string): boolean {
    if (this.overlay.has(id)) return true;
    if (this.baseLive === 0) return false;
    const s = this.slot(id);
    return s >= 0 && this.baseState[s] === BASE;
  }

  set(id: string, v: Version): this {
    if (this.baseLive > 0 && !this.overlay.has(id)) {
      const s = this.slot(id);
      if (s >= 0 && this.baseState[s] === BASE) {
        this.baseState[s] = MOVED;
        this.baseLive--;
        this.basePlains[s] = this.baseDocs[s] = null as unknown as Doc;
      }
    }
    this.overlay.set(id, v);
    return this;
  }

  delete(id: string): boolean {
    const s = this.baseIds.length > 0 ? this.slot(id) : -1;
    if (this.overlay.delete(id)) {
      if (s >= 0 && this.baseState[s] === MOVED) this.baseState[s] = GONE;
      return true;
    }
    if (s >= 0 && this.baseState[s] === BASE) {
      this.baseState[s] = GONE;
      this.baseLive--;
      this.basePlains[s] = this.baseDocs[s] = null as unknown as Doc;
      return true;
    }
    return false;
  }

  /** Sets a snapshot writer's position on the version of `id` it is writing. */
  setPos(id: string, v: Version, pos: number): void {
    v.pos = pos;
    if (this.baseLive === 0 || this.overlay.has(id)) return;
    const s = this.slot(id);
    if (s < 0 || this.baseState[s] !== BASE) return;
    if (!this.basePos) this.basePos = new Int32Array(this.baseIds.length);
    this.basePos[s] = pos;
  }

  /** Ids in the order a Map holding the same history of sets and deletes would give them. */
  *keys(): Generator<string> {
    const ids = this.baseIds;
    for (let s = 0; s < ids.length; s++) if (this.baseState[s] !== GONE) yield ids[s]!;
    for (const id of this.overlay.keys()) {
      if (ids.length > 0) {
        const s = this.slot(id);
        if (s >= 0 && this.baseState[s] === MOVED) continue;
      }
      yield id;
    }
  }

  *entries(): Generator<[string, Version]> {
    const ids = this.baseIds;
    for (let s = 0; s < ids.length; s++) {
      const state = this.baseState[s];
      if (state === BASE) yield [ids[s]!, this.baseVersion(s)];
      else if (state === MOVED) {
        const v = this.overlay.get(ids[s]!);
        if (v) yield [ids[s]!, v];
      }
    }
    for (const [id, v] of this.overlay) {
      if (ids.length > 0) {
        const s = this.slot(id);
        // Superseded base entries were visited in base order above.
        if (s >= 0 && this.baseState[s] === MOVED) continue;
      }
      yield [id, v];
    }
  }

  [Symbol.iterator](): Generator<[string, Version]> {
    return this.entries();
  }
}

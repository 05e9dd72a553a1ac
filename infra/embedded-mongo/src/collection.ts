// One collection: version chains per document (for snapshot reads) plus secondary indexes over
// the latest committed versions.
import { Index } from './indexes.ts';
import type { IndexSpec, KeyRows } from './indexes.ts';
import { Heads } from './heads.ts';
import type { Version } from './heads.ts';
import { KeptForm } from './kept-form.ts';
import type { Doc } from './values.ts';

export type { Version } from './heads.ts';

/** Documents to load, as parallel arrays (no object per document). */
export interface Rows extends KeyRows {
  docs: Doc[];
}

export class Collection {
  readonly heads = new Heads();
  readonly indexes: Index[] = [];
  /** The _id index in key order (equality on _id goes to `heads`), for _id ranges and sorts. */
  readonly idIndex = new Index({ v: 2, key: { _id: 1 }, name: '_id_' });
  /** Ids whose head carries older versions or is a tombstone; snapshot index reads must check them. */
  readonly history = new Set<string>();
  live = 0;
  /** The form written documents are kept in (shared strings, fast objects): see kept-form.ts. */
  readonly form = new KeptForm();

  constructor(
    readonly db: string,
    readonly name: string,
    public options: Doc = {},
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  index(name: string): Index | undefined {
    return this.indexes.find((i) => i.name === name);
  }

  /** Latest committed version of a document or undefined. */
  latest(id: string): Version | undefined {
    const h = this.heads.get(id);
    return h && h.doc ? h : undefined;
  }

  /** Version visible at a snapshot timestamp. */
  at(id: string, ts: number): Version | undefined {
    let v = this.heads.get(id);
    while (v && v.ts > ts) v = v.prev ?? undefined;
    return v && v.doc ? v : undefined;
  }

  /** Installs a committed version. keepPrev when an open snapshot may still need the old one. */
  install(id: string, ts: number, doc: Doc | null, plain: Doc | null, keepPrev: boolean): void {
    const old = this.heads.get(id);
    if (old?.plain && plain) for (const ix of this.indexes) ix.replace(id, old.plain, plain);
    else if (old?.plain) for (const ix of this.indexes) ix.remove(id, old.plain);
    else if (plain) for (const ix of this.indexes) ix.add(id, plain);
    if (old?.doc) this.live--;
    // _id never changes, so its ordered key only moves on insert and delete.
    if (old?.plain && !plain) this.idIndex.remove(id, old.plain);
    else if (plain && !old?.plain) this.idIndex.add(id, plain);
    if (doc) this.live++;
    if (!keepPrev && !doc) {
      this.heads.delete(id);
      this.history.delete(id);
      return;
    }
    const prev = keepPrev ? (old ?? { ts: 0, doc: null, plain: null, prev: null, pos: 0 }) : null;
    this.heads.set(id, { ts, doc, plain, prev, pos: 0 });
    if (keepPrev || !doc) this.history.add(id);
    else this.history.delete(id);
  }

  /**
   * Installs many committed documents into an empty collection (loading a snapshot): the heads
   * are set directly and each index is built in one pass instead of one ordered insert per key.
   */
  bulkLoad(rows: Rows, ts: number, orders?: Map<string, Uint32Array>): void {
    const { ids, docs, plains } = rows;
    if (this.heads.size > 0) {
      for (let i = 0; i < ids.length; i++) this.install(ids[i]!, ts, docs[i]!, plains[i]!, false);
      return;
    }
    // Snapshot documents come in _id order, which for ObjectIds is that of their id strings: they
    // become the base table as they are. Otherwise one version each.
    if (!this.heads.loadBase(ids, docs, plains, ts)) {
      for (let i = 0; i < ids.length; i++) this.heads.set(ids[i]!, { ts, doc: docs[i]!, plain: plains[i]!, prev: null, pos: 0 });
    }
    this.live = this.heads.size;
    shareStrings(rows, this.indexes);
    this.idIndex.bulkAdd(rows);
    for (const ix of this.indexes) ix.bulkAdd(rows, orders?.get(ix.name));
  }

  /** Drops history older than every open snapshot. */
  prune(minSnapshot: number | undefined): void {
    for (const id of this.history) {
      const h = this.heads.get(id);
      if (!h) {
        this.history.delete(id);
        continue;
      }
      if (minSnapshot === undefined || h.ts <= minSnapshot) {
        if (!h.doc) this.heads.delete(id);
        else h.prev = null;
        this.history.delete(id);
        continue;
      }
      let v: Version = h;
      while (v.prev && v.prev.ts > minSnapshot) v = v.prev;
      if (v.prev) v.prev.prev = null;
    }
  }

  addIndex(spec: IndexSpec): Index {
    const ix = new Index(spec);
    const rows: KeyRows = { ids: [], plains: [] };
    for (const [id, v] of this.heads) {
      if (!v.plain) continue;
      rows.ids.push(id);
      rows.plains.push(v.plain);
    }
    ix.bulkAdd(rows);
    this.indexes.push(ix);
    return ix;
  }
}

/** Distinct strings sampled per field before deciding whether a field repeats enough to share. */
const SHARE_SAMPLE = 10_000;

/**
 * Makes the documents of a load share one string per distinct value of each indexed top-level
 * field (a status, a user id, a currency): decoded separately, every document held its own copy,
 * 24–40 bytes each, and the index keys hold the same strings. A field whose sampled values are
 * mostly distinct (e-mails, links) is left alone. Each value is replaced by an equal string, so no
 * document changes.
 */
function shareStrings(rows: Rows, indexes: Index[]): void {
  const fields = new Set<string>();
  for (const ix of indexes) for (const f of ix.fields) if (f !== '_id' && !f.includes('.')) fields.add(f);
  const { docs, plains } = rows;
  for (const f of fields) {
    const seen = new Map<string, string>();
    let strings = 0;
    for (let i = 0; i < plains.length; i++) {
      const p = plains[i]!;
      const v = p[f];
      if (typeof v !== 'string') continue;
      if (++strings === SHARE_SAMPLE && seen.size * 2 > strings) break;
      const shared = seen.get(v);
      if (shared === undefined) {
        seen.set(v, v);
        continue;
      }
      p[f] = shared;
      const d = docs[i]!;
      if (d !== p && d[f] === shared) d[f] = shared;
    }
  }
}

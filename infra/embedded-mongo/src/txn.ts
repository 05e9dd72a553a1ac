// A unit of work. Explicit transactions hold locks on the documents and unique keys they write
// until commit/abort; implicit ones (plain write commands) run synchronously and only respect locks.
import type { Collection } from './collection.ts';
import type { Doc } from './values.ts';

export interface WriteEntry {
  doc: Doc | null;
  plain: Doc | null;
  /** Unique-key lock names this entry's document currently claims. */
  keys: string[];
}

export class Txn {
  readonly writes = new Map<Collection, Map<string, WriteEntry>>();
  readonly locks = new Set<string>();
  /** Unique keys claimed by this transaction's own pending writes: lock name -> ids. */
  readonly claimed = new Map<string, Set<string>>();
  state: 'active' | 'committed' | 'aborted' = 'active';
  lastUsed = Date.now();
  readonly done: Promise<void>;
  private resolveDone: () => void = () => undefined;

  constructor(
    readonly snapTs: number,
    readonly explicit: boolean,
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  entry(coll: Collection, id: string): WriteEntry | undefined {
    return this.writes.get(coll)?.get(id);
  }

  record(coll: Collection, id: string, e: WriteEntry): void {
    let m = this.writes.get(coll);
    if (!m) this.writes.set(coll, (m = new Map()));
    const old = m.get(id);
    if (old) for (const k of old.keys) this.claimed.get(k)?.delete(id);
    for (const k of e.keys) {
      let s = this.claimed.get(k);
      if (!s) this.claimed.set(k, (s = new Set()));
      s.add(id);
    }
    m.set(id, e);
  }

  get writeCount(): number {
    let n = 0;
    for (const m of this.writes.values()) n += m.size;
    return n;
  }

  finish(state: 'committed' | 'aborted'): void {
    this.state = state;
    this.resolveDone();
  }
}

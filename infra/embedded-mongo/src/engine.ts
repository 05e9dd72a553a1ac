// The storage engine: databases of collections, snapshot-isolated transactions with first-writer-
// wins conflicts, unique-index enforcement on every write, and journaling of committed changes.
import { Collection } from './collection.ts';
import { dupKeyMessage } from './indexes.ts';
import type { IndexSpec } from './indexes.ts';
import { Codes, LockWait, MongoError, writeConflict } from './errors.ts';
import { Txn } from './txn.ts';
import { valueKey } from './values.ts';
import type { Doc } from './values.ts';

export interface JournalSink {
  append(record: Doc): Promise<void>;
}

export interface SessionRecord {
  txnNumber: number;
  /** Stored reply of the retryable write carrying txnNumber. */
  response?: Doc;
  committed?: boolean;
  lastUse: number;
}

export interface Visible {
  id: string;
  doc: Doc;
  plain: Doc;
}

export class Engine {
  readonly dbs = new Map<string, Map<string, Collection>>();
  readonly active = new Set<Txn>();
  readonly sessions = new Map<string, SessionRecord>();
  private readonly lockTable = new Map<string, Txn>();
  clock = 0;
  journal: JournalSink | undefined;
  /** Every commit up to this timestamp is fsync'd (readConcern majority reads here). */
  private durableTs = 0;
  /** Commits whose journal write is in flight, oldest first. */
  private readonly unsynced: Array<{ ts: number; synced: boolean }> = [];
  private readonly durableWaiters: Array<{ ts: number; resolve: () => void }> = [];
  /** Documents examined by queries, reported like serverStatus.metrics.queryExecutor.scannedObjects. */
  readonly stats = { scannedObjects: 0, scannedKeys: 0, commands: new Map<string, number>() };

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  /** Creates a collection (non-transactionally, like implicit creation in MongoDB). */
  ensureCollection(db: string, name: string, options: Doc = {}): { coll: Collection; created: boolean; durable: Promise<void> } {
    const existing = this.collection(db, name);
    if (existing) return { coll: existing, created: false, durable: Promise.resolve() };
    if (!name || name.includes('\0') || name.startsWith('.') || name.includes('$')) {
      throw new MongoError(Codes.InvalidNamespace, `Invalid collection name: ${name}`);
    }
    const coll = this.applyCreate(db, name, options);
    return { coll, created: true, durable: this.log([{ k: 'createColl', d: db, c: name, o: options }]) };
  }

  applyCreate(db: string, name: string, options: Doc): Collection {
    let m = this.dbs.get(db);
    if (!m) this.dbs.set(db, (m = new Map()));
    let coll = m.get(name);
    if (!coll) {
      coll = new Collection(db, name, options);
      m.set(name, coll);
    }
    return coll;
  }

  dropCollection(db: string, name: string): Promise<void> {
    this.dbs.get(db)?.delete(name);
    return this.log([{ k: 'dropColl', d: db, c: name }]);
  }

  dropDatabase(db: string): Promise<void> {
    this.dbs.delete(db);
    return this.log([{ k: 'dropDb', d: db }]);
  }

  createIndex(coll: Collection, spec: IndexSpec): Promise<void> {
    const ix = coll.addIndex(spec);
    if (ix.unique) {
      for (const [id, v] of coll.heads) {
        if (!v.plain || !v.doc) continue;
        for (const { key, values } of ix.uniqueKeys(v.plain)) {
          if (ix.owners(values, key).some((o) => o !== id)) {
            coll.indexes.splice(coll.indexes.indexOf(ix), 1);
            const kv = ix.keyValue(v.doc);
            throw new MongoError(Codes.DuplicateKey, `Index build failed: ${dupKeyMessage(coll.ns, ix.name, kv)}`, {
              extra: { keyPattern: ix.spec.key, keyValue: kv },
            });
          }
        }
      }
    }
    return this.log([{ k: 'createIdx', d: coll.db, c: coll.name, spec }]);
  }

  dropIndex(coll: Collection, name: string): Promise<void> {
    const i = coll.indexes.findIndex((x) => x.name === name);
    if (i >= 0) coll.indexes.splice(i, 1);
    return this.log([{ k: 'dropIdx', d: coll.db, c: coll.name, n: name }]);
  }

  /** The newest timestamp whose commits are all durable: what a majority read sees. */
  get durable(): number {
    return this.unsynced.length === 0 ? this.clock : this.durableTs;
  }

  /** Resolves once every commit up to `ts` is durable. */
  waitDurable(ts: number): Promise<void> {
    if (this.durable >= ts) return Promise.resolve();
    return new Promise((resolve) => this.durableWaiters.push({ ts, resolve }));
  }

  /** Journals a commit and advances the durable point, in commit order, once it is fsync'd. */
  private logCommit(ts: number, ops: Doc[]): Promise<void> {
    if (!this.journal) return Promise.resolve();
    const entry = { ts, synced: false };
    this.unsynced.push(entry);
    const p = this.journal.append({ ts, ops });
    p.then(
      () => {
        entry.synced = true;
        let advanced = false;
        while (this.unsynced[0]?.synced) {
          this.durableTs = this.unsynced.shift()!.ts;
          advanced = true;
        }
        if (!advanced) return;
        const durable = this.durable;
        for (let i = this.durableWaiters.length - 1; i >= 0; i--) {
          const w = this.durableWaiters[i]!;
          if (w.ts <= durable) {
            this.durableWaiters.splice(i, 1);
            w.resolve();
          }
        }
        this.prune();
      },
      // A failed journal write was never acknowledged; the durable point stays where it was.
      () => undefined,
    );
    return p;
  }

  log(ops: Doc[]): Promise<void> {
    return this.journal ? this.journal.append({ ts: this.clock, ops }) : Promise.resolve();
  }

  /** snapTs: the snapshot to read (default: everything committed; `durable` for majority reads). */
  begin(explicit: boolean, snapTs = this.clock): Txn {
    const t = new Txn(snapTs, explicit);
    if (explicit) this.active.add(t);
    return t;
  }

  /** The document and its plain twin as the transaction sees it, without allocating (scans). */
  peek(txn: Txn | null, coll: Collection, id: string): { doc: Doc | null; plain: Doc | null } | undefined {
    const e = txn?.entry(coll, id);
    if (e) return e.doc && e.plain ? e : undefined;
    const v = txn?.explicit ? coll.at(id, txn.snapTs) : coll.latest(id);
    return v?.doc && v.plain ? v : undefined;
  }

  /** Current version of a document as the transaction sees it. */
  get(txn: Txn | null, coll: Collection, id: string): Visible | undefined {
    const e = txn?.entry(coll, id);
    if (e) return e.doc && e.plain ? { id, doc: e.doc, plain: e.plain } : undefined;
    const v = txn?.explicit ? coll.at(id, txn.snapTs) : coll.latest(id);
    return v?.doc && v.plain ? { id, doc: v.doc, plain: v.plain } : undefined;
  }

  private lock(txn: Txn, key: string): void {
    const holder = this.lockTable.get(key);
    if (holder && holder !== txn) {
      if (txn.explicit) throw writeConflict();
      throw new LockWait(holder.done);
    }
    if (txn.explicit && !holder) {
      this.lockTable.set(key, txn);
      txn.locks.add(key);
    }
  }

  private claimDoc(txn: Txn, coll: Collection, id: string): void {
    this.lock(txn, `${coll.ns}\0_id\0${id}`);
    const head = coll.heads.get(id);
    if (txn.explicit && head && head.ts > txn.snapTs && !txn.entry(coll, id)) throw writeConflict();
  }

  private uniqueKeys(txn: Txn, coll: Collection, id: string, doc: Doc, plain: Doc): string[] {
    const claimed: string[] = [];
    for (const ix of coll.indexes) {
      if (!ix.unique) continue;
      for (const { key, values } of ix.uniqueKeys(plain)) {
        const lockName = `${coll.ns}\0${ix.name}\0${key}`;
        this.lock(txn, lockName);
        const ws = txn.writes.get(coll);
        let dup = false;
        for (const o of ix.owners(values, key)) if (o !== id && !ws?.has(o)) dup = true;
        for (const o of txn.claimed.get(lockName) ?? []) if (o !== id) dup = true;
        if (dup) throw duplicateKey(coll, ix.name, ix.spec.key, ix.keyValue(doc));
        claimed.push(lockName);
      }
    }
    return claimed;
  }

  insert(txn: Txn, coll: Collection, doc: Doc, plain: Doc): string {
    const id = valueKey(doc['_id']);
    this.claimDoc(txn, coll, id);
    const exists = this.get(txn, coll, id) ?? (txn.entry(coll, id) ? undefined : coll.latest(id));
    if (exists) throw duplicateKey(coll, '_id_', { _id: 1 }, { _id: doc['_id'] });
    const keys = this.uniqueKeys(txn, coll, id, doc, plain);
    txn.record(coll, id, { doc, plain, keys });
    return id;
  }

  replace(txn: Txn, coll: Collection, id: string, doc: Doc, plain: Doc): void {
    this.claimDoc(txn, coll, id);
    const keys = this.uniqueKeys(txn, coll, id, doc, plain);
    txn.record(coll, id, { doc, plain, keys });
  }

  remove(txn: Txn, coll: Collection, id: string): void {
    this.claimDoc(txn, coll, id);
    txn.record(coll, id, { doc: null, plain: null, keys: [] });
  }

  /** Applies the transaction's writes atomically; resolves once they are durable. */
  commit(txn: Txn, extraOps: Doc[] = []): Promise<void> {
    if (txn.state !== 'active') throw new MongoError(Codes.NoSuchTransaction, 'Transaction is not active');
    const ops: Doc[] = [];
    if (txn.writeCount > 0) {
      const ts = ++this.clock;
      // Majority reads need the version before a commit until the commit is fsync'd.
      let keepPrev = this.journal !== undefined;
      for (const t of this.active) if (t !== txn) keepPrev = true;
      for (const [coll, m] of txn.writes) {
        for (const [id, e] of m) {
          const before = coll.heads.get(id);
          if (!e.doc && !before?.doc) continue;
          const kept = e.doc && e.plain ? coll.form.keepPair(e.doc, e.plain) : { doc: null, plain: null };
          coll.install(id, ts, kept.doc, kept.plain, keepPrev);
          if (kept.doc) ops.push({ k: 'put', d: coll.db, c: coll.name, doc: kept.doc });
          else ops.push({ k: 'del', d: coll.db, c: coll.name, id: before?.doc?.['_id'] ?? null });
        }
      }
    }
    ops.push(...extraOps);
    // Journaled (and registered as not yet durable) before release prunes the versions it replaced.
    const durable = !ops.length ? Promise.resolve() : txn.writeCount > 0 ? this.logCommit(this.clock, ops) : this.log(ops);
    this.release(txn, 'committed');
    return durable;
  }

  abort(txn: Txn): void {
    if (txn.state === 'active') this.release(txn, 'aborted');
  }

  private release(txn: Txn, state: 'committed' | 'aborted'): void {
    for (const k of txn.locks) if (this.lockTable.get(k) === txn) this.lockTable.delete(k);
    txn.locks.clear();
    const wasActive = this.active.delete(txn);
    txn.finish(state);
    if (wasActive) this.prune();
  }

  /** The oldest snapshot at the last prune (null: never pruned). */
  private prunedFor: number | undefined | null = null;

  private prune(): void {
    let min: number | undefined = this.unsynced.length > 0 ? this.durableTs : undefined;
    for (const t of this.active) min = min === undefined ? t.snapTs : Math.min(min, t.snapTs);
    // Every commit since the last prune is newer than an unchanged oldest snapshot, so a prune
    // would only shorten chains; skipped, as otherwise each commit during a long read or a
    // background snapshot walks the whole history, which grows with every commit meanwhile.
    if (min !== undefined && min === this.prunedFor) return;
    this.prunedFor = min;
    for (const m of this.dbs.values()) for (const c of m.values()) if (c.history.size) c.prune(min);
  }
}

export function duplicateKey(coll: Collection, indexName: string, keyPattern: Doc, keyValue: Doc): MongoError {
  return new MongoError(Codes.DuplicateKey, dupKeyMessage(coll.ns, indexName, keyValue), { extra: { keyPattern, keyValue } });
}

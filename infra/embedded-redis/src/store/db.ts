// One logical database: values plus a separate expiry table (absolute ms timestamps), like
// Redis's dict + expires. Expired keys are removed lazily on access and actively by sampling.
import { now as clockNow } from '../clock.ts';
import type { Deque } from './deque.ts';
import { NOTIFY, emitKeyEvent } from '../notify.ts';
import type { KeyEvents } from '../notify.ts';
import type { SortedSet } from './sortedset.ts';
import type { Stream } from './stream.ts';

export type Value =
  | { t: 'string'; v: string }
  | { t: 'hash'; v: Map<string, string> }
  | { t: 'set'; v: Set<string> }
  | { t: 'zset'; v: SortedSet }
  | { t: 'list'; v: Deque }
  | { t: 'stream'; v: Stream };

export type Entry = Value & { seq: number };
export type TypeName = Value['t'];

/** A client waiting on a key (the client record itself, kept opaque here). */
export type KeyWaiter = object;

/** Something that wants to hear about writes to a key (WATCH). */
export interface KeyWatcher {
  dirtyCas: boolean;
}

export class Db {
  readonly data = new Map<string, Entry>();
  readonly expires = new Map<string, number>();
  readonly watched = new Map<string, Set<KeyWatcher>>();
  private seq = 1;
  private expireCursor: Iterator<[string, number]> | undefined;
  /** The soonest expiry the active-expiry walk under way has passed and kept. */
  private walkMin = Number.POSITIVE_INFINITY;
  /**
   * No key of this database expires before this (ms): the soonest expiry a whole walk of the table
   * kept, lowered by every expiry set since; undefined until a walk completes. Lets the server sleep
   * until a key is due instead of sampling 10 times a second.
   */
  expiresNoSoonerThan: number | undefined;
  /** Told of every expiry set, so the active-expiry timer can come sooner (set by the server). */
  onExpireSet: (at: number) => void = () => undefined;
  /** Iterators parked by SCAN so the next call with the same cursor resumes in O(COUNT). */
  readonly scanIters = new Map<number, { it: Iterator<[string, Entry]>; pending: [string, Entry] }>();
  expiredCount = 0;
  /** Clients blocked in BLPOP/BRPOP per key, first come first served. */
  readonly blocking = new Map<string, KeyWaiter[]>();
  /** Called when a key clients wait on gets elements (set by the server state). */
  onReady: (db: Db, key: string) => void = () => undefined;

  constructor(
    readonly index: number,
    private readonly onDirty: () => void,
    private readonly events: KeyEvents = { flags: 0, publish: () => undefined },
  ) {}

  /** Publishes a keyspace event of class `cls` (a NOTIFY bit) if notifications select it. */
  notify(cls: number, event: string, key: string): void {
    if (this.events.flags !== 0) emitKeyEvent(this.events, this.index, cls, event, key);
  }

  /** Looks a key up, deleting it first if its time has passed. */
  get(key: string, now = clockNow()): Entry | undefined {
    const e = this.data.get(key);
    if (e === undefined) return undefined;
    if (this.expires.size > 0) {
      const at = this.expires.get(key);
      if (at !== undefined && at <= now) {
        this.removeExpired(key);
        return undefined;
      }
    }
    return e;
  }

  private removeExpired(key: string): void {
    this.data.delete(key);
    this.expires.delete(key);
    this.expiredCount++;
    this.touch(key);
    this.notify(NOTIFY.EXPIRED, 'expired', key);
  }

  /** Stores a value; keeps the TTL only when keepTtl. A new key gets a fresh SCAN sequence. */
  put(key: string, value: Value, keepTtl = false): Entry {
    const prev = this.data.get(key);
    // Same object shape for every entry keeps the hot SET path monomorphic.
    const entry = { t: value.t, v: value.v, seq: prev !== undefined ? prev.seq : this.seq++ } as Entry;
    this.data.set(key, entry);
    if (!keepTtl && this.expires.size > 0) this.expires.delete(key);
    this.touch(key);
    return entry;
  }

  delete(key: string): boolean {
    if (!this.data.delete(key)) return false;
    this.expires.delete(key);
    this.touch(key);
    return true;
  }

  /** Marks a key modified: wakes WATCHers and the snapshotter. Call after every write. */
  touch(key: string): void {
    this.onDirty();
    if (this.watched.size === 0) return;
    const ws = this.watched.get(key);
    if (ws !== undefined) for (const w of ws) w.dirtyCas = true;
  }

  /** A push: if someone waits on this key, it is served once the current command is done. */
  signalReady(key: string): void {
    if (this.blocking.size > 0 && this.blocking.has(key)) this.onReady(this, key);
  }

  setExpire(key: string, at: number): void {
    this.expires.set(key, at);
    if (this.expiresNoSoonerThan !== undefined && at < this.expiresNoSoonerThan) this.expiresNoSoonerThan = at;
    if (this.walkMin > at) this.walkMin = at;
    this.touch(key);
    this.onExpireSet(at);
  }

  ttlAt(key: string): number | undefined {
    return this.expires.get(key);
  }

  clear(): void {
    for (const ws of this.watched.values()) for (const w of ws) w.dirtyCas = true;
    this.data.clear();
    this.expires.clear();
    this.scanIters.clear();
    this.expireCursor = undefined;
    this.walkMin = Number.POSITIVE_INFINITY;
    this.expiresNoSoonerThan = undefined;
    this.onDirty();
  }

  /** Number of keys including not-yet-reclaimed expired ones, as Redis's DBSIZE does. */
  get size(): number {
    return this.data.size;
  }

  /**
   * Active expiry: walks the expiry table with a persistent cursor, examining at most `budget`
   * entries, so memory of keys nobody reads again is reclaimed without stalling the event loop.
   */
  activeExpire(now: number, budget: number): number {
    if (this.expires.size === 0) return 0;
    let removed = 0;
    for (let i = 0; i < budget; i++) {
      if (this.expireCursor === undefined) this.expireCursor = this.expires.entries();
      const n = this.expireCursor.next();
      if (n.done === true) {
        this.expireCursor = undefined;
        this.expiresNoSoonerThan = this.walkMin;
        this.walkMin = Number.POSITIVE_INFINITY;
        if (i > 0 || this.expires.size === 0) break;
        continue;
      }
      const [key, at] = n.value;
      if (at <= now) {
        this.removeExpired(key);
        removed++;
      } else if (at < this.walkMin) this.walkMin = at;
    }
    return removed;
  }
}

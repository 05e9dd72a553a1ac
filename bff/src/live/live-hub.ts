import type { LiveEnded, LiveUpdate } from '@smm/contracts';

/** One update as sent: its id is the Kafka event id, the same on every BFF replica. */
export type LiveEntry = { id: string; update: LiveUpdate; at: number };
/** An open connection: `send` an update, `close` when the process stops, `end` when the member's sessions ended. */
export type LiveListener = { send(entry: LiveEntry): void; close(): void; end?(ended: LiveEnded): void };

export type LiveHubOptions = { replayPerMember: number; replayMs: number; now?: () => number };

/**
 * Fans one process's stream of member updates out to that member's open connections and keeps a
 * short replay buffer per member, so a page that lost its connection for a moment resumes from
 * the last id it saw. Every replica reads every event (its own consumer group), so the id a page
 * saw on one replica is found on another too while it is still in the buffer.
 */
export class LiveHub {
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly buffers = new Map<string, LiveEntry[]>();
  private readonly now: () => number;

  constructor(private readonly options: LiveHubOptions) {
    this.now = options.now ?? Date.now;
  }

  /** An id the member's buffer already holds (an event delivered again) is dropped. */
  publish(userId: string, id: string, update: LiveUpdate): void {
    const entry: LiveEntry = { id, update, at: this.now() };
    const buffer = this.fresh(this.buffers.get(userId) ?? []);
    if (buffer.some((held) => held.id === id)) return;
    buffer.push(entry);
    if (buffer.length > this.options.replayPerMember) buffer.splice(0, buffer.length - this.options.replayPerMember);
    this.buffers.set(userId, buffer);
    for (const listener of this.listeners.get(userId) ?? []) listener.send(entry);
  }

  subscribe(userId: string, listener: LiveListener): () => void {
    const set = this.listeners.get(userId) ?? new Set();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  /**
   * The updates after `lastId`, or 'unknown' when that id is no longer (or never was) in the
   * buffer: the page must then re-read what it shows, since something may have been missed.
   */
  since(userId: string, lastId: string): LiveEntry[] | 'unknown' {
    const buffer = this.fresh(this.buffers.get(userId) ?? []);
    const index = buffer.findIndex((entry) => entry.id === lastId);
    return index === -1 ? 'unknown' : buffer.slice(index + 1);
  }

  /** Drops buffers whose every entry is older than the replay window (called on a timer). */
  sweep(): void {
    for (const [userId, buffer] of this.buffers) {
      const kept = this.fresh(buffer);
      if (kept.length === 0) this.buffers.delete(userId);
      else this.buffers.set(userId, kept);
    }
  }

  /** Ends the member's open connections with the reason (their sessions ended: session-ends.ts). */
  end(userId: string, ended: LiveEnded): void {
    for (const listener of [...(this.listeners.get(userId) ?? [])]) (listener.end ?? listener.close)(ended);
  }

  /** Ends every open connection (shutdown: the HTTP server cannot close while streams stay open). */
  closeAll(): void {
    for (const set of this.listeners.values()) for (const listener of [...set]) listener.close();
    this.listeners.clear();
  }

  connections(userId: string): number {
    return this.listeners.get(userId)?.size ?? 0;
  }

  private fresh(buffer: LiveEntry[]): LiveEntry[] {
    const oldest = this.now() - this.options.replayMs;
    const first = buffer.findIndex((entry) => entry.at >= oldest);
    return first === -1 ? [] : first === 0 ? buffer : buffer.slice(first);
  }
}

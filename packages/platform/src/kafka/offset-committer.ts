import type { Consumer } from 'kafkajs';
import type { Logger } from 'pino';

/** Handler calls under way, so a stop can let them finish before it commits. */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves when nothing is under way, or after `timeoutMs` (a stuck handler does not hold up a stop). */
  idle(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

type Position = { topic: string; partition: number; offset: string };

/**
 * Offsets handled but not yet committed, per partition (the next offset to read), committed
 * `intervalMs` after the first one handled since the last commit, and at stop: the timer is set by
 * work, so an idle consumer's committer holds none (issue 42; it was an interval waking every
 * consumer once a second). A failed commit is retried one interval later; a position handled
 * meanwhile replaces it. Committing a partition this member no longer owns can only move its offset
 * back (the handler saw nothing past it), which means a redelivery, never a loss.
 */
export class OffsetCommitter {
  private readonly pending = new Map<string, Position>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Set by start; undefined before it and after stop (handled offsets then wait for a flush). */
  private intervalMs: number | undefined;

  constructor(
    private readonly consumer: Consumer,
    private readonly logger: Logger,
  ) {}

  /** `offset`: the last offset handled (or skipped) in the partition. */
  handled(topic: string, partition: number, offset: string): void {
    this.pending.set(`${topic}\u0000${partition}`, { topic, partition, offset: (BigInt(offset) + 1n).toString() });
    this.arm();
  }

  start(intervalMs: number): void {
    this.intervalMs = intervalMs;
    if (this.pending.size > 0) this.arm();
  }

  /** A commit `intervalMs` from now, unless one is set already (or the committer is not started). */
  private arm(): void {
    if (this.timer !== undefined || this.intervalMs === undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.intervalMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    const positions = [...this.pending.entries()];
    this.pending.clear();
    this.flushing = this.consumer
      .commitOffsets(positions.map(([, p]) => p))
      .catch((error: unknown) => {
        this.logger.warn({ err: (error as Error).message, partitions: positions.length }, 'offset commit failed; will retry');
        for (const [key, position] of positions) if (!this.pending.has(key)) this.pending.set(key, position);
        this.arm();
      })
      .finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  /** Commits what was handled (best effort: the group may already be gone), then stops the timer. */
  async stop(): Promise<void> {
    this.intervalMs = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

import type { Logger } from 'pino';
import { PassLoop } from '@smm/platform';

/** What one pass over a kind of due item did; `waiting` items are due but held back for a moment. */
export type FireResult = { fired: number; waiting: number };

/** One kind of due item: fire what is due, and tell when the next one falls due. */
export type DueSource = {
  name: string;
  fire(now: Date): Promise<FireResult>;
  earliestDue(): Promise<Date | null>;
};

export type DuePollerOptions = {
  sources: readonly DueSource[];
  logger: Logger;
  /** Longest sleep between passes, whatever the database says: picks up items written by other instances. */
  pollMs: number;
  /** Called after a pass that recorded events (kick the outbox relay). */
  onFired: () => void;
};

/** Sleep while an item is due but waits for the relay to publish its schedule's previous events. */
const heldBackRetryMs = 50;

/**
 * The timer worker (eShop's grace-period manager is the model): due times live in MongoDB, and a
 * pass fires everything due now. It sleeps until the soonest known due time or `pollMs`, whichever
 * comes first, and `wake()` shortens the sleep when this instance stores an item due sooner (the
 * timing is `PassLoop`'s). Being stopped or crashed loses nothing: the next start fires whatever
 * fell due meanwhile.
 */
export class DuePoller {
  private readonly loop = new PassLoop(() => this.cycle());
  private stopped = true;
  private failures = 0;
  /** Passes in a row that found items held back (the relay is behind, e.g. Kafka is down): back off. */
  private heldBackPasses = 0;
  /** Events this instance recorded since start (tests compare instances with it). */
  fired = 0;

  constructor(private readonly options: DuePollerOptions) {}

  start(): void {
    this.stopped = false;
    this.loop.start(0);
  }

  /** Something due at `at` was stored: pass at that time unless a pass comes sooner anyway. */
  wake(at: Date = new Date()): void {
    this.loop.wakeAt(at);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
  }

  /** One pass over every source until nothing more is due now; resolves with the events recorded. */
  async passOnce(): Promise<{ fired: number; waiting: number }> {
    let fired = 0;
    let waiting = 0;
    for (;;) {
      let firedThisRound = 0;
      waiting = 0;
      const now = new Date();
      for (const source of this.options.sources) {
        const result = await source.fire(now);
        firedThisRound += result.fired;
        waiting += result.waiting;
      }
      if (firedThisRound > 0) this.options.onFired();
      fired += firedThisRound;
      // Passes are bounded in size: go round again until one finds nothing left to fire.
      if (firedThisRound === 0 || this.stopped) return { fired, waiting };
    }
  }

  /** A pass, then how long to sleep before the next (a wake-up meanwhile may cut it short). */
  private async cycle(): Promise<number> {
    const { pollMs, logger } = this.options;
    try {
      const { fired, waiting } = await this.passOnce();
      this.fired += fired;
      this.failures = 0;
      this.heldBackPasses = waiting > 0 && fired === 0 ? this.heldBackPasses + 1 : 0;
      if (waiting > 0) return Math.min(pollMs, heldBackRetryMs * 2 ** Math.min(this.heldBackPasses, 10));
      return Math.min(pollMs, await this.untilSoonestDue());
    } catch (error) {
      this.failures += 1;
      const delay = Math.min(pollMs * 2 ** this.failures, 30_000);
      logger.warn({ err: (error as Error).message, failures: this.failures, retryInMs: delay }, 'due pass failed; will retry');
      return delay;
    }
  }

  private async untilSoonestDue(): Promise<number> {
    let soonest = Number.POSITIVE_INFINITY;
    for (const source of this.options.sources) {
      const at = await source.earliestDue();
      if (at !== null) soonest = Math.min(soonest, at.getTime());
    }
    // An item due already but not fired (written while the pass ran): come back at once, but not in a tight loop.
    return Math.max(soonest - Date.now(), soonest <= Date.now() ? heldBackRetryMs : 0);
  }
}

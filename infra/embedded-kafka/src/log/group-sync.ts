import fs from 'node:fs';
import type { LatencyStats } from '../stats.ts';

/**
 * Group commit for fdatasync: concurrent callers share one sync. A caller arriving while a sync
 * runs waits for the next one, because the running one may not cover its write.
 */
export class GroupSync {
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  /** target() is read when a sync starts; gone() says the file was closed since, so errors do not matter. */
  constructor(
    private readonly target: () => { fd: number; gone: () => boolean },
    private readonly stats?: LatencyStats,
  ) {}

  sync(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.run();
      return this.inFlight;
    }
    if (!this.queued) {
      this.queued = this.inFlight.then(() => {
        this.queued = null;
        this.inFlight = this.run();
        return this.inFlight;
      });
    }
    return this.queued;
  }

  private run(): Promise<void> {
    const t = this.target();
    const started = performance.now();
    return new Promise<void>((resolve, reject) => {
      fs.fdatasync(t.fd, (err) => {
        this.stats?.record(performance.now() - started);
        this.inFlight = null;
        if (err && !t.gone()) reject(err);
        else resolve();
      });
    });
  }
}

import type { Logger } from '@smm/platform';

/**
 * Runs `work` every `everyMs` (after the previous run ended, so runs never overlap), logging
 * failures and carrying on. `runNow` lets a test or an operator action start a run at once; `kick`
 * asks for one as soon as possible (now, or right after the run in progress: work that arrived
 * during a run is never left for the next period); `wakeAt` for one at a given time (work that
 * falls due then), when that is sooner than the next period.
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  /** When the planned run starts (epoch ms); undefined while none is planned. */
  private plannedAt: number | undefined;
  /** Times asked for by `wakeAt` that no run has started at or after yet (epoch ms). */
  private wakes: number[] = [];
  private running: Promise<void> | undefined;
  private stopped = true;
  private again = false;

  constructor(
    private readonly name: string,
    private readonly everyMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(delayMs = this.everyMs): void {
    this.stopped = false;
    this.schedule(delayMs);
  }

  /** Runs once now (or joins the run in progress). */
  runNow(): Promise<void> {
    if (this.running) return this.running;
    clearTimeout(this.timer);
    this.plannedAt = undefined;
    const startedAt = Date.now();
    if (this.wakes.length > 0) this.wakes = this.wakes.filter((at) => at > startedAt);
    this.running = this.work()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.warn({ err: (error as Error).message, task: this.name }, 'periodic task failed; will retry'))
      .finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.again ? 0 : this.untilNext());
        this.again = false;
      });
    return this.running;
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Asks for a run at `at` (say, when a retry falls due): kept until a run starts then or later. */
  wakeAt(at: Date): void {
    if (this.stopped) return;
    const time = at.getTime();
    this.wakes.push(time);
    if (!this.running && (this.plannedAt === undefined || time < this.plannedAt)) this.schedule(Math.max(0, time - Date.now()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** The pause before the next run: the period, or less when a wake-up falls due sooner. */
  private untilNext(): number {
    let soonest = Date.now() + this.everyMs;
    for (const at of this.wakes) soonest = Math.min(soonest, at);
    return Math.max(0, soonest - Date.now());
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.plannedAt = Date.now() + delayMs;
    this.timer = setTimeout(() => void this.runNow(), delayMs);
  }
}

import type { Logger } from '@smm/platform';

/**
 * Runs `work` every `everyMs` (after the previous run ended, so runs never overlap), logging
 * failures and carrying on. `runNow` lets a test or an operator action start a run at once; `kick`
 * asks for one as soon as possible (now, or right after the run in progress: work that arrived
 * during a run is never left for the next period).
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
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
    this.running = this.work()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.warn({ err: (error as Error).message, task: this.name }, 'periodic task failed; will retry'))
      .finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.again ? 0 : this.everyMs);
        this.again = false;
      });
    return this.running;
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.runNow(), delayMs);
  }
}

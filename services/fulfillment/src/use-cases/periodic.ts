import { type Logger, PassLoop } from '@smm/platform';

/**
 * Runs `work` every `everyMs` (after the previous run ended, so runs never overlap), logging
 * failures and carrying on; first a period after `start()` unless told otherwise. `kick`, `wakeAt`
 * and `runNow` as `PassLoop`'s: a run as soon as possible, at a given time, or at once.
 */
export class Periodic extends PassLoop {
  constructor(
    name: string,
    private readonly everyMs: number,
    work: () => Promise<unknown>,
    logger: Logger,
  ) {
    super(async () => {
      try {
        await work();
      } catch (error) {
        logger.warn({ err: (error as Error).message, task: name }, 'periodic task failed; will retry');
      }
      return everyMs;
    });
  }

  override start(delayMs = this.everyMs): void {
    super.start(delayMs);
  }
}

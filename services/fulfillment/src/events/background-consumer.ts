import type { Logger, RunningConsumer } from '@smm/platform';

/**
 * Starts an event consumer without holding up the service's start (issue 41): after a crash the
 * dead member stays in the consumer group until its session times out, and joining waits for that.
 * Meanwhile HTTP answers (the console's order list, the queues) and the forwarder, patcher and
 * syncs run on what MongoDB holds; paid orders wait on Kafka and are taken once the join completes.
 * A failed start is retried (1 s doubling to 30 s) until stopped; `/readyz` says whether it joined.
 */
export class BackgroundConsumer {
  private consumer: RunningConsumer | null = null;
  private stopped = false;
  private readonly starting: Promise<void>;
  private wake: (() => void) | null = null;

  constructor(
    start: () => Promise<RunningConsumer>,
    private readonly logger: Logger,
  ) {
    this.starting = this.run(start);
  }

  get joined(): boolean {
    return this.consumer !== null;
  }

  /** For `/readyz`: rejects until the consumer joined its group. */
  readonly ready = async (): Promise<void> => {
    if (!this.joined) throw new Error('consumer group not joined yet');
  };

  private async run(start: () => Promise<RunningConsumer>): Promise<void> {
    const began = Date.now();
    for (let pauseMs = 1000; !this.stopped; pauseMs = Math.min(30_000, pauseMs * 2)) {
      try {
        const consumer = await start();
        if (this.stopped) return void (await consumer.stop());
        this.consumer = consumer;
        this.logger.info({ ms: Date.now() - began }, 'consumer joined its group');
        return;
      } catch (error) {
        this.logger.error({ err: error, retryInMs: pauseMs }, 'consumer did not start; trying again');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pauseMs);
          this.wake = () => (clearTimeout(timer), resolve());
        });
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.starting;
    // Leaves the group (kafkajs's disconnect sends LeaveGroup): the next start has nothing to wait for.
    await this.consumer?.stop();
    this.consumer = null;
  }
}

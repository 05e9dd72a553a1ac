import { type EventEnvelope, Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction, rememberTrace } from '@smm/platform';
import type { AutoOrder, Order } from '../store/models.ts';
import type { Store } from '../store/store.ts';

type Placement = { doc: Order | AutoOrder; kind: 'order' | 'auto'; event: EventEnvelope; done: (error?: unknown) => void };

/**
 * Group commit for new orders: placements that arrive while a commit is in flight are stored
 * together in the next transaction (the orders and their OrderPlaced outbox records), so N
 * concurrent requests cost a handful of database commands instead of 3 × N. Each order is still
 * stored with its event atomically; if a shared transaction fails, its placements are retried one
 * transaction each, so one bad placement cannot fail the others.
 */
export class PlacementBatcher {
  private queue: Placement[] = [];
  private running = false;

  /** The relay receives each commit's OrderPlaced records from inTransaction, without a read. */
  constructor(
    private readonly store: Store,
    private readonly maxBatch = 200,
  ) {}

  place(doc: Order | AutoOrder, kind: 'order' | 'auto', event: EventEnvelope): Promise<void> {
    // The commit runs in whichever request started it: each OrderPlaced keeps its own request's trace.
    rememberTrace(event);
    return new Promise((resolve, reject) => {
      this.queue.push({ doc, kind, event, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.commit(batch);
          for (const p of batch) p.done();
        } catch {
          for (const p of batch) {
            try {
              await this.commit([p]);
              p.done();
            } catch (error) {
              p.done(error);
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
  }

  private commit(batch: Placement[]): Promise<void> {
    return inTransaction(this.store.connection, async (session) => {
      await this.store.repository.insert(batch, session);
      await appendToOutbox(this.store.connection, session, Topics.order, batch.map((p) => p.event));
    });
  }
}

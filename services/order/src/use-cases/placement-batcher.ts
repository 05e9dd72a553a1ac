import { type EventEnvelope, Topics } from '@smm/contracts';
import { rememberTrace } from '@smm/platform';
import type { AutoOrder, Order } from '../store/models.ts';
import { InsertOutcomeUnknown } from '../store/order-repository.ts';
import type { Store } from '../store/store.ts';

type Placement = { doc: Order | AutoOrder; kind: 'order' | 'auto'; event: EventEnvelope; done: (error?: unknown) => void };

/**
 * Group commit for new orders: placements that arrive while an insert is in flight are stored
 * together by the next one (each order with its OrderPlaced kept in the document, so no
 * transaction: one insert per kind for the whole batch). A placement the batch could not store
 * is tried once more alone, so one bad placement cannot fail the others. A placement whose insert
 * went unanswered (the database restarting) is inserted again until the database answers or
 * `settleMs` pass: its answer then says whether the order exists, so the caller hears the truth
 * instead of an error behind which the order may still be charged.
 */
export class PlacementBatcher {
  private queue: Placement[] = [];
  private running = false;

  /** The relay receives each insert's OrderPlaced events from the repository, without a read. */
  constructor(
    private readonly store: Store,
    private readonly maxBatch = 200,
    private readonly settleMs = 10_000,
    private readonly retryMs = 250,
  ) {}

  place(doc: Order | AutoOrder, kind: 'order' | 'auto', event: EventEnvelope): Promise<void> {
    // The insert runs in whichever request started it: each OrderPlaced keeps its own request's trace.
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
        const failed = await this.insert(batch);
        const unknown: Placement[] = [];
        for (const [i, p] of batch.entries()) {
          if (!failed.has(i)) p.done();
          else if (failed.get(i) instanceof InsertOutcomeUnknown) unknown.push(p);
          else p.done((await this.insert([p])).get(0));
        }
        await this.settle(unknown);
      }
    } finally {
      this.running = false;
    }
  }

  /** Inserts placements whose insert went unanswered again, together, until each is answered or time runs out. */
  private async settle(placements: Placement[]): Promise<void> {
    const deadline = Date.now() + this.settleMs;
    let pending = placements;
    while (pending.length > 0) {
      const failed = await this.insert(pending);
      const again: Placement[] = [];
      for (const [i, p] of pending.entries()) {
        const error = failed.get(i);
        if (error instanceof InsertOutcomeUnknown && Date.now() < deadline) again.push(p);
        else p.done(error);
      }
      pending = again;
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, this.retryMs));
    }
  }

  private insert(batch: readonly Placement[]): Promise<Map<number, unknown>> {
    return this.store.repository
      .insertPlaced(this.store.connection, Topics.order, batch)
      .catch((error: unknown) => new Map(batch.map((_, i) => [i, new InsertOutcomeUnknown(error)])));
  }
}

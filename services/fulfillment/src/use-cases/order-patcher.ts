import { OrderStatus } from '@smm/contracts';
import { type Forward, forwards } from '../store/forward.model.ts';
import type { FulfillmentDeps } from './context.ts';
import { Periodic } from './periodic.ts';

/**
 * Carries status changes to the order service. The change is stored on the forward record first
 * (in the transaction that decided it), so an order service that is down delays it but never
 * loses it; it is cleared only once order answered with a decision.
 */
export class OrderPatcher {
  private readonly loop: Periodic;
  private stopped = true;
  private markedOlder = false;

  constructor(
    private readonly deps: FulfillmentDeps,
    pollMs: number,
  ) {
    this.loop = new Periodic('order status push', pollMs, () => this.runPass(), deps.logger);
  }

  start(): void {
    this.stopped = false;
    this.loop.start(0);
  }

  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.loop.stop();
  }

  /** Pushes pending changes in order-id order; stops at the first failure to try again later. */
  async runPass(): Promise<number> {
    const model = forwards(this.deps.connection);
    if (!this.markedOlder) {
      // Changes stored before the patchPending marker existed: marked once per start (one scan).
      await model.updateMany({ orderPatch: { $ne: null }, patchPending: { $exists: false } }, { $set: { patchPending: true } });
      this.markedOlder = true;
    }
    let pushed = 0;
    for (;;) {
      const batch = await model.find({ patchPending: true }).sort({ _id: 1 }).limit(50).lean<Forward[]>();
      if (batch.length === 0 || this.stopped) return pushed;
      for (const record of batch) {
        const patch = record.orderPatch!;
        // A subscription is no order to patch: canceled (its add refused, or an operator's cancel in review) ends it with the refund of every post not done.
        const result =
          record.source === 'subscription'
            ? patch.status === OrderStatus.values.CANCELED
              ? (await this.deps.order.endSubscription(record._id, 'canceled', record.correlationId)).result
              : 'refused'
            : await this.deps.order.patchStatus(record._id, patch, record.correlationId);
        if (result !== 'applied') this.deps.logger.warn({ orderId: record._id, result, patch }, 'order service did not apply the status change');
        await model.updateOne({ _id: record._id, 'orderPatch.id': patch.id }, { $set: { orderPatch: null }, $unset: { patchPending: 1 } });
        pushed++;
      }
    }
  }
}

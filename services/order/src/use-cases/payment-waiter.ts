import type { Logger } from 'pino';
import type { PaymentOutcome, PaymentState } from '../domain/payment.ts';
import type { Store } from '../store/store.ts';

type Waiting = { kind: 'order' | 'auto'; resolve: (outcome: PaymentOutcome | 'timeout') => void; timer: NodeJS.Timeout };

/**
 * Lets a request wait a bounded time for the saga's answer to its order. The payment handler of
 * this process notifies at once; one shared poll (one `$in` query per collection per tick, however
 * many requests wait) covers answers another replica's consumer applied.
 */
export class PaymentWaiter {
  private readonly waiting = new Map<number, Waiting[]>();
  private poller: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly pollMs = 250,
  ) {}

  /** Registers before the order's event can go out, so no answer is missed. */
  wait(orderId: number, kind: 'order' | 'auto', timeoutMs: number): Promise<PaymentOutcome | 'timeout'> {
    return new Promise((resolve) => {
      const entry: Waiting = {
        kind,
        resolve,
        timer: setTimeout(() => this.settle(orderId, 'timeout', entry), timeoutMs),
      };
      const list = this.waiting.get(orderId) ?? [];
      list.push(entry);
      this.waiting.set(orderId, list);
      this.poller ??= setInterval(() => void this.poll(), this.pollMs);
    });
  }

  /** Called by the payment handlers after their transaction committed. */
  notify(orderId: number, outcome: PaymentOutcome): void {
    this.settle(orderId, outcome);
  }

  get size(): number {
    return this.waiting.size;
  }

  stop(): void {
    for (const [id] of this.waiting) this.settle(id, 'timeout');
    clearInterval(this.poller);
    this.poller = undefined;
  }

  private settle(orderId: number, outcome: PaymentOutcome | 'timeout', only?: Waiting): void {
    const list = this.waiting.get(orderId);
    if (!list) return;
    const done = only ? list.filter((w) => w === only) : list;
    const rest = only ? list.filter((w) => w !== only) : [];
    for (const w of done) {
      clearTimeout(w.timer);
      w.resolve(outcome);
    }
    if (rest.length > 0) this.waiting.set(orderId, rest);
    else this.waiting.delete(orderId);
    if (this.waiting.size === 0) {
      clearInterval(this.poller);
      this.poller = undefined;
    }
  }

  private async poll(): Promise<void> {
    if (this.polling || this.waiting.size === 0) return;
    this.polling = true;
    try {
      const orderIds: number[] = [];
      const autoIds: number[] = [];
      for (const [id, list] of this.waiting) (list[0]!.kind === 'auto' ? autoIds : orderIds).push(id);
      const settled = { payment: { $in: ['paid', 'rejected'] as PaymentState[] } };
      const [orders, autos] = await Promise.all([
        orderIds.length > 0 ? this.store.orders.find({ _id: { $in: orderIds }, ...settled }, { payment: 1 }).lean<Array<{ _id: number; payment: PaymentState }>>() : [],
        autoIds.length > 0 ? this.store.autoOrders.find({ _id: { $in: autoIds }, ...settled }, { payment: 1 }).lean<Array<{ _id: number; payment: PaymentState }>>() : [],
      ]);
      for (const doc of [...orders, ...autos]) if (doc.payment !== 'awaiting') this.settle(doc._id, doc.payment);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'payment poll failed');
    } finally {
      this.polling = false;
    }
  }
}

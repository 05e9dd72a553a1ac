import type { PaymentChange, PaymentOutcome } from '../domain/payment.ts';

/** The wallet's answer as the payment handler applied it. */
export type Settlement = { outcome: PaymentOutcome; change: PaymentChange };

/**
 * Lets a request wait a bounded time for the saga's answer to its order: the payment handler of
 * this process calls `notify` right after committing, carrying what it wrote, so the request needs
 * no read. (An answer that another replica applied is not heard here; the request then learns it
 * when it gives the order up at the end of its wait — see placeOrder.)
 */
export class PaymentWaiter {
  /** Each order's waiting requests: usually one, two when a retry under the same Idempotency-Key waits too. */
  private readonly waiting = new Map<number, Set<(settlement: Settlement | 'timeout') => void>>();

  /** Registers before the order's event can go out, so no answer is missed. */
  wait(orderId: number, timeoutMs: number): Promise<Settlement | 'timeout'> {
    return new Promise((resolve) => {
      let waiters = this.waiting.get(orderId);
      if (!waiters) this.waiting.set(orderId, (waiters = new Set()));
      const mine = waiters;
      const done = (settlement: Settlement | 'timeout') => {
        clearTimeout(timer);
        mine.delete(done);
        if (mine.size === 0 && this.waiting.get(orderId) === mine) this.waiting.delete(orderId);
        resolve(settlement);
      };
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      mine.add(done);
    });
  }

  notify(orderId: number, settlement: Settlement): void {
    this.settle(orderId, settlement);
  }

  /** Releases the registrations of an order that was never stored. */
  forget(orderId: number): void {
    this.settle(orderId, 'timeout');
  }

  /** How many orders are waited on. */
  get size(): number {
    return this.waiting.size;
  }

  stop(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, 'timeout');
  }

  private settle(orderId: number, settlement: Settlement | 'timeout'): void {
    for (const done of [...(this.waiting.get(orderId) ?? [])]) done(settlement);
  }
}

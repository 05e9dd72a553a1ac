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
  private readonly waiting = new Map<number, (settlement: Settlement | 'timeout') => void>();

  /** Registers before the order's event can go out, so no answer is missed. */
  wait(orderId: number, timeoutMs: number): Promise<Settlement | 'timeout'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(orderId, 'timeout'), timeoutMs);
      this.waiting.set(orderId, (settlement) => {
        clearTimeout(timer);
        resolve(settlement);
      });
    });
  }

  notify(orderId: number, settlement: Settlement): void {
    this.settle(orderId, settlement);
  }

  /** Releases a registration whose order was never stored. */
  forget(orderId: number): void {
    this.settle(orderId, 'timeout');
  }

  get size(): number {
    return this.waiting.size;
  }

  stop(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, 'timeout');
  }

  private settle(orderId: number, settlement: Settlement | 'timeout'): void {
    const resolve = this.waiting.get(orderId);
    if (!resolve) return;
    this.waiting.delete(orderId);
    resolve(settlement);
  }
}

import type { PaymentChange, PaymentOutcome } from '../domain/payment.ts';

/** The wallet's answer as the payment handler decided (and, but for an early answer, applied) it. */
export type Settlement = { outcome: PaymentOutcome; change: PaymentChange };

type Waiter = { done: (settlement: Settlement | 'timeout') => void; early: boolean };

/**
 * Lets a request wait a bounded time for the saga's answer to its order: the payment handler of
 * this process calls `notify` right after committing, carrying what it wrote, so the request needs
 * no read. (An answer that another replica applied is not heard here; the request then learns it
 * when it gives the order up at the end of its wait — see placeOrder.)
 *
 * A wait registered `early` hears the answer sooner, from `notifyEarly`: as soon as the handler has
 * decided it, before the order's write (saga decision 2 — the wallet's decision is already durable,
 * and a crash before the write replays it from Kafka). Only a placement that no one else can ask
 * about may wait so: one under the placement id the BFF chose for that one call (the client gave no
 * Idempotency-Key). Its order can then be given up only by this wait's own timeout, or by the BFF's
 * lookup when the call's answer never reached it; so an order answered paid early always ends paid.
 */
export class PaymentWaiter {
  /** Each order's waiting requests: usually one, two when a retry under the same Idempotency-Key waits too. */
  private readonly waiting = new Map<number, Set<Waiter>>();
  /** Payment writes in flight whose outcome some request was already told (see `written`). */
  private readonly unwritten = new Set<Promise<unknown>>();

  /** Registers before the order's event can go out, so no answer is missed. */
  wait(orderId: number, timeoutMs: number, options: { early?: boolean } = {}): Promise<Settlement | 'timeout'> {
    return new Promise((resolve) => {
      let waiters = this.waiting.get(orderId);
      if (!waiters) this.waiting.set(orderId, (waiters = new Set()));
      const mine = waiters;
      const waiter: Waiter = {
        early: options.early === true,
        done: (settlement) => {
          clearTimeout(timer);
          mine.delete(waiter);
          if (mine.size === 0 && this.waiting.get(orderId) === mine) this.waiting.delete(orderId);
          resolve(settlement);
        },
      };
      const timer = setTimeout(() => waiter.done('timeout'), timeoutMs);
      mine.add(waiter);
    });
  }

  /** The answer is applied: every wait on the order hears it. */
  notify(orderId: number, settlement: Settlement): void {
    this.settle(orderId, settlement, () => true);
  }

  /** The answer is decided, not yet applied: only the waits registered `early` hear it. Whether one did. */
  notifyEarly(orderId: number, settlement: Settlement): boolean {
    return this.settle(orderId, settlement, (w) => w.early) > 0;
  }

  /** A payment write in flight whose outcome was told early: this process's reads wait for it. */
  track(write: Promise<unknown>): void {
    const settled = write.then(
      () => undefined,
      () => undefined,
    );
    this.unwritten.add(settled);
    void settled.then(() => this.unwritten.delete(settled));
  }

  /**
   * Resolves once every payment write told early so far is done (or failed), so that a client who
   * reads its order right after the answer reads what it was told (read-your-writes within this
   * process). Nothing to wait for almost always; otherwise a write of a millisecond or so.
   */
  async written(): Promise<void> {
    if (this.unwritten.size > 0) await Promise.all([...this.unwritten]);
  }

  /** Releases the registrations of an order that was never stored. */
  forget(orderId: number): void {
    this.settle(orderId, 'timeout', () => true);
  }

  /** How many orders are waited on. */
  get size(): number {
    return this.waiting.size;
  }

  stop(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, 'timeout', () => true);
  }

  /** Resolves the order's waits that `which` picks; how many. */
  private settle(orderId: number, settlement: Settlement | 'timeout', which: (waiter: Waiter) => boolean): number {
    const picked = [...(this.waiting.get(orderId) ?? [])].filter(which);
    for (const waiter of picked) waiter.done(settlement);
    return picked.length;
  }
}

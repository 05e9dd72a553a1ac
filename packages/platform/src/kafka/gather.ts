import type { Consumer, EachBatchPayload } from 'kafkajs';

/**
 * Gathered fetching for consumers off the answer path (live screens, referrals, schedules,
 * forwarding), done on the client side. A fetch returns as soon as anything arrives (kafkajs's
 * long poll, up to 5 s, when nothing does); once a fetch's batches are handled, the next fetch is
 * held back until `ms` after the first of them began. kafkajs fetches again only when a fetch's
 * batches are handled, so under load each fetch brings what arrived during the window — one fetch
 * (and one run) per window, as a broker-side wait would — while a quiet consumer costs one fetch per
 * long poll instead of one per window, and the first event after a quiet spell is handled at once.
 *
 * (A broker-side wait — minBytes of a megabyte, maxWait of `ms` — answered an idle consumer's fetch
 * empty every `ms`: four to ten fetches a second per consumer, doing nothing.)
 */
export class GatherWindow {
  private closesAt = 0;
  private freshFetch = true;

  constructor(
    consumer: Consumer,
    private readonly ms: number,
  ) {
    // A fetch's batches share one window: the first handled after a fetch starts it.
    consumer.on(consumer.events.FETCH_START, () => {
      this.freshFetch = true;
    });
  }

  /** Wraps a batch handler: the window opens as a fetch's first batch begins and is waited out after each. */
  wrap(handle: (payload: EachBatchPayload) => Promise<void>): (payload: EachBatchPayload) => Promise<void> {
    return async (payload) => {
      if (this.freshFetch) {
        this.freshFetch = false;
        this.closesAt = Date.now() + this.ms;
      }
      await handle(payload);
      const left = this.closesAt - Date.now();
      if (left > 0 && payload.isRunning() && !payload.isStale()) await new Promise((resolve) => setTimeout(resolve, left));
    };
  }
}

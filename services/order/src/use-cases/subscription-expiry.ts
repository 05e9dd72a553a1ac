import { PassLoop } from '@smm/platform';
import type { OrderDeps } from './context.ts';
import { expireDueSubscriptions } from './subscriptions.ts';

/** Expired per pass at most; a full batch means more may be due, so the next pass follows at once. */
const batch = 100;
/** First pause after a pass that found the soonest expiry past but expired nothing (awaiting its payment, or changed meanwhile); doubles while that lasts. */
const pastDueRetryMs = 1000;
/** Pause after a pass that failed (the database unreachable). */
const failedRetryMs = 5000;

/**
 * Subscriptions past their expiry expire with the refund of their unused posts (issue 40), on a
 * timer set for the soonest expiry (idle means asleep, issue 42: with no live subscription that has
 * an expiry, no timer at all). A pass expires what is due and reads the next expiry from the
 * database; the sleep is capped by `maxSleepMs`, so a clock that jumps, or a subscription placed on
 * another replica, is caught within that. Placing a subscription or ending one asks for a pass
 * (`rearm`), which sets the timer for the new soonest expiry.
 */
export class SubscriptionExpiry {
  private readonly loop = new PassLoop(() => this.pass());
  private deps: OrderDeps | undefined;
  private pastDuePasses = 0;

  constructor(private readonly maxSleepMs: number) {}

  start(deps: OrderDeps): void {
    this.deps = deps;
    this.loop.start(0);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A subscription was placed or ended: look again for the soonest expiry. */
  rearm(): void {
    this.loop.kick();
  }

  /** When the next pass is set for; null while none is (no live subscription expires). */
  armedFor(): Date | null {
    const at = this.loop.plannedAt;
    return at === undefined ? null : new Date(at);
  }

  private async pass(): Promise<number> {
    const deps = this.deps!;
    try {
      const expired = await expireDueSubscriptions(deps, new Date(), batch);
      if (expired === batch) return 0;
      const next = await deps.store.repository.nextSubscriptionExpiry();
      if (next === null) {
        this.pastDuePasses = 0;
        return Number.POSITIVE_INFINITY;
      }
      const wait = next.getTime() - Date.now();
      if (wait > 0) {
        this.pastDuePasses = 0;
        return Math.min(wait, this.maxSleepMs);
      }
      this.pastDuePasses = expired > 0 ? 0 : this.pastDuePasses + 1;
      return Math.min(pastDueRetryMs * 2 ** Math.min(this.pastDuePasses, 12), this.maxSleepMs);
    } catch (error) {
      deps.logger.error({ err: error }, 'subscription expiry pass failed');
      return failedRetryMs;
    }
  }
}

import type { AutoOrderRunPlaced, EventOf, OrderStatusChanged } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import { deliveryOf } from '../domain/referral.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { creditDelivery } from '../use-cases/referral-earnings.ts';

/**
 * A referred member's order was completed (or partial with nothing left undelivered): their referrer
 * earns a share of what it delivered (once per order). A partial order with remains pays when its
 * refund is credited (on-referral-refund.ts). `referred`: the run's members someone referred, read
 * once for the run (most members were referred by no one).
 */
export async function onReferralDelivery(deps: WalletDeps, event: EventOf<typeof OrderStatusChanged>, referred: ReadonlySet<string>, log: Logger): Promise<void> {
  const { orderId, userId } = event.data;
  if (deliveryOf(event.data) !== 'now' || !referred.has(userId)) return;
  const outcome = await creditDelivery(deps, { orderId, userId }, event);
  if (outcome === 'unproven') log.warn({ userId, orderId, eventId: event.eventId }, 'referral: delivered order has no debit of that member; nothing credited');
  else if (outcome !== 'not-referred') log.info({ userId, orderId, outcome }, 'referral delivery handled');
}

/** A run of an auto order became a child order: remembered, so the child's delivery pays its run's share. */
export async function onAutoOrderRun(deps: WalletDeps, event: EventOf<typeof AutoOrderRunPlaced>): Promise<void> {
  const { childOrderId, autoOrderId, userId, run, runs } = event.data;
  await deps.store.autoRuns.recordMany([{ childOrderId, autoOrderId, userId, run, runs }], new Date());
}

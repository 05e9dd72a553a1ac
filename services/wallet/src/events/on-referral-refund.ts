import type { EventOf, PointCredited } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import { orderOfPartialRefund, referralReferences } from '../domain/referral.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { creditDelivery, reverseReferral } from '../use-cases/referral-earnings.ts';

/**
 * A member got a refund. A partial order's refund (`order-12-partial`) completes its delivery: the
 * referrer earns the share of what was charged minus refunded. Any other refund of an order that
 * already paid a referrer takes that share back (once per refund).
 */
export async function onReferralRefund(deps: WalletDeps, event: EventOf<typeof PointCredited>, log: Logger): Promise<void> {
  if (event.data.source !== 'refund') return; // top-ups and referral credits are no refunds
  const { userId, referenceId: refundId } = event.data;
  const partialOf = orderOfPartialRefund(refundId);
  if (partialOf !== null && !(await deps.store.referrals.earnings.exists({ _id: referralReferences.credit(`order-${partialOf}`) }))) {
    const outcome = await creditDelivery(deps, { orderId: partialOf, userId }, event);
    if (outcome !== 'not-referred') log.info({ userId, orderId: partialOf, outcome }, 'referral delivery (partial) handled');
    return;
  }
  const outcome = await reverseReferral(deps, event);
  if (outcome !== 'not-referred') log.info({ userId, refundId, outcome }, 'referral refund handled');
}

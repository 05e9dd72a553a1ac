import type { EventOf, PointCredited } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { reverseReferral } from '../use-cases/referral-earnings.ts';

/** A member got a refund: the share their referrer earned from that payment goes back (once per refund). */
export async function onReferralRefund(deps: WalletDeps, event: EventOf<typeof PointCredited>, log: Logger): Promise<void> {
  if (event.data.source !== 'refund') return; // top-ups and referral credits are no refunds
  const outcome = await reverseReferral(deps, event);
  if (outcome !== 'not-referred') log.info({ userId: event.data.userId, refundId: event.data.referenceId, outcome }, 'referral refund handled');
}

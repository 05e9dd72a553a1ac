import type { EventOf, PointDebited } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { creditReferral } from '../use-cases/referral-earnings.ts';

/** A member paid for an order: their referrer, if any, earns a share (once per payment). */
export async function onReferralPayment(deps: WalletDeps, event: EventOf<typeof PointDebited>, log: Logger): Promise<void> {
  const outcome = await creditReferral(deps, event);
  if (outcome !== 'not-referred') log.info({ userId: event.data.userId, orderId: event.data.orderId, outcome }, 'referral payment handled');
}

import type { EventOf, PointDebited } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { creditReferral } from '../use-cases/referral-earnings.ts';

/**
 * A member paid for an order: their referrer earns a share (once per payment). `referred`: the
 * run's payers someone referred, read once for the run (most members were referred by no one).
 */
export async function onReferralPayment(deps: WalletDeps, event: EventOf<typeof PointDebited>, referred: ReadonlySet<string>, log: Logger): Promise<void> {
  if (!referred.has(event.data.userId)) return;
  const outcome = await creditReferral(deps, event);
  if (outcome !== 'not-referred') log.info({ userId: event.data.userId, orderId: event.data.orderId, outcome }, 'referral payment handled');
}

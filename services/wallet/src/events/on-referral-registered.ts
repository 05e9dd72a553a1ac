import type { EventOf, UserRegistered } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { recordReferral } from '../use-cases/referral-earnings.ts';

/** A member who signed up with a referral code: remember the referrer (idempotent upsert). */
export async function onReferralRegistered(deps: WalletDeps, event: EventOf<typeof UserRegistered>, log: Logger): Promise<void> {
  const outcome = await recordReferral(deps, event);
  if (outcome === 'recorded') log.info({ userId: event.data.userId, referrerId: event.data.referrerId }, 'referral recorded');
}

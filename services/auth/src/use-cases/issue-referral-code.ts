import { ReferralCodeIssued, Topics } from '@smm/contracts';
import { HttpError, appendToOutbox, conflict, inTransaction } from '@smm/platform';
import { newReferralCode, referralIssueRefusal } from '../domain/referral-code.ts';
import { messages } from '../messages.ts';
import { duplicateMemberField } from '../store/member.model.ts';
import type { AuthServices, RequestOrigin } from './context.ts';
import { callingMember } from './account.ts';
import { loadSettings } from './load-settings.ts';

const MAX_TRIES = 5;

/** Spec §6: a referral code only while the setting is on and only once per member. */
export async function issueReferralCode(services: AuthServices, userId: string | null, origin: RequestOrigin) {
  const member = await callingMember(services, userId);
  const settings = await loadSettings(services);
  const refusal = referralIssueRefusal(settings.referral, member.referralCode);
  if (refusal === 'disabled') throw conflict(messages.referralFeatureOff, 'REFERRAL_DISABLED');
  if (refusal === 'exists') throw conflict(messages.referralAlreadyIssued, 'REFERRAL_CODE_EXISTS');

  // 31^8 codes: a collision is rare, and each one only costs another try.
  for (let attempt = 1; ; attempt++) {
    const referralCode = newReferralCode();
    try {
      await inTransaction(services.connection, async (session) => {
        if (!(await services.members.setReferralCodeIfNone(member._id, referralCode, session))) {
          throw conflict(messages.referralAlreadyIssued, 'REFERRAL_CODE_EXISTS');
        }
        await appendToOutbox(services.connection, session, Topics.auth, [
          ReferralCodeIssued.create(member._id, { userId: member._id, referralCode }, origin),
        ]);
      });
    } catch (error) {
      if (!(error instanceof HttpError) && duplicateMemberField(error) === 'referralCode' && attempt < MAX_TRIES) continue;
      throw error;
    }
    services.kickOutbox();
    services.logger.info({ userId: member._id, correlationId: origin.correlationId }, 'referral code issued');
    return { referralCode };
  }
}

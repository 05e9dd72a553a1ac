import { randomUUID } from 'node:crypto';
import { Topics, UserRegistered } from '@smm/contracts';
import { HttpError, appendToOutbox, badRequest, conflict, inTransaction } from '@smm/platform';
import type { CommonRegistration } from '../domain/registration-rules.ts';
import { messages } from '../messages.ts';
import type { MemberDoc, SignUpProvider } from '../store/member.model.ts';
import { duplicateMemberField } from '../store/member.model.ts';
import { type AuthServices, type RequestOrigin, RetryLater } from './context.ts';

export type NewMember = {
  loginId: string;
  loginKey: string;
  password: string | null;
  email: string | null;
  /** Set for local sign-up: e-mail addresses are unique among members who registered with one. */
  emailUnique: boolean;
  provider: SignUpProvider;
  socialId: string | null;
  common: CommonRegistration;
};

const duplicateAnswers = {
  loginKey: (provider: SignUpProvider) =>
    provider === 'local' ? conflict(messages.duplicateId, 'DUPLICATE_ID') : conflict(messages.duplicateSocial, 'SOCIAL_ALREADY_REGISTERED'),
  emailKey: () => conflict(messages.duplicateEmail, 'DUPLICATE_EMAIL'),
  phoneNumber: () => conflict(messages.duplicatePhone, 'DUPLICATE_PHONE_NUMBER'),
  naverId: () => conflict(messages.duplicateSocial, 'SOCIAL_ALREADY_REGISTERED'),
  kakaoId: () => conflict(messages.duplicateSocial, 'SOCIAL_ALREADY_REGISTERED'),
} as const;

/**
 * The part of registration that needs storage, shared by local and social sign-up: the code sent
 * to the phone, the referral code's owner, then the member and its UserRegistered event in one
 * transaction. Unique indexes catch a concurrent duplicate the pre-check could not see.
 */
export async function createMember(services: AuthServices, input: NewMember, origin: RequestOrigin): Promise<{ userId: string; loginId: string }> {
  const { common } = input;
  if (common.sendCode !== null && common.phoneNumber !== null) {
    const check = await services.phoneCodes.check(common.phoneNumber, common.sendCode);
    if (check === 'not-sent') throw badRequest(messages.codeNotSent, [{ field: 'sendCode', message: messages.codeNotSent }], 'CODE_NOT_SENT');
    if (check === 'mismatch') throw badRequest(messages.codeMismatch, [{ field: 'sendCode', message: messages.codeMismatch }], 'CODE_MISMATCH');
    if (check === 'attempts-exceeded') throw new RetryLater(messages.codeAttemptsExceeded, 'CODE_ATTEMPTS_EXCEEDED', 0);
  }

  const passwordHash = input.password === null ? undefined : await services.passwords.hash(input.password);
  const userId = randomUUID();
  const member: MemberDoc = {
    _id: userId,
    loginId: input.loginId,
    loginKey: input.loginKey,
    role: 'member',
    provider: input.provider,
    registerWhere: common.registerWhere,
    createdAt: new Date(),
    ...(passwordHash !== undefined && { passwordHash }),
    ...(input.email !== null && { email: input.email }),
    ...(input.email !== null && input.emailUnique && { emailKey: input.email.toLowerCase() }),
    ...(common.phoneNumber !== null && { phoneNumber: common.phoneNumber }),
    ...(input.provider === 'naver' && input.socialId !== null && { naverId: input.socialId }),
    ...(input.provider === 'kakao' && input.socialId !== null && { kakaoId: input.socialId }),
    ...(common.referral !== null && { referredBy: common.referral }),
  };

  try {
    await inTransaction(services.connection, async (session) => {
      // The code's owner goes into the event, so wallet can pay the referrer without asking auth.
      const referrerId = common.referral === null ? null : await services.members.referralCodeOwner(common.referral, session);
      if (common.referral !== null && referrerId === null) {
        throw badRequest(messages.referralNotFound, [{ field: 'referral', message: messages.referralNotFound }], 'REFERRAL_NOT_FOUND');
      }
      const taken = await services.members.taken(member, session);
      if (taken) throw duplicateAnswers[taken](input.provider);
      await services.members.insert(member, session);
      const event = UserRegistered.create(
        userId,
        {
          userId,
          loginId: member.loginId,
          email: member.email ?? null,
          role: member.role,
          provider: member.provider,
          registerWhere: member.registerWhere ?? null,
          referredBy: member.referredBy ?? null,
          referrerId,
        },
        origin,
      );
      await appendToOutbox(services.connection, session, Topics.auth, [event]);
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const field = duplicateMemberField(error);
    if (field && field in duplicateAnswers) throw duplicateAnswers[field as keyof typeof duplicateAnswers](input.provider);
    throw error;
  }
  services.kickOutbox();
  if (common.phoneNumber !== null && common.sendCode !== null) await services.phoneCodes.consume(common.phoneNumber);
  services.logger.info({ userId, provider: input.provider, correlationId: origin.correlationId }, 'member registered');
  return { userId, loginId: member.loginId };
}

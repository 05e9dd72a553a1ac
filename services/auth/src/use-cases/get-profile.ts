import { maskApiKey } from '../domain/api-key.ts';
import { restrictionInForce } from '../domain/restriction-rules.ts';
import type { AuthServices } from './context.ts';
import { callingMember } from './account.ts';

/** The member's profile as auth knows it (the BFF adds the point balance from wallet). */
export async function getProfile(services: AuthServices, userId: string | null) {
  const member = await callingMember(services, userId);
  return {
    userId: member._id,
    id: member.loginId,
    email: member.email ?? null,
    phoneNumber: member.phoneNumber ?? null,
    role: member.role,
    provider: member.provider,
    registerWhere: member.registerWhere ?? null,
    apiKey: member.apiKeyPrefix ? maskApiKey(member.apiKeyPrefix) : null,
    apiKeyPrefix: member.apiKeyPrefix ?? null,
    apiKeyIssuedAt: member.apiKeyIssuedAt?.toISOString() ?? null,
    referralCode: member.referralCode ?? null,
    createdAt: member.createdAt.toISOString(),
    /** A warning the member should see (issue 12); a blocking restriction never reaches here. */
    restriction: restrictionInForce(member, new Date()),
  };
}

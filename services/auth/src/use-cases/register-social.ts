import { createHash } from 'node:crypto';
import { HttpError, badRequest } from '@smm/platform';
import { loginKey } from '../domain/login-rules.ts';
import { type SocialRegistrationInput, checkCommonRegistration } from '../domain/registration-rules.ts';
import { messages } from '../messages.ts';
import type { SocialProfile } from '../security/tokens.ts';
import { ProviderRejected, ProviderUnavailable } from '../social/provider-errors.ts';
import type { AuthServices, RequestOrigin } from './context.ts';
import { ruleError } from './context.ts';
import { createMember } from './create-member.ts';
import { loadSettings } from './load-settings.ts';
import { type SocialProvider, requireProviderEnabled } from './social-login.ts';

/** Social members get a login id of their own, `naver_<id>`; long provider ids are shortened by hash. */
function socialLoginId(provider: SocialProvider, providerUserId: string): string {
  const id = `${provider}_${providerUserId}`;
  return id.length <= 50 ? id : `${provider}_${createHash('sha256').update(providerUserId).digest('hex').slice(0, 32)}`;
}

/**
 * Spec §8 sends the Kakao 404 to /register/kakao "with the access token"; a client that passes
 * Kakao's own token instead of the continuation token is served by asking Kakao again.
 */
async function kakaoProfile(services: AuthServices, token: string): Promise<SocialProfile | null> {
  try {
    return await services.kakao.profileForToken(token);
  } catch (error) {
    if (error instanceof ProviderRejected) return null;
    if (error instanceof ProviderUnavailable) throw new HttpError(502, 'SOCIAL_PROVIDER_UNAVAILABLE', messages.socialUnavailable('카카오'));
    throw error;
  }
}

/**
 * Finishes a Naver or Kakao sign-up with the continuation token the login's 404 carried, under
 * the same path, phone and referral rules as the plain form (spec §5).
 */
export async function registerSocial(
  services: AuthServices,
  provider: SocialProvider,
  input: SocialRegistrationInput & { accessToken?: unknown },
  origin: RequestOrigin,
) {
  const settings = await loadSettings(services);
  requireProviderEnabled(settings, provider);
  const token = typeof input.accessToken === 'string' ? input.accessToken.trim() : '';
  if (token === '') throw badRequest(messages.socialTokenRequired, [{ field: 'accessToken', message: messages.socialTokenRequired }], 'SOCIAL_TOKEN_REQUIRED');
  const profile = services.tokens.readSignupToken(token, provider) ?? (provider === 'kakao' ? await kakaoProfile(services, token) : null);
  if (!profile) throw badRequest(messages.socialTokenInvalid, [{ field: 'accessToken', message: messages.socialTokenInvalid }], 'SOCIAL_TOKEN_INVALID');

  const checked = checkCommonRegistration(input, settings);
  if (!checked.ok) throw ruleError(checked.violation);
  const loginId = socialLoginId(provider, profile.providerUserId);
  return createMember(
    services,
    {
      loginId,
      loginKey: loginKey(loginId),
      password: null,
      email: profile.email,
      emailUnique: false,
      provider,
      socialId: profile.providerUserId,
      common: checked.value,
    },
    origin,
  );
}

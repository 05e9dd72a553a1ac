import { HttpError, badRequest, forbidden } from '@smm/platform';
import type { AuthSettings } from '../domain/settings.ts';
import { messages } from '../messages.ts';
import type { SocialProfile } from '../security/tokens.ts';
import { ProviderRejected, ProviderUnavailable } from '../social/provider-errors.ts';
import type { AuthServices, RequestOrigin } from './context.ts';
import { sessionOrSecondFactor } from './two-factor.ts';
import { loadSettings } from './load-settings.ts';

export type SocialProvider = 'naver' | 'kakao';
export const providerNames: Record<SocialProvider, string> = { naver: '네이버', kakao: '카카오' };

/** A 404 that carries the continuation token for `POST /members/<provider>` (spec §7, §8). */
export class SocialAccountNotRegistered extends HttpError {
  constructor(readonly signupToken: string) {
    super(404, 'SOCIAL_ACCOUNT_NOT_REGISTERED', messages.socialNotRegistered);
  }
}

export function requireProviderEnabled(settings: AuthSettings, provider: SocialProvider): void {
  const on = provider === 'naver' ? settings.naverLogin : settings.kakaoLogin;
  if (!on) throw forbidden(messages.socialLoginDisabled(providerNames[provider]), 'SOCIAL_LOGIN_DISABLED');
}

/** Maps what the provider did to an answer: a refusal is the member's, an outage is ours. */
async function askProvider(provider: SocialProvider, call: () => Promise<SocialProfile>): Promise<SocialProfile> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderRejected) throw badRequest(messages.socialAuthFailed(providerNames[provider]), undefined, 'SOCIAL_AUTH_FAILED');
    if (error instanceof ProviderUnavailable) throw new HttpError(502, 'SOCIAL_PROVIDER_UNAVAILABLE', messages.socialUnavailable(providerNames[provider]));
    throw error;
  }
}

async function tokenFor(services: AuthServices, profile: SocialProfile, origin: RequestOrigin) {
  const member = await services.members.findBySocial(profile.provider, profile.providerUserId);
  if (!member) throw new SocialAccountNotRegistered(services.tokens.issueSignupToken(profile));
  services.logger.info({ userId: member._id, provider: profile.provider, correlationId: origin.correlationId }, 'login succeeded');
  return sessionOrSecondFactor(services, member);
}

/** Naver: the popup's authorization code is exchanged with the client id/state of the settings. */
export async function logInWithNaver(services: AuthServices, input: { code?: unknown }, origin: RequestOrigin) {
  const settings = await loadSettings(services);
  requireProviderEnabled(settings, 'naver');
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (code === '' || code.length > 512) throw badRequest(messages.socialCodeRequired, [{ field: 'code', message: messages.socialCodeRequired }], 'SOCIAL_CODE_REQUIRED');
  const clientSecret = services.naverClientSecret;
  if (settings.naverClientId === null || settings.naverState === null || clientSecret === undefined) {
    services.logger.error({ hasClientId: settings.naverClientId !== null, hasState: settings.naverState !== null, hasSecret: clientSecret !== undefined }, 'naver login not configured');
    throw new HttpError(503, 'SOCIAL_NOT_CONFIGURED', messages.socialNotConfigured(providerNames.naver));
  }
  const credentials = { clientId: settings.naverClientId, clientSecret, state: settings.naverState };
  const profile = await askProvider('naver', () => services.naver.profileForCode(code, credentials));
  return tokenFor(services, profile, origin);
}

/** Kakao: the browser already holds a Kakao access token; its profile names the member. */
export async function logInWithKakao(services: AuthServices, input: { accessToken?: unknown }, origin: RequestOrigin) {
  const settings = await loadSettings(services);
  requireProviderEnabled(settings, 'kakao');
  const accessToken = typeof input.accessToken === 'string' ? input.accessToken.trim() : '';
  if (accessToken === '' || accessToken.length > 4096) {
    throw badRequest(messages.socialTokenRequired, [{ field: 'accessToken', message: messages.socialTokenRequired }], 'SOCIAL_TOKEN_REQUIRED');
  }
  const profile = await askProvider('kakao', () => services.kakao.profileForToken(accessToken));
  return tokenFor(services, profile, origin);
}

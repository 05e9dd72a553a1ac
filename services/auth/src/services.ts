import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { AuthConfig } from './config.ts';
import { PhoneCodes } from './limits/phone-codes.ts';
import { LoginGuard } from './limits/login-guard.ts';
import { RateLimiter } from './limits/rate-limiter.ts';
import { PasswordHasher } from './security/passwords.ts';
import { createHmac } from 'node:crypto';
import { RefreshTokens } from './security/refresh-tokens.ts';
import { SecretBox } from './security/secret-box.ts';
import { TwoFactorChallenges } from './security/two-factor-challenges.ts';
import { TokenIssuer } from './security/tokens.ts';
import { smsSenderFrom } from './sms/sms-from-config.ts';
import type { SmsSender } from './sms/sms-sender.ts';
import { KakaoClient } from './social/kakao-client.ts';
import { NaverClient } from './social/naver-client.ts';
import { MemberRepository } from './store/member-repository.ts';
import { SettingsRepository } from './store/setting.model.ts';
import type { AuthServices } from './use-cases/context.ts';

const HOUR = 3600;

/** Wires the use cases' collaborators from configuration. */
export function buildServices(deps: {
  config: AuthConfig;
  logger: Logger;
  connection: Connection;
  redis: Redis;
  kickOutbox: () => void;
  sms?: SmsSender;
  clock?: () => number;
}): AuthServices {
  const { config, logger, connection, redis } = deps;
  return {
    logger,
    connection,
    members: new MemberRepository(connection),
    settings: new SettingsRepository(connection),
    kickOutbox: deps.kickOutbox,
    passwords: new PasswordHasher(),
    tokens: new TokenIssuer(config.JWT_PRIVATE_KEY, config.ACCESS_TOKEN_TTL_SECONDS, config.SOCIAL_SIGNUP_TOKEN_TTL_SECONDS),
    refreshTokens: new RefreshTokens(redis, config.REFRESH_TOKEN_TTL_SECONDS, config.ACCESS_TOKEN_TTL_SECONDS),
    refreshReuseGraceSeconds: config.REFRESH_TOKEN_REUSE_GRACE_SECONDS,
    phoneCodes: new PhoneCodes(redis, {
      ttlSeconds: config.PHONE_CODE_TTL_SECONDS,
      resendSeconds: config.PHONE_CODE_RESEND_SECONDS,
      maxAttempts: config.PHONE_CODE_MAX_ATTEMPTS,
    }),
    phoneCodeTtlSeconds: config.PHONE_CODE_TTL_SECONDS,
    phoneCodeResendSeconds: config.PHONE_CODE_RESEND_SECONDS,
    sms: deps.sms ?? smsSenderFrom(config, logger, redis),
    siteName: config.SITE_NAME,
    limits: {
      login: new LoginGuard(redis, {
        byPair: new RateLimiter(redis, 'login-pair', config.LOGIN_MAX_ATTEMPTS_PER_ID, config.LOGIN_WINDOW_SECONDS),
        byId: new RateLimiter(redis, 'login-id', config.LOGIN_MAX_ATTEMPTS_PER_ID_ALL_ADDRESSES, config.LOGIN_WINDOW_SECONDS),
        byIp: new RateLimiter(redis, 'login-ip', config.LOGIN_MAX_ATTEMPTS_PER_IP, config.LOGIN_WINDOW_SECONDS),
        backoffBaseMs: config.LOGIN_BACKOFF_BASE_MS,
        backoffMaxMs: 60_000,
        knownAddressSeconds: 90 * 86_400,
      }),
      codeSendsByPhone: new RateLimiter(redis, 'code-phone', config.PHONE_CODE_MAX_SENDS_PER_HOUR, HOUR),
      codeSendsByIp: new RateLimiter(redis, 'code-ip', config.PHONE_CODE_MAX_SENDS_PER_IP_PER_HOUR, HOUR),
      passwordChecksByMember: new RateLimiter(redis, 'password-member', config.LOGIN_MAX_ATTEMPTS_PER_ID, config.LOGIN_WINDOW_SECONDS),
      twoFactorCodes: new RateLimiter(redis, 'two-factor', config.TWO_FACTOR_MAX_ATTEMPTS, config.TWO_FACTOR_WINDOW_SECONDS),
    },
    // Unset, a key derived from the JWT signing key (see config.ts): never the secret in the clear.
    secretBox: new SecretBox(config.TWO_FACTOR_KEY_SECRET ?? createHmac('sha256', config.JWT_PRIVATE_KEY).update('two-factor-key-v1').digest('base64url')),
    twoFactorChallenges: new TwoFactorChallenges(redis, config.TWO_FACTOR_CHALLENGE_SECONDS),
    operatorSessions: { accessTtlSeconds: config.OPERATOR_ACCESS_TOKEN_TTL_SECONDS ?? config.ACCESS_TOKEN_TTL_SECONDS, maxSeconds: config.OPERATOR_SESSION_MAX_SECONDS },
    clock: deps.clock ?? Date.now,
    naver: new NaverClient(config.NAVER_AUTH_URL, config.NAVER_API_URL),
    naverClientSecret: config.NAVER_CLIENT_SECRET,
    kakao: new KakaoClient(config.KAKAO_API_URL),
  };
}

import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { EventOrigin } from '@smm/contracts';
import { HttpError, badRequest } from '@smm/platform';
import type { RuleViolation } from '../domain/rule-error.ts';
import type { LoginGuard } from '../limits/login-guard.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { PhoneCodes } from '../limits/phone-codes.ts';
import type { PasswordHasher } from '../security/passwords.ts';
import type { RefreshTokens } from '../security/refresh-tokens.ts';
import type { SecretBox } from '../security/secret-box.ts';
import type { TwoFactorChallenges } from '../security/two-factor-challenges.ts';
import type { TokenIssuer } from '../security/tokens.ts';
import type { SmsSender } from '../sms/sms-sender.ts';
import type { KakaoClient } from '../social/kakao-client.ts';
import type { NaverClient } from '../social/naver-client.ts';
import type { MemberRepository } from '../store/member-repository.ts';
import type { SettingsRepository } from '../store/setting.model.ts';

/** Everything the use cases work with; built once by `createAuthServices`. */
export type AuthServices = {
  logger: Logger;
  connection: Connection;
  members: MemberRepository;
  settings: SettingsRepository;
  /** Publishes committed outbox records now rather than at the next poll. */
  kickOutbox: () => void;
  passwords: PasswordHasher;
  tokens: TokenIssuer;
  refreshTokens: RefreshTokens;
  /** A spent refresh token presented again within this is a race of the owner's tabs, not a copy. */
  refreshReuseGraceSeconds: number;
  phoneCodes: PhoneCodes;
  phoneCodeTtlSeconds: number;
  phoneCodeResendSeconds: number;
  sms: SmsSender;
  /** The site's display name, the prefix of text messages. */
  siteName: string;
  limits: {
    login: LoginGuard;
    codeSendsByPhone: RateLimiter;
    codeSendsByIp: RateLimiter;
    passwordChecksByMember: RateLimiter;
    /** Second-factor codes per operator (issue 41). */
    twoFactorCodes: RateLimiter;
  };
  /** Operators' TOTP secrets sealed, recovery codes' HMACs (issue 41). */
  secretBox: SecretBox;
  twoFactorChallenges: TwoFactorChallenges;
  /** Operators' shorter sessions: access-token lifetime and the session's fixed end after sign-in. */
  operatorSessions: { accessTtlSeconds: number; maxSeconds: number };
  /** Milliseconds now: TOTP steps are read from it (tests may move it). */
  clock: () => number;
  naver: NaverClient;
  naverClientSecret: string | undefined;
  kakao: KakaoClient;
};

/** Who asked, for the events a request causes. */
export type RequestOrigin = EventOrigin & { clientIp: string | null };

export const ruleError = (v: RuleViolation) => badRequest(v.message, [{ field: v.field, message: v.message }], v.code);

/** A 429 that says when to try again (the HTTP layer turns it into a Retry-After header). */
export class RetryLater extends HttpError {
  constructor(
    message: string,
    code: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, code, message);
  }
}

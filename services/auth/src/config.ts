import type { z } from 'zod';
import { env } from '@smm/platform';


const seconds = (fallback: number) => env.int(1).default(fallback);

/** Every variable the auth service reads; loadConfig reports the first bad one and exits 2. */
export const configShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(4101),
  KAFKA_BROKERS: env.hostPorts(),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']),
  REDIS_URL: env.url(['redis', 'rediss']),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_AUTH_SECRET: env.serviceSecret(),
  SERVICE_NAME: env.string().default('auth'),

  JWT_PRIVATE_KEY: env.es256PrivateKey(),
  /** Short: a stolen access token is useful for minutes; the refresh token gets the next one. */
  ACCESS_TOKEN_TTL_SECONDS: seconds(900),
  /** How long a member stays logged in without using the app (each refresh starts it again). */
  REFRESH_TOKEN_TTL_SECONDS: seconds(30 * 86_400),
  /** A spent refresh token presented again after this ends its session (two tabs refreshing at once stay within it). */
  REFRESH_TOKEN_REUSE_GRACE_SECONDS: env.int(0).default(5),
  SOCIAL_SIGNUP_TOKEN_TTL_SECONDS: seconds(600),
  /** Issue 41: operators' access tokens (unset: ACCESS_TOKEN_TTL_SECONDS); set it lower to shorten them further. */
  OPERATOR_ACCESS_TOKEN_TTL_SECONDS: env.int(1).optional(),
  /** An operator's session ends this long after sign-in, used or not (members' slide for REFRESH_TOKEN_TTL_SECONDS). */
  OPERATOR_SESSION_MAX_SECONDS: seconds(8 * 3600),
  /**
   * Seals operators' TOTP secrets and keys their recovery codes' HMACs (32+ characters; the devstack
   * generates one into DATA_DIR/secrets.json). Unset, a key derived from JWT_PRIVATE_KEY is used —
   * then replacing that key voids every enrolment, so set it in production.
   */
  TWO_FACTOR_KEY_SECRET: env.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  /** Second-factor codes (app or recovery) one operator may try per window, successes included. */
  TWO_FACTOR_MAX_ATTEMPTS: seconds(5),
  TWO_FACTOR_WINDOW_SECONDS: seconds(900),
  /** How long the step between password and code (or enrolment) stays open. */
  TWO_FACTOR_CHALLENGE_SECONDS: seconds(600),

  ADMIN_ID: env.string().regex(/^\S{1,50}$/, { error: 'must be 1-50 characters without spaces' }).optional(),
  ADMIN_PASSWORD: env.string().regex(/^\S{1,128}$/, { error: 'must be 1-128 characters without spaces' }).optional(),

  SMS_DEV_OUTBOX: env.bool().default(false),
  /** `dev` (default: logged, and kept in the dev outbox when SMS_DEV_OUTBOX) or `nhncloud` (NHN Cloud SMS). */
  SMS_PROVIDER: env.string().regex(/^(dev|nhncloud)$/, { error: 'must be dev or nhncloud' }).default('dev'),
  NHN_SMS_BASE_URL: env.url(['https', 'http']).default('https://api-sms.cloud.toast.com'),
  NHN_SMS_APP_KEY: env.string().optional(),
  NHN_SMS_SECRET_KEY: env.string().optional(),
  /** The sending number registered in the NHN Cloud console (digits, e.g. 0212345678). */
  NHN_SMS_SENDER_NUMBER: env.string().regex(/^\d{8,12}$/, { error: 'must be 8-12 digits' }).optional(),
  NHN_SMS_TIMEOUT_MS: env.int(100).default(5000),
  /** The site's display name, the prefix of every text message ("[그로우패널] 인증번호 …"); the web app's VITE_SITE_NAME default too. */
  SITE_NAME: env.string().default('그로우패널'),
  PHONE_CODE_TTL_SECONDS: seconds(180),
  PHONE_CODE_RESEND_SECONDS: seconds(60),
  PHONE_CODE_MAX_SENDS_PER_HOUR: seconds(5),
  PHONE_CODE_MAX_SENDS_PER_IP_PER_HOUR: seconds(20),
  PHONE_CODE_MAX_ATTEMPTS: seconds(5),

  /** Guesses per (login id, client address) pair in the window. */
  LOGIN_MAX_ATTEMPTS_PER_ID: seconds(10),
  /** Guesses per login id from all addresses together; addresses the member logged in from pass it. */
  LOGIN_MAX_ATTEMPTS_PER_ID_ALL_ADDRESSES: seconds(100),
  /** Guesses per client address across ids; addresses the member logged in from pass it. */
  LOGIN_MAX_ATTEMPTS_PER_IP: seconds(50),
  /** A pair's wait after its third failure; doubles per further failure, up to a minute. */
  LOGIN_BACKOFF_BASE_MS: seconds(1000),
  LOGIN_WINDOW_SECONDS: seconds(900),

  NAVER_CLIENT_SECRET: env.string().optional(),
  NAVER_AUTH_URL: env.url(['https', 'http']).default('https://nid.naver.com'),
  NAVER_API_URL: env.url(['https', 'http']).default('https://openapi.naver.com'),
  KAKAO_API_URL: env.url(['https', 'http']).default('https://kapi.kakao.com'),
};

export type AuthConfig = z.infer<z.ZodObject<typeof configShape>>;

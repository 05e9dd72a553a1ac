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
  SERVICE_NAME: env.string().default('auth'),

  JWT_PRIVATE_KEY: env.es256PrivateKey(),
  ACCESS_TOKEN_TTL_SECONDS: seconds(43_200),
  SOCIAL_SIGNUP_TOKEN_TTL_SECONDS: seconds(600),

  ADMIN_ID: env.string().regex(/^\S{1,50}$/, { error: 'must be 1-50 characters without spaces' }).optional(),
  ADMIN_PASSWORD: env.string().regex(/^\S{1,128}$/, { error: 'must be 1-128 characters without spaces' }).optional(),

  SMS_DEV_OUTBOX: env.bool().default(false),
  PHONE_CODE_TTL_SECONDS: seconds(180),
  PHONE_CODE_RESEND_SECONDS: seconds(60),
  PHONE_CODE_MAX_SENDS_PER_HOUR: seconds(5),
  PHONE_CODE_MAX_SENDS_PER_IP_PER_HOUR: seconds(20),
  PHONE_CODE_MAX_ATTEMPTS: seconds(5),

  LOGIN_MAX_ATTEMPTS_PER_ID: seconds(10),
  LOGIN_MAX_ATTEMPTS_PER_IP: seconds(50),
  LOGIN_WINDOW_SECONDS: seconds(900),

  NAVER_CLIENT_SECRET: env.string().optional(),
  NAVER_AUTH_URL: env.url(['https', 'http']).default('https://nid.naver.com'),
  NAVER_API_URL: env.url(['https', 'http']).default('https://openapi.naver.com'),
  KAKAO_API_URL: env.url(['https', 'http']).default('https://kapi.kakao.com'),
};

export type AuthConfig = z.infer<z.ZodObject<typeof configShape>>;

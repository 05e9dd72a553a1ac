import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AuthConfig } from '../config.ts';
import { DevSmsSender } from './dev-sms-sender.ts';
import { NhnCloudSmsSender } from './nhn-cloud-sms-sender.ts';
import type { SmsSender } from './sms-sender.ts';

/** The sender SMS_PROVIDER names; a provider without its keys stops start-up with the variable's name. */
export function smsSenderFrom(config: AuthConfig, logger: Logger, redis: Redis): SmsSender {
  if (config.SMS_PROVIDER !== 'nhncloud') return new DevSmsSender(logger.child({ component: 'sms' }), redis, config.SMS_DEV_OUTBOX);
  const { NHN_SMS_APP_KEY: appKey, NHN_SMS_SECRET_KEY: secretKey, NHN_SMS_SENDER_NUMBER: senderNumber } = config;
  for (const [name, value] of [['NHN_SMS_APP_KEY', appKey], ['NHN_SMS_SECRET_KEY', secretKey], ['NHN_SMS_SENDER_NUMBER', senderNumber]] as const) {
    if (!value) throw new Error(`Invalid configuration: ${name}: required when SMS_PROVIDER=nhncloud`);
  }
  return new NhnCloudSmsSender({ baseUrl: config.NHN_SMS_BASE_URL, appKey: appKey!, secretKey: secretKey!, senderNumber: senderNumber!, timeoutMs: config.NHN_SMS_TIMEOUT_MS });
}

import { HttpError, conflict } from '@smm/platform';
import { newPhoneCode, normalizePhoneNumber } from '../domain/phone.ts';
import { messages } from '../messages.ts';
import type { AuthServices, RequestOrigin } from './context.ts';
import { RetryLater, ruleError } from './context.ts';

/**
 * Sends a 5-digit code to a phone number not yet used by a member (spec §5, §8 "Send code"). The
 * resend cooldown is claimed first so quick double clicks do not spend the hourly allowance.
 */
export async function sendPhoneCode(services: AuthServices, input: { phoneNumber?: unknown }, origin: RequestOrigin) {
  const phone = normalizePhoneNumber(input.phoneNumber);
  if (!phone.ok) throw ruleError(phone.violation);
  const phoneNumber = phone.value;
  if (await services.members.phoneInUse(phoneNumber)) throw conflict(messages.duplicatePhone, 'PHONE_NUMBER_EXISTS');

  const wait = await services.phoneCodes.claimCooldown(phoneNumber);
  if (wait !== null) throw new RetryLater(messages.resendTooSoon(wait), 'CODE_RESEND_TOO_SOON', wait);
  const byPhone = await services.limits.codeSendsByPhone.hit(phoneNumber);
  const byIp = origin.clientIp === null ? ({ allowed: true } as const) : await services.limits.codeSendsByIp.hit(origin.clientIp);
  for (const decision of [byPhone, byIp]) {
    if (!decision.allowed) throw new RetryLater(messages.sendLimitExceeded, 'CODE_SEND_LIMIT', decision.retryAfterSeconds);
  }

  const code = newPhoneCode();
  await services.phoneCodes.store(phoneNumber, code);
  try {
    await services.sms.send(phoneNumber, messages.codeSentText(services.siteName, code), { code });
  } catch (error) {
    await services.phoneCodes.releaseCooldown(phoneNumber);
    services.logger.error({ err: error, correlationId: origin.correlationId }, 'sms send failed');
    throw new HttpError(502, 'SMS_SEND_FAILED', messages.smsSendFailed);
  }
  return { phoneNumber, expiresIn: services.phoneCodeTtlSeconds, resendAfter: services.phoneCodeResendSeconds };
}

import { randomInt } from 'node:crypto';
import { messages } from '../messages.ts';
import { type RuleResult, violation } from './rule-error.ts';

export const PHONE_CODE_LENGTH = 5;

/**
 * Spec §5/§9: a phone number is 11 characters. Korean mobile numbers are written with or without
 * hyphens (010-1234-5678), so hyphens and spaces are dropped before counting; what remains must be
 * 11 digits starting with 01.
 */
export function normalizePhoneNumber(input: unknown): RuleResult<string> {
  if (typeof input !== 'string') return violation('phoneNumber', 'PHONE_NUMBER_INVALID', messages.phoneNumberInvalid);
  const digits = input.replace(/[\s-]/g, '');
  if (!/^01\d{9}$/.test(digits)) return violation('phoneNumber', 'PHONE_NUMBER_INVALID', messages.phoneNumberInvalid);
  return { ok: true, value: digits };
}

/** A verification code: 5 decimal digits from a CSPRNG (leading zeros kept). */
export function newPhoneCode(): string {
  return String(randomInt(0, 10 ** PHONE_CODE_LENGTH)).padStart(PHONE_CODE_LENGTH, '0');
}

/** Spec §5: the code must have been sent (a value is present) and be exactly 5 characters. */
export function checkSendCodeShape(input: unknown): RuleResult<string> {
  const code = typeof input === 'string' ? input.trim() : '';
  if (code === '') return violation('sendCode', 'SEND_CODE_REQUIRED', messages.sendCodeRequired);
  if (code.length !== PHONE_CODE_LENGTH) return violation('sendCode', 'SEND_CODE_LENGTH', messages.sendCodeLength);
  return { ok: true, value: code };
}

import { passwordLengthMessage, passwordLengthOk } from '@smm/contracts';
import { messages } from '../messages.ts';
import { checkSendCodeShape, normalizePhoneNumber } from './phone.ts';
import { type RuleResult, violation } from './rule-error.ts';
import type { AuthSettings } from './settings.ts';

export type LocalRegistrationInput = {
  id?: unknown;
  password?: unknown;
  email?: unknown;
  registerWhere?: unknown;
  phoneNumber?: unknown;
  sendCode?: unknown;
  referral?: unknown;
};

export type SocialRegistrationInput = Omit<LocalRegistrationInput, 'id' | 'password' | 'email'>;

/** What the path/phone/referral rules accept; the code still has to match the one sent (Redis). */
export type CommonRegistration = {
  registerWhere: string;
  phoneNumber: string | null;
  /** Present when phone verification is on: the code the member typed, to compare with the sent one. */
  sendCode: string | null;
  referral: string | null;
};

export type LocalRegistration = CommonRegistration & { loginId: string; password: string; email: string };

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const hasSpace = (value: string) => /\s/.test(value);
/** Spec §5 asks for an @ and a dot; the dot must come in the domain part for a deliverable address. */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Registration rules of spec §5 that do not need storage, checked in the spec's order:
 * id required, no spaces in id or password, e-mail with @ and a dot, password required, then the
 * rules shared with Naver/Kakao sign-up. The first broken rule is reported.
 */
export function checkLocalRegistration(input: LocalRegistrationInput, settings: AuthSettings): RuleResult<LocalRegistration> {
  const loginId = str(input.id).trim();
  const password = str(input.password);
  const email = str(input.email).trim();
  if (loginId === '') return violation('id', 'ID_REQUIRED', messages.idRequired);
  if (hasSpace(loginId) || hasSpace(str(input.id))) return violation('id', 'ID_HAS_SPACE', messages.idHasSpace);
  if (loginId.length > 50) return violation('id', 'ID_TOO_LONG', messages.idTooLong);
  // Social members get `naver_…` / `kakao_…` ids; a local member holding one would block that sign-up.
  if (/^(naver|kakao)_/i.test(loginId)) return violation('id', 'ID_RESERVED', messages.idReserved);
  if (hasSpace(password)) return violation('password', 'PASSWORD_HAS_SPACE', messages.passwordHasSpace);
  if (!emailPattern.test(email) || email.length > 254) return violation('email', 'EMAIL_INVALID', messages.emailInvalid);
  if (password === '') return violation('password', 'PASSWORD_REQUIRED', messages.passwordRequired);
  if (!passwordLengthOk(password)) return violation('password', 'PASSWORD_LENGTH', passwordLengthMessage);
  const common = checkCommonRegistration(input, settings);
  if (!common.ok) return common;
  return { ok: true, value: { ...common.value, loginId, password, email } };
}

/**
 * The rules Naver and Kakao sign-up share with the plain form (spec §5: "the same path and phone
 * rules"): registration path required; with phone verification on, an 11-digit number and a
 * 5-character code; a referral code only while the referral setting is on.
 */
export function checkCommonRegistration(input: SocialRegistrationInput, settings: AuthSettings): RuleResult<CommonRegistration> {
  const registerWhere = str(input.registerWhere).trim();
  if (registerWhere === '') return violation('registerWhere', 'REGISTER_WHERE_REQUIRED', messages.registerWhereRequired);
  if (registerWhere.length > 100) return violation('registerWhere', 'REGISTER_WHERE_REQUIRED', messages.registerWhereRequired);

  let phoneNumber: string | null = null;
  let sendCode: string | null = null;
  const rawPhone = str(input.phoneNumber).trim();
  if (settings.phoneVerification || rawPhone !== '') {
    const phone = normalizePhoneNumber(rawPhone);
    if (!phone.ok) return phone;
    phoneNumber = phone.value;
  }
  if (settings.phoneVerification) {
    const code = checkSendCodeShape(input.sendCode);
    if (!code.ok) return code;
    sendCode = code.value;
  }

  const referralText = str(input.referral).trim();
  let referral: string | null = null;
  if (referralText !== '') {
    if (!settings.referral) return violation('referral', 'REFERRAL_DISABLED', messages.referralDisabled);
    referral = referralText.toUpperCase();
  }
  return { ok: true, value: { registerWhere, phoneNumber, sendCode, referral } };
}

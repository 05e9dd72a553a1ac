import { passwordLengthMessage, passwordLengthOk } from '../../lib/contracts.ts';
import { authText as t } from './messages.ts';

/** Spec §5 login and registration checks, in order; each returns the first broken rule. */
export type Problem<F extends string> = { field: F; message: string } | null;

export type LoginField = 'id' | 'password';
export function validateLogin(input: { id: string; password: string }): Problem<LoginField> {
  if (input.id.trim() === '') return { field: 'id', message: t.idRequired };
  if (/\s/.test(input.id)) return { field: 'id', message: t.idHasSpace };
  if (input.password === '') return { field: 'password', message: t.passwordRequired };
  return null;
}

export type RegisterField = 'id' | 'email' | 'password' | 'passwordConfirm' | 'registerWhere' | 'phoneNumber' | 'sendCode';
export type RegisterInput = {
  /** Absent for the Naver and Kakao variants, which have no id, email or password. */
  account?: { id: string; email: string; password: string; passwordConfirm: string };
  registerWhere: string;
  phoneNumber: string;
  sendCode: string;
};
/** `codeSent`: a code was sent to the number now in the field (changing the number voids it). */
export type RegisterOptions = { phoneVerification: boolean; codeSent: boolean };

export const phoneLength = 11;
export const codeLength = 5;

/** Digits only, so "010-1234-5678" counts as 11 characters like the server does. */
export const phoneDigits = (value: string) => value.replace(/[\s-]/g, '');

export function validatePhone(phone: string): string | null {
  return phoneDigits(phone).length === phoneLength && /^\d+$/.test(phoneDigits(phone)) ? null : t.phoneInvalid;
}

export function validateRegister(input: RegisterInput, options: RegisterOptions): Problem<RegisterField> {
  const a = input.account;
  if (a) {
    if (a.id.trim() === '') return { field: 'id', message: t.idRequired };
    if (/\s/.test(a.id)) return { field: 'id', message: t.idHasSpace };
    if (!(a.email.includes('@') && a.email.includes('.'))) return { field: 'email', message: t.emailInvalid };
    if (a.password === '') return { field: 'password', message: t.passwordRequired };
    if (/\s/.test(a.password)) return { field: 'password', message: t.passwordHasSpace };
    if (!passwordLengthOk(a.password)) return { field: 'password', message: passwordLengthMessage };
    if (a.passwordConfirm !== a.password) return { field: 'passwordConfirm', message: t.passwordMismatch };
  }
  if (input.registerWhere.trim() === '') return { field: 'registerWhere', message: t.registerWhereRequired };
  if (options.phoneVerification) {
    if (!options.codeSent) return { field: 'phoneNumber', message: t.codeNotSent };
    if (input.sendCode.trim().length !== codeLength) return { field: 'sendCode', message: t.codeLength };
  }
  return null;
}

/** Spec §8 login errors: 400 input format, 404 wrong id or password, anything else generic. */
export function loginErrorMessage(status: number): string {
  if (status === 400) return t.inputFormat;
  if (status === 404) return t.wrongCredentials;
  return t.genericError;
}

/** Spec §8 send-code answers. */
export function sendCodeErrorMessage(status: number): string {
  if (status === 400) return t.inputFormat;
  if (status === 409) return t.phoneExists;
  return t.genericError;
}

/**
 * The send button's label and state: before a send, "send"; after one, "resend" once the
 * server's cooldown (`resendAfter` seconds of the send answer) has run out, with the seconds left
 * shown until then.
 */
export function sendButtonState(sentToThisNumber: boolean, secondsLeft: number): { label: string; disabled: boolean } {
  if (!sentToThisNumber) return { label: t.sendCode, disabled: false };
  if (secondsLeft > 0) return { label: t.resendIn(secondsLeft), disabled: true };
  return { label: t.resend, disabled: false };
}

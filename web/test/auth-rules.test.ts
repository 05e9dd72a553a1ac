import { describe, expect, it } from 'vitest';
import { loginErrorMessage, sendButtonState, sendCodeErrorMessage, validateLogin, validatePhone, validateRegister } from '../src/features/auth/auth-rules.ts';
import { authText as t } from '../src/features/auth/messages.ts';
import { passwordChangeErrorMessage, validatePasswordChange } from '../src/features/account/password-form.ts';
import { accountText as a } from '../src/features/account/messages.ts';

describe('login rules (spec §5, §8)', () => {
  it('id required, then no space in id, then password required', () => {
    expect(validateLogin({ id: '', password: '' })?.message).toBe(t.idRequired);
    expect(validateLogin({ id: 'my id', password: '' })?.message).toBe(t.idHasSpace);
    expect(validateLogin({ id: 'me', password: '' })?.message).toBe(t.passwordRequired);
    expect(validateLogin({ id: 'me', password: 'pw' })).toBeNull();
  });

  it('maps 400, 404 and anything else to the three messages', () => {
    expect(loginErrorMessage(400)).toBe(t.inputFormat);
    expect(loginErrorMessage(404)).toBe(t.wrongCredentials);
    expect(loginErrorMessage(503)).toBe(t.genericError);
  });
});

describe('registration rules (spec §5)', () => {
  const account = { id: 'member1', email: 'a@b.kr', password: 'secret12', passwordConfirm: 'secret12' };
  const off = { phoneVerification: false, codeSent: false };
  const first = (input: Parameters<typeof validateRegister>[0], options = off) => validateRegister(input, options)?.message ?? null;
  const base = { account, registerWhere: '지인 추천', phoneNumber: '', sendCode: '' };

  it('checks id, spaces, email, password, confirmation, then the registration path', () => {
    expect(first({ ...base, account: { ...account, id: '' } })).toBe(t.idRequired);
    expect(first({ ...base, account: { ...account, id: 'a b' } })).toBe(t.idHasSpace);
    expect(first({ ...base, account: { ...account, email: 'ab.kr' } })).toBe(t.emailInvalid);
    expect(first({ ...base, account: { ...account, email: 'a@bkr' } })).toBe(t.emailInvalid);
    expect(first({ ...base, account: { ...account, password: '', passwordConfirm: '' } })).toBe(t.passwordRequired);
    expect(first({ ...base, account: { ...account, password: 'a b', passwordConfirm: 'a b' } })).toBe(t.passwordHasSpace);
    expect(first({ ...base, account: { ...account, password: 'abc', passwordConfirm: 'abc' } })).toBe('비밀번호는 8~20자로 입력해 주세요.');
    expect(first({ ...base, account: { ...account, password: 'a'.repeat(21), passwordConfirm: 'a'.repeat(21) } })).toBe('비밀번호는 8~20자로 입력해 주세요.');
    expect(first({ ...base, account: { ...account, password: 'a'.repeat(20), passwordConfirm: 'a'.repeat(20) } })).toBeNull();
    expect(first({ ...base, account: { ...account, passwordConfirm: 'other' } })).toBe(t.passwordMismatch);
    expect(first({ ...base, registerWhere: '' })).toBe(t.registerWhereRequired);
    expect(first(base)).toBeNull();
  });

  it('with phone verification on: the code must have been sent and be exactly 5 characters', () => {
    expect(first({ ...base, sendCode: '12345' }, { phoneVerification: true, codeSent: false })).toBe(t.codeNotSent);
    expect(first({ ...base, sendCode: '1234' }, { phoneVerification: true, codeSent: true })).toBe(t.codeLength);
    expect(first({ ...base, sendCode: '123456' }, { phoneVerification: true, codeSent: true })).toBe(t.codeLength);
    expect(first({ ...base, sendCode: '12345' }, { phoneVerification: true, codeSent: true })).toBeNull();
  });

  it('Naver and Kakao sign-up apply the same path and phone rules without the account fields', () => {
    const social = { registerWhere: '', phoneNumber: '', sendCode: '' };
    expect(first(social)).toBe(t.registerWhereRequired);
    expect(first({ ...social, registerWhere: '검색' }, { phoneVerification: true, codeSent: false })).toBe(t.codeNotSent);
  });

  it('a code is sent only to an 11-digit phone number (hyphens allowed)', () => {
    expect(validatePhone('0101234567')).toBe(t.phoneInvalid);
    expect(validatePhone('010-1234-5678')).toBeNull();
    expect(validatePhone('010123456789')).toBe(t.phoneInvalid);
    expect(validatePhone('0101234567a')).toBe(t.phoneInvalid);
  });

  it('after a send the button counts the cooldown down, then offers a resend; a new number can be sent at once', () => {
    expect(sendButtonState(false, 0)).toEqual({ label: t.sendCode, disabled: false });
    expect(sendButtonState(true, 42)).toEqual({ label: '재전송 42초', disabled: true });
    expect(sendButtonState(true, 0)).toEqual({ label: t.resend, disabled: false });
    // the field holds a different number than the code went to: counts as not sent
    expect(sendButtonState(false, 30)).toEqual({ label: t.sendCode, disabled: false });
  });

  it('maps send-code failures (spec §8)', () => {
    expect(sendCodeErrorMessage(400)).toBe(t.inputFormat);
    expect(sendCodeErrorMessage(409)).toBe(t.phoneExists);
    expect(sendCodeErrorMessage(502)).toBe(t.genericError);
  });
});

describe('password change (spec §5, §8)', () => {
  it('current required, new required, confirmation equal — in that order', () => {
    expect(validatePasswordChange({ currentPassword: '', newPassword: '', confirm: 'x' })?.message).toBe(a.currentRequired);
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: '', confirm: 'x' })?.message).toBe(a.nextRequired);
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'new', confirm: 'new' })?.message).toBe('비밀번호는 8~20자로 입력해 주세요.');
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'new-pass', confirm: 'x' })?.message).toBe(a.mismatch);
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'new-pass', confirm: 'new-pass' })).toBeNull();
  });

  it('409 means the current password is different; others are generic', () => {
    expect(passwordChangeErrorMessage(409)).toBe(a.currentDifferent);
    expect(passwordChangeErrorMessage(500)).toBe(a.genericError);
  });
});

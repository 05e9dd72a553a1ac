import { passwordLengthMessage } from '@smm/contracts';
import { describe, expect, it } from 'vitest';
import { messages } from '../messages.ts';
import { checkCommonRegistration, checkLocalRegistration } from './registration-rules.ts';
import type { AuthSettings } from './settings.ts';

const off: AuthSettings = { phoneVerification: false, referral: false, naverLogin: false, kakaoLogin: false, naverClientId: null, naverState: null, naverRedirectUrl: null, operatorTwoFactor: false };
const phoneOn: AuthSettings = { ...off, phoneVerification: true };
const valid = { id: 'kim01', password: 'pw-12345', email: 'kim@example.com', registerWhere: '검색' };

function violation(input: Record<string, unknown>, settings = off) {
  const result = checkLocalRegistration(input, settings);
  return result.ok ? null : result.violation;
}

describe('local registration rules (spec §5, in order)', () => {
  it('accepts a complete form without phone verification', () => {
    expect(checkLocalRegistration(valid, off)).toEqual({
      ok: true,
      value: { loginId: 'kim01', password: 'pw-12345', email: 'kim@example.com', registerWhere: '검색', phoneNumber: null, sendCode: null, referral: null },
    });
  });

  it.each([
    ['id missing', { ...valid, id: undefined }, 'ID_REQUIRED', messages.idRequired],
    ['id blank', { ...valid, id: '   ' }, 'ID_REQUIRED', messages.idRequired],
    ['id not a string', { ...valid, id: 42 }, 'ID_REQUIRED', messages.idRequired],
    ['space inside id', { ...valid, id: 'kim 01' }, 'ID_HAS_SPACE', messages.idHasSpace],
    ['space around id', { ...valid, id: ' kim01' }, 'ID_HAS_SPACE', messages.idHasSpace],
    ['an id reserved for social members', { ...valid, id: 'Naver_123' }, 'ID_RESERVED', messages.idReserved],
    ['space in password', { ...valid, password: 'pw 1234' }, 'PASSWORD_HAS_SPACE', messages.passwordHasSpace],
    ['email without @', { ...valid, email: 'kim.example.com' }, 'EMAIL_INVALID', messages.emailInvalid],
    ['email without dot', { ...valid, email: 'kim@example' }, 'EMAIL_INVALID', messages.emailInvalid],
    ['email missing', { ...valid, email: undefined }, 'EMAIL_INVALID', messages.emailInvalid],
    ['password missing', { ...valid, password: '' }, 'PASSWORD_REQUIRED', messages.passwordRequired],
    ['a 7-character password', { ...valid, password: 'abc1234' }, 'PASSWORD_LENGTH', passwordLengthMessage],
    ['a 21-character password', { ...valid, password: 'a'.repeat(21) }, 'PASSWORD_LENGTH', passwordLengthMessage],
    ['register-where missing', { ...valid, registerWhere: '' }, 'REGISTER_WHERE_REQUIRED', messages.registerWhereRequired],
  ])('refuses %s', (_name, input, code, message) => {
    expect(violation(input)).toMatchObject({ code, message });
  });

  it('reports the first broken rule in the spec order', () => {
    // everything wrong: the id comes first
    expect(violation({})?.code).toBe('ID_REQUIRED');
    // id fine, spaces in password and a bad e-mail: the space rule comes before the e-mail rule
    expect(violation({ id: 'a', password: 'a b', email: 'x' })?.code).toBe('PASSWORD_HAS_SPACE');
    // e-mail is checked before the password is required
    expect(violation({ id: 'a', password: '', email: 'x' })?.code).toBe('EMAIL_INVALID');
    // 8 and 20 characters are the bounds, counted as characters (a Korean syllable is one)
    expect(violation({ ...valid, password: 'abcd1234' })).toBeNull();
    expect(violation({ ...valid, password: '가'.repeat(20) })).toBeNull();
    // register-where comes before the phone rules
    expect(violation({ ...valid, registerWhere: '', phoneNumber: 'x' }, phoneOn)?.code).toBe('REGISTER_WHERE_REQUIRED');
  });
});

describe('phone and referral rules shared with social sign-up', () => {
  it('requires an 11-digit number, a sent code and exactly 5 characters when verification is on', () => {
    const base = { registerWhere: '지인 추천' };
    expect(checkCommonRegistration({ ...base }, phoneOn)).toMatchObject({ ok: false, violation: { code: 'PHONE_NUMBER_INVALID' } });
    expect(checkCommonRegistration({ ...base, phoneNumber: '0101234567' }, phoneOn)).toMatchObject({ ok: false, violation: { code: 'PHONE_NUMBER_INVALID' } });
    expect(checkCommonRegistration({ ...base, phoneNumber: '01012345678' }, phoneOn)).toMatchObject({ ok: false, violation: { code: 'SEND_CODE_REQUIRED' } });
    expect(checkCommonRegistration({ ...base, phoneNumber: '01012345678', sendCode: '1234' }, phoneOn)).toMatchObject({ ok: false, violation: { code: 'SEND_CODE_LENGTH' } });
    expect(checkCommonRegistration({ ...base, phoneNumber: '01012345678', sendCode: '123456' }, phoneOn)).toMatchObject({ ok: false, violation: { code: 'SEND_CODE_LENGTH' } });
    expect(checkCommonRegistration({ ...base, phoneNumber: '010-1234-5678', sendCode: '12345' }, phoneOn)).toEqual({
      ok: true,
      value: { registerWhere: '지인 추천', phoneNumber: '01012345678', sendCode: '12345', referral: null },
    });
  });

  it('needs no phone when verification is off, but checks one that is given', () => {
    expect(checkCommonRegistration({ registerWhere: 'x' }, off)).toMatchObject({ ok: true, value: { phoneNumber: null, sendCode: null } });
    expect(checkCommonRegistration({ registerWhere: 'x', phoneNumber: '12345' }, off)).toMatchObject({ ok: false, violation: { code: 'PHONE_NUMBER_INVALID' } });
    expect(checkCommonRegistration({ registerWhere: 'x', phoneNumber: '01099998888', sendCode: 'ignored' }, off)).toMatchObject({
      ok: true,
      value: { phoneNumber: '01099998888', sendCode: null },
    });
  });

  it('accepts a referral code only while the referral setting is on', () => {
    expect(checkCommonRegistration({ registerWhere: 'x', referral: 'abcd2345' }, off)).toMatchObject({ ok: false, violation: { code: 'REFERRAL_DISABLED' } });
    expect(checkCommonRegistration({ registerWhere: 'x', referral: 'abcd2345' }, { ...off, referral: true })).toMatchObject({ ok: true, value: { referral: 'ABCD2345' } });
    expect(checkCommonRegistration({ registerWhere: 'x', referral: '  ' }, off)).toMatchObject({ ok: true, value: { referral: null } });
  });
});

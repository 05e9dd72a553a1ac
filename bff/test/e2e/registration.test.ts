import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, newMember, phoneVerification, sentCode, setSettings, uniqueId, uniquePhone } from './support/client.ts';

/** Spec §5 "Registration" and §8 "Register"/"Send code", through the BFF against the devstack. */
beforeAll(async () => {
  await setSettings({ ENABLE_REFERRAL: 'true' });
  await phoneVerification(false);
});
afterAll(() => phoneVerification(false));

const form = (overrides: Record<string, unknown> = {}) => {
  const id = uniqueId();
  return { id, password: 'pass-1234', email: `${id}@example.com`, registerWhere: '기타', ...overrides };
};

async function expectRefusal(body: unknown, status: number, code: string, message: string) {
  const res = await api('POST', '/auth/register', { body });
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.body).toMatchObject({ code, message });
}

describe('registration (phone verification off)', () => {
  it('checks every rule of spec §5 in order, with Korean messages', async () => {
    await expectRefusal(form({ id: '' }), 400, 'ID_REQUIRED', '아이디를 입력해 주세요.');
    await expectRefusal(form({ id: undefined }), 400, 'ID_REQUIRED', '아이디를 입력해 주세요.');
    await expectRefusal(form({ id: 'kim lee' }), 400, 'ID_HAS_SPACE', '아이디에는 공백을 사용할 수 없습니다.');
    await expectRefusal(form({ password: 'pass 1234' }), 400, 'PASSWORD_HAS_SPACE', '비밀번호에는 공백을 사용할 수 없습니다.');
    await expectRefusal(form({ email: 'no-at-sign.kr' }), 400, 'EMAIL_INVALID', '올바른 이메일 주소를 입력해 주세요.');
    await expectRefusal(form({ email: 'kim@nodot' }), 400, 'EMAIL_INVALID', '올바른 이메일 주소를 입력해 주세요.');
    await expectRefusal(form({ password: '' }), 400, 'PASSWORD_REQUIRED', '비밀번호를 입력해 주세요.');
    await expectRefusal(form({ registerWhere: '' }), 400, 'REGISTER_WHERE_REQUIRED', '가입 경로를 선택해 주세요.');
    await expectRefusal(form({ registerWhere: '아무거나' }), 400, 'REGISTER_WHERE_INVALID', '가입 경로는 제시된 항목 중에서 선택해 주세요.');
    await expectRefusal(form({ id: 'a'.repeat(51) }), 400, 'ID_TOO_LONG', '아이디는 50자 이하로 입력해 주세요.');
    await expectRefusal(form({ password: 'p'.repeat(21) }), 400, 'PASSWORD_LENGTH', '비밀번호는 8~20자로 입력해 주세요.');
    await expectRefusal(form({ password: 'abc' }), 400, 'PASSWORD_LENGTH', '비밀번호는 8~20자로 입력해 주세요.');
    await expectRefusal(form({ id: `naver_${uniqueId()}` }), 400, 'ID_RESERVED', expect.any(String) as unknown as string);
    await expectRefusal(form({ phoneNumber: '010-1234' }), 400, 'PHONE_NUMBER_INVALID', '휴대폰 번호 11자리를 숫자로 입력해 주세요.');
    // order: the id rule answers before the e-mail rule
    await expectRefusal(form({ id: '', email: 'bad' }), 400, 'ID_REQUIRED', '아이디를 입력해 주세요.');
    // a field of the wrong type is a format error before auth is asked
    await expectRefusal(form({ id: 42 }), 400, 'VALIDATION_FAILED', '입력 형식이 올바르지 않습니다.');
  });

  it('creates a member who can log in; a duplicate id or e-mail gets 409', async () => {
    const body = form();
    const created = await api<{ userId: string; loginId: string }>('POST', '/auth/register', { body });
    expect(created.status).toBe(201);
    expect(created.body.loginId).toBe(body.id);
    const login = await api('POST', '/auth/login', { body: { id: body.id, password: body.password } });
    expect(login.status).toBe(200);
    await expectRefusal(form({ id: body.id.toUpperCase() }), 409, 'DUPLICATE_ID', '이미 사용 중인 아이디입니다.');
    await expectRefusal(form({ email: body.email }), 409, 'DUPLICATE_EMAIL', '이미 사용 중인 이메일입니다.');
  });

  it('takes an optional phone number while verification is off, and refuses it twice with 409', async () => {
    const phoneNumber = uniquePhone();
    expect((await api('POST', '/auth/register', { body: form({ phoneNumber }) })).status).toBe(201);
    await expectRefusal(form({ phoneNumber }), 409, 'DUPLICATE_PHONE_NUMBER', '이미 가입된 휴대폰 번호입니다.');
  });

  it('accepts a known referral code and refuses an unknown one', async () => {
    const referrer = await newMember();
    const issued = await api<{ referralCode: string }>('POST', '/auth/referral-code', { token: referrer.token });
    expect(issued.status).toBe(201);
    await expectRefusal(form({ referral: 'NOSUCHCODE' }), 400, 'REFERRAL_NOT_FOUND', '존재하지 않는 추천인 코드입니다.');
    const ok = await api('POST', '/auth/register', { body: form({ referral: issued.body.referralCode }) });
    expect(ok.status).toBe(201);
  });
});

describe('phone codes (POST /api/auth/send-phone-number)', () => {
  it('answers 400 for a number that is not 11 digits and sends a code to one that is', async () => {
    for (const phoneNumber of ['0101234567', '010123456789', 'abcdefghijk', '']) {
      const res = await api('POST', '/auth/send-phone-number', { body: { phoneNumber } });
      expect(res.status, phoneNumber).toBe(400);
      expect(res.body).toMatchObject({ code: 'PHONE_NUMBER_INVALID', message: '휴대폰 번호 11자리를 숫자로 입력해 주세요.' });
    }
    const phoneNumber = uniquePhone();
    const sent = await api('POST', '/auth/send-phone-number', { body: { phoneNumber } });
    expect(sent.status).toBe(201);
    expect(await sentCode(phoneNumber)).toMatch(/^\d{5}$/);
    const again = await api('POST', '/auth/send-phone-number', { body: { phoneNumber } });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('CODE_RESEND_TOO_SOON');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('registration with phone verification on', () => {
  beforeAll(() => phoneVerification(true));

  it('requires a sent 5-character code that matches, then refuses the number with 409', async () => {
    const phoneNumber = uniquePhone();
    await expectRefusal(form({ phoneNumber: '0101234' }), 400, 'PHONE_NUMBER_INVALID', '휴대폰 번호 11자리를 숫자로 입력해 주세요.');
    await expectRefusal(form({ phoneNumber }), 400, 'SEND_CODE_REQUIRED', '휴대폰 인증번호를 발송한 뒤 입력해 주세요.');
    await expectRefusal(form({ phoneNumber, sendCode: '1234' }), 400, 'SEND_CODE_LENGTH', '인증번호 5자리를 입력해 주세요.');
    await expectRefusal(form({ phoneNumber, sendCode: '123456' }), 400, 'SEND_CODE_LENGTH', '인증번호 5자리를 입력해 주세요.');
    await expectRefusal(form({ phoneNumber, sendCode: '12345' }), 400, 'CODE_NOT_SENT', '인증번호를 먼저 발송해 주세요. 인증번호가 만료되었다면 다시 발송해 주세요.');

    expect((await api('POST', '/auth/send-phone-number', { body: { phoneNumber } })).status).toBe(201);
    const code = await sentCode(phoneNumber);
    const wrong = code === '00000' ? '11111' : '00000';
    await expectRefusal(form({ phoneNumber, sendCode: wrong }), 400, 'CODE_MISMATCH', '인증번호가 일치하지 않습니다.');
    const created = await api('POST', '/auth/register', { body: form({ phoneNumber, sendCode: code }) });
    expect(created.status).toBe(201);

    await expectRefusal(form({ phoneNumber, sendCode: code }), 400, 'CODE_NOT_SENT', '인증번호를 먼저 발송해 주세요. 인증번호가 만료되었다면 다시 발송해 주세요.');
    const taken = await api('POST', '/auth/send-phone-number', { body: { phoneNumber } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'PHONE_NUMBER_EXISTS', message: '이미 가입된 휴대폰 번호입니다.' });
  });

  it('drops the code after too many wrong tries (429), so even the right code no longer works', async () => {
    const phoneNumber = uniquePhone();
    expect((await api('POST', '/auth/send-phone-number', { body: { phoneNumber } })).status).toBe(201);
    const code = await sentCode(phoneNumber);
    const wrong = code === '00000' ? '11111' : '00000';
    let last = await api('POST', '/auth/register', { body: form({ phoneNumber, sendCode: wrong }) });
    for (let i = 0; i < 6 && last.status !== 429; i++) last = await api('POST', '/auth/register', { body: form({ phoneNumber, sendCode: wrong }) });
    expect(last.status).toBe(429);
    expect(last.body.code).toBe('CODE_ATTEMPTS_EXCEEDED');
    await expectRefusal(form({ phoneNumber, sendCode: code }), 400, 'CODE_NOT_SENT', '인증번호를 먼저 발송해 주세요. 인증번호가 만료되었다면 다시 발송해 주세요.');
  });
});

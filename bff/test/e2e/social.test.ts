import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, phoneVerification, sentCode, setSettings, stack, uniqueId, uniquePhone } from './support/client.ts';
import { naverClient } from './support/fake-providers.ts';

/** Spec §7/§8 Naver and Kakao sign-in, with auth talking to the fake providers. */
beforeAll(async () => {
  await phoneVerification(false);
  await setSettings({ ENABLE_NAVER_LOGIN: 'true', ENABLE_KAKAO_LOGIN: 'true', NAVER_CLIENT_ID: naverClient.id, NAVER_STATE: naverClient.state });
  // auth's settings replica follows catalog's events
  await eventually(async () => (await api('POST', '/auth/login/kakao', { body: { accessToken: 'kakao-1' } })).body.code, (code) => code !== 'SOCIAL_LOGIN_DISABLED', 20_000);
  await eventually(async () => (await api('POST', '/auth/login/naver', { body: { code: 'code-x' } })).body.code, (code) => code !== 'SOCIAL_LOGIN_DISABLED' && code !== 'SOCIAL_NOT_CONFIGURED', 20_000);
});
afterAll(() => setSettings({ ENABLE_NAVER_LOGIN: 'false', ENABLE_KAKAO_LOGIN: 'false' }));

/** What the browser popup does: visit Naver's authorize page and read `code` from the redirect. */
async function naverCode(user: string): Promise<string> {
  const url = new URL('/oauth2.0/authorize', stack().providersUrl);
  url.search = new URLSearchParams({ response_type: 'code', client_id: naverClient.id, redirect_uri: 'http://127.0.0.1/auth/naver', state: naverClient.state, user }).toString();
  const res = await fetch(url, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

describe('Naver', () => {
  it('an unknown account gets 404 with a continuation token; sign-up with it; then login gives a token', async () => {
    const user = uniqueId('nv');
    const first = await api<{ accessToken: string; code: string }>('POST', '/auth/login/naver', { body: { code: await naverCode(user) } });
    expect(first.status).toBe(404);
    expect(first.body.code).toBe('SOCIAL_ACCOUNT_NOT_REGISTERED');
    expect(first.body.accessToken).toEqual(expect.any(String));

    const noPath = await api('POST', '/auth/register/naver', { body: { accessToken: first.body.accessToken } });
    expect(noPath.status).toBe(400);
    expect(noPath.body.message).toBe('가입 경로를 선택해 주세요.');
    const badToken = await api('POST', '/auth/register/naver', { body: { registerWhere: '기타', accessToken: 'forged' } });
    expect(badToken.status).toBe(400);
    expect(badToken.body.code).toBe('SOCIAL_TOKEN_INVALID');

    const reg = await api('POST', '/auth/register/naver', { body: { registerWhere: '기타', accessToken: first.body.accessToken } });
    expect(reg.status).toBe(201);
    const twice = await api('POST', '/auth/register/naver', { body: { registerWhere: '기타', accessToken: first.body.accessToken } });
    expect(twice.status).toBe(409);

    const login = await api<{ accessToken: string }>('POST', '/auth/login/naver', { body: { code: await naverCode(user) } });
    expect(login.status).toBe(200);
    const profile = await api('GET', '/auth/profile', { token: login.body.accessToken });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(`naver_${user}`);
  });

  it('a code the provider refuses is a 400 with a Korean message', async () => {
    const res = await api('POST', '/auth/login/naver', { body: { code: 'not-a-real-code' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'SOCIAL_AUTH_FAILED', message: '네이버 인증에 실패했습니다.' });
  });
});

describe('Kakao', () => {
  it('an unknown account gets 404 with a continuation token; sign-up; then login', async () => {
    const kakaoToken = `kakao-${randomInt(1e9)}`;
    const first = await api<{ accessToken: string }>('POST', '/auth/login/kakao', { body: { accessToken: kakaoToken } });
    expect(first.status).toBe(404);
    const reg = await api('POST', '/auth/register/kakao', { body: { registerWhere: '지인 추천', accessToken: first.body.accessToken } });
    expect(reg.status).toBe(201);
    const login = await api<{ accessToken: string }>('POST', '/auth/login/kakao', { body: { accessToken: kakaoToken } });
    expect(login.status).toBe(200);
    expect((await api('GET', '/auth/profile', { token: login.body.accessToken })).status).toBe(200);
    // a social member has no password to change
    const change = await api('POST', '/auth/change-password', { token: login.body.accessToken, body: { currentPassword: 'x', newPassword: 'y-1234567' } });
    expect(change.status).toBe(409);
    expect(change.body.code).toBe('NO_PASSWORD_TO_CHANGE');
  });

  it('a token Kakao does not know is a 400 "Kakao authentication failed"; none at all is a 400 too', async () => {
    const res = await api('POST', '/auth/login/kakao', { body: { accessToken: 'expired-token' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'SOCIAL_AUTH_FAILED', message: '카카오 인증에 실패했습니다.' });
    const none = await api('POST', '/auth/login/kakao', { body: {} });
    expect(none.status).toBe(400);
  });

  it('a Naver continuation token cannot finish a Kakao sign-up', async () => {
    const first = await api<{ accessToken: string }>('POST', '/auth/login/naver', { body: { code: await naverCode(uniqueId('nv')) } });
    const res = await api('POST', '/auth/register/kakao', { body: { registerWhere: '기타', accessToken: first.body.accessToken } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('SOCIAL_TOKEN_INVALID');
  });

  it('a continuation token is no access token for the BFF', async () => {
    const first = await api<{ accessToken: string }>('POST', '/auth/login/kakao', { body: { accessToken: `kakao-${randomInt(1e9)}` } });
    expect((await api('GET', '/auth/profile', { token: first.body.accessToken })).status).toBe(401);
  });
});

describe('with phone verification on', () => {
  it('social sign-up follows the same phone rules as the form', async () => {
    await phoneVerification(true);
    try {
      const first = await api<{ accessToken: string }>('POST', '/auth/login/kakao', { body: { accessToken: `kakao-${randomInt(1e9)}` } });
      expect(first.status).toBe(404);
      const noPhone = await api('POST', '/auth/register/kakao', { body: { registerWhere: '기타', accessToken: first.body.accessToken } });
      expect(noPhone.status).toBe(400);
      expect(noPhone.body.code).toBe('PHONE_NUMBER_INVALID');
      const phoneNumber = uniquePhone();
      const noCode = await api('POST', '/auth/register/kakao', { body: { registerWhere: '기타', phoneNumber, accessToken: first.body.accessToken } });
      expect(noCode.body.code).toBe('SEND_CODE_REQUIRED');
      expect((await api('POST', '/auth/send-phone-number', { body: { phoneNumber } })).status).toBe(201);
      const reg = await api('POST', '/auth/register/kakao', { body: { registerWhere: '기타', phoneNumber, sendCode: await sentCode(phoneNumber), accessToken: first.body.accessToken } });
      expect(reg.status).toBe(201);
    } finally {
      await phoneVerification(false);
    }
  });
});

describe('switched off', () => {
  it('answers 403 with a Korean message once the provider setting is off', async () => {
    await setSettings({ ENABLE_KAKAO_LOGIN: 'false' });
    const res = await eventually(() => api('POST', '/auth/login/kakao', { body: { accessToken: `kakao-${randomInt(1e9)}` } }), (r) => r.status === 403, 20_000);
    expect(res.body).toMatchObject({ code: 'SOCIAL_LOGIN_DISABLED', message: '카카오 로그인을 사용할 수 없습니다.' });
  });
});

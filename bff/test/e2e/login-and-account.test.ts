import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, eventually } from '@smm/testkit';
import { api, newMember, phoneVerification, setSettings, stack, uniqueId } from './support/client.ts';
import { sleep } from './support/money.ts';

beforeAll(() => phoneVerification(false));
afterAll(() => setSettings({ ENABLE_REFERRAL: 'true' }));

const tokenInvalid = { code: 'TOKEN_INVALID', message: '로그인 정보가 만료되었거나 올바르지 않습니다. 다시 로그인해 주세요.' };

describe('POST /api/auth/login (spec §5 Login, §8)', () => {
  it('answers 400 for malformed input, 404 for a wrong id or password, a token otherwise', async () => {
    const member = await newMember();
    const cases: Array<[unknown, number, string]> = [
      [{ id: '', password: 'x' }, 400, '아이디를 입력해 주세요.'],
      [{ id: 'kim lee', password: 'x' }, 400, '아이디에는 공백을 사용할 수 없습니다.'],
      [{ id: member.id, password: '' }, 400, '비밀번호를 입력해 주세요.'],
      [{ id: member.id, password: 'wrong-password' }, 404, '아이디 또는 비밀번호가 올바르지 않습니다.'],
      [{ id: uniqueId('nobody'), password: 'whatever' }, 404, '아이디 또는 비밀번호가 올바르지 않습니다.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api('POST', '/auth/login', { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toBe(message);
    }
    const ok = await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: member.id, password: member.password } });
    expect(ok.status).toBe(200);
    expect(ok.body.accessToken.split('.')).toHaveLength(3);
  });

  it('limits attempts per id with 429 and Retry-After', async () => {
    const member = await newMember();
    let last = await api('POST', '/auth/login', { body: { id: member.id, password: 'wrong' } });
    for (let i = 0; i < 12 && last.status !== 429; i++) last = await api('POST', '/auth/login', { body: { id: member.id, password: 'wrong' } });
    expect(last.status).toBe(429);
    expect(last.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('GET /api/auth/profile', () => {
  it('shows id, point from wallet (0 for a new account), apiKey and referralCode', async () => {
    const member = await newMember();
    // wallet opens the account from UserRegistered a moment after sign-up
    await eventually(async () => (await fetch(`${stack().walletUrl}/accounts/${member.userId}`, { headers: callerHeaders({ to: 'wallet', userId: member.userId, role: 'member' }) })).status, (s) => s === 200);
    const res = await api('GET', '/auth/profile', { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.id, point: 0, apiKey: null, referralCode: null, role: 'member', userId: member.userId });
  });

  it('answers 401 without a token or with a tampered one', async () => {
    const member = await newMember();
    expect((await api('GET', '/auth/profile')).body).toEqual(tokenInvalid);
    const [head, payload] = member.token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'admin' })).toString('base64url');
    const res = await api('GET', '/auth/profile', { token: `${head}.${forged}.${member.token.split('.')[2]}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(tokenInvalid);
  });
});

describe('guest refusals against the real stack', () => {
  it('refuses password change, API key renewal and referral issue without a token', async () => {
    for (const path of ['/auth/change-password', '/auth/api-key', '/auth/referral-code']) {
      const res = await api('POST', path, { body: {} });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'GUEST_NOT_ALLOWED', message: '둘러보기(게스트) 모드에서는 이용할 수 없는 기능입니다. 로그인 후 이용해 주세요.' });
    }
  });
});

describe('POST /api/auth/change-password', () => {
  it('answers 400 for missing fields, 409 when the current password differs, and changes it otherwise', async () => {
    const member = await newMember();
    const missing = await api('POST', '/auth/change-password', { token: member.token, body: { currentPassword: member.password } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('새 비밀번호를 입력해 주세요.');
    const wrong = await api('POST', '/auth/change-password', { token: member.token, body: { currentPassword: 'not-it', newPassword: 'new-pass-1' } });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ code: 'CURRENT_PASSWORD_DIFFERENT', message: '현재 비밀번호가 일치하지 않습니다.' });
    const ok = await api('POST', '/auth/change-password', { token: member.token, body: { currentPassword: member.password, newPassword: 'new-pass-1' } });
    expect(ok.status).toBe(204);
    // The token from before the change is refused at once (the audit placed an order with it).
    expect((await api('GET', '/auth/profile', { token: member.token })).status).toBe(401);
    expect((await api('POST', '/auth/login', { body: { id: member.id, password: member.password } })).status).toBe(404);
    expect((await api('POST', '/auth/login', { body: { id: member.id, password: 'new-pass-1' } })).status).toBe(200);
  });
});

describe('POST /api/auth/api-key', () => {
  it('shows a new key once, masks it in the profile, and the old key stops resolving', async () => {
    const member = await newMember();
    const first = await api<{ apiKey: string; apiKeyPrefix: string }>('POST', '/auth/api-key', { token: member.token });
    expect(first.status).toBe(201);
    const profile = await api<{ apiKey: string }>('GET', '/auth/profile', { token: member.token });
    expect(profile.body.apiKey).not.toBe(first.body.apiKey);
    expect(profile.body.apiKey).toContain(first.body.apiKeyPrefix);
    const second = await api<{ apiKey: string }>('POST', '/auth/api-key', { token: member.token });
    expect(second.body.apiKey).not.toBe(first.body.apiKey);
    const resolve = (apiKey: string) => fetch(`${stack().authUrl}/api-keys/resolve`, { method: 'POST', headers: { 'content-type': 'application/json', ...callerHeaders({ to: 'auth' }) }, body: JSON.stringify({ apiKey }) });
    expect((await resolve(first.body.apiKey)).status).toBe(404);
    expect((await resolve(second.body.apiKey)).status).toBe(200);
  });
});

describe('POST /api/auth/referral-code', () => {
  it('issues one code while the referral setting is on, then 409; refuses while it is off', async () => {
    const member = await newMember();
    const issued = await api<{ referralCode: string }>('POST', '/auth/referral-code', { token: member.token });
    expect(issued.status).toBe(201);
    expect((await api('GET', '/auth/profile', { token: member.token })).body.referralCode).toBe(issued.body.referralCode);
    const again = await api('POST', '/auth/referral-code', { token: member.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'REFERRAL_CODE_EXISTS', message: '추천인 코드가 이미 발급되었습니다.' });

    const other = await newMember();
    await setSettings({ ENABLE_REFERRAL: 'false' });
    const off = await eventually(() => api('POST', '/auth/referral-code', { token: other.token }), (r) => r.status === 409);
    expect(off.body).toMatchObject({ code: 'REFERRAL_DISABLED', message: '추천인 코드 기능이 꺼져 있어 발급할 수 없습니다.' });
    // and a sign-up may no longer name a referrer
    const id = uniqueId();
    const reg = await api('POST', '/auth/register', { body: { id, password: 'pass-1234', email: `${id}@example.com`, registerWhere: '기타', referral: issued.body.referralCode } });
    expect(reg.status).toBe(400);
    expect(reg.body).toMatchObject({ code: 'REFERRAL_DISABLED', message: '추천인 코드를 사용할 수 없습니다.' });
  });
});

describe('sessions', () => {
  it('renew through the refresh cookie and end everywhere on demand', async () => {
    const member = await newMember();
    const login = await fetch(`${stack().bffUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: member.id, password: member.password }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const refresh = () => fetch(`${stack().bffUrl}/api/auth/refresh`, { method: 'POST', headers: { cookie } });
    const renewed = await refresh();
    expect(renewed.status).toBe(200);
    const { accessToken } = (await renewed.json()) as { accessToken: string };
    // Single use: the same cookie value does not work twice.
    expect((await refresh()).status).toBe(401);
    expect((await api('GET', '/auth/profile', { token: accessToken })).status).toBe(200);
    expect((await api('POST', '/auth/logout-everywhere', { token: accessToken })).status).toBe(204);
    expect((await api('GET', '/auth/profile', { token: accessToken })).status).toBe(401);
    expect((await api('GET', '/auth/profile', { token: member.token })).status).toBe(401);
  });

  const logIn = async (member: { id: string; password: string }) => {
    const res = await fetch(`${stack().bffUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: member.id, password: member.password }) });
    const { accessToken } = (await res.json()) as { accessToken: string };
    return { accessToken, cookie: res.headers.get('set-cookie')!.split(';')[0]! };
  };
  const post = (path: string, cookie: string) => fetch(`${stack().bffUrl}/api${path}`, { method: 'POST', headers: { cookie } });

  it('log-out on one device ends that session’s access token at once, and only that session', async () => {
    const member = await newMember();
    const [phone, laptop] = [await logIn(member), await logIn(member)];
    expect((await post('/auth/logout', phone.cookie)).status).toBe(204);
    expect((await api('GET', '/auth/profile', { token: phone.accessToken })).status).toBe(401);
    expect((await api('GET', '/auth/profile', { token: laptop.accessToken })).status).toBe(200);
    expect((await post('/auth/refresh', laptop.cookie)).status).toBe(200);
  });

  it('a spent refresh token presented again ends the whole session: the thief’s tokens and the owner’s', async () => {
    const member = await newMember();
    const first = await logIn(member);
    const renewed = await post('/auth/refresh', first.cookie);
    const next = { accessToken: ((await renewed.json()) as { accessToken: string }).accessToken, cookie: renewed.headers.get('set-cookie')!.split(';')[0]! };
    expect((await api('GET', '/auth/profile', { token: next.accessToken })).status).toBe(200);
    await sleep(1200); // past REFRESH_TOKEN_REUSE_GRACE_SECONDS (1 s here): not two tabs racing
    expect((await post('/auth/refresh', first.cookie)).status).toBe(401);
    expect((await api('GET', '/auth/profile', { token: next.accessToken })).status).toBe(401);
    expect((await post('/auth/refresh', next.cookie)).status).toBe(401);
    // The member's other sessions and a new log-in are not touched.
    expect((await api('GET', '/auth/profile', { token: (await logIn(member)).accessToken })).status).toBe(200);
  });
});

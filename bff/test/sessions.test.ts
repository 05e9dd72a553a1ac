import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';
import { profileBody } from './support/service-bodies.ts';

let h: Harness;
// A long cache: the tests below show the BFF dropping it itself when it relays a change.
beforeAll(async () => {
  h = await startHarness({ sessionStateCacheSeconds: 3600 });
});
afterAll(() => h.stop());
beforeEach(async () => {
  h.auth.reset();
  h.wallet.reset();
  await h.redis.flushdb();
});

const tokenInvalid = { code: 'TOKEN_INVALID', message: '로그인 정보가 만료되었거나 올바르지 않습니다. 다시 로그인해 주세요.' };
const refreshToken = 'r'.repeat(43);
const session = (accessToken: string, refresh = refreshToken) => ({ accessToken, expiresIn: 900, refreshToken: refresh, refreshExpiresIn: 2_592_000 });
const profileOf = (userId: string) => {
  h.auth.on('GET /members/me', { body: profileBody({ userId, id: 'kim', role: 'member', apiKey: null, referralCode: null }) });
  h.wallet.on(`GET /accounts/${userId}`, { body: { userId, point: 0, pointDeci: 0 } });
};
const memberState = (status: string, version: number | null) => h.auth.on('GET /members/member-1/session-state', { body: { userId: 'member-1', status, version, restriction: null } });

describe('log-in and refresh', () => {
  it('answers the access token and keeps the refresh token in an httpOnly, SameSite=Strict cookie only', async () => {
    h.auth.on('POST /sessions', { body: session('access-1') });
    const res = await call(h.url, 'POST', '/api/auth/login', { body: { id: 'kim', password: 'pw' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accessToken: 'access-1', expiresIn: 900 });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain(`smm_refresh=${refreshToken}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/auth/i);
  });

  it('renews the access token from the cookie, and refuses without one or with a spent one', async () => {
    h.auth.on('POST /sessions/refresh', (req) =>
      (req.body as { refreshToken: string }).refreshToken === refreshToken ? { body: session('access-2', 's'.repeat(43)) } : { status: 401, body: { code: 'REFRESH_TOKEN_INVALID', message: 'x' } },
    );
    const renewed = await call(h.url, 'POST', '/api/auth/refresh', { headers: { cookie: `other=1; smm_refresh=${refreshToken}` } });
    expect(renewed).toMatchObject({ status: 200, body: { accessToken: 'access-2', expiresIn: 900 } });
    expect(renewed.headers.get('set-cookie')).toContain(`smm_refresh=${'s'.repeat(43)}`);
    expect(await call(h.url, 'POST', '/api/auth/refresh')).toMatchObject({ status: 401, body: tokenInvalid });
    const spent = await call(h.url, 'POST', '/api/auth/refresh', { headers: { cookie: `smm_refresh=${'t'.repeat(43)}` } });
    expect(spent).toMatchObject({ status: 401, body: tokenInvalid });
    expect(spent.headers.get('set-cookie')).toMatch(/smm_refresh=;/);
  });

  it('revokes this device’s refresh token on log-out', async () => {
    h.auth.on('POST /sessions/revoke', { status: 204 });
    const res = await call(h.url, 'POST', '/api/auth/logout', { headers: { cookie: `smm_refresh=${refreshToken}` } });
    expect(res.status).toBe(204);
    expect(h.auth.calls('POST /sessions/revoke')[0]!.body).toEqual({ refreshToken });
    expect(res.headers.get('set-cookie')).toMatch(/smm_refresh=;/);
  });
});

describe('a verified token is not enough', () => {
  it('refuses a token without exp', async () => {
    profileOf('member-1');
    expect(await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.noExpiry() })).toMatchObject({ status: 401, body: tokenInvalid });
  });

  it('refuses tokens of an older version, a banned member and a deleted one, on every route', async () => {
    profileOf('member-1');
    memberState('active', 2);
    expect((await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.version(1) })).status).toBe(401);
    expect((await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.version(2) })).status).toBe(200);
    for (const [status, version] of [['banned', 2], ['deleted', null]] as const) {
      await h.redis.flushdb();
      memberState(status, version);
      expect((await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.version(2) })).status, status).toBe(401);
      expect((await call(h.url, 'POST', '/api/auth/referral-code', { token: h.keys.version(2) })).status, status).toBe(401);
    }
  });

  it('ends the old token at once when the member changes the password here', async () => {
    profileOf('member-1');
    const old = h.keys.member();
    expect((await call(h.url, 'GET', '/api/auth/profile', { token: old })).status).toBe(200);
    h.auth.on('PUT /members/me/password', { status: 204 });
    const changed = await call(h.url, 'POST', '/api/auth/change-password', { token: old, body: { currentPassword: 'a', newPassword: 'b' } });
    expect(changed.status).toBe(204);
    expect(changed.headers.get('set-cookie')).toMatch(/smm_refresh=;/);
    memberState('active', 1);
    expect(await call(h.url, 'GET', '/api/auth/profile', { token: old })).toMatchObject({ status: 401, body: tokenInvalid });
  });

  it('logs out everywhere: the old token stops working at once', async () => {
    profileOf('member-1');
    const old = h.keys.member();
    expect((await call(h.url, 'GET', '/api/auth/profile', { token: old })).status).toBe(200);
    h.auth.on('POST /members/me/sessions/end', { body: { version: 1 } });
    expect((await call(h.url, 'POST', '/api/auth/logout-everywhere', { token: old })).status).toBe(204);
    memberState('active', 1);
    expect((await call(h.url, 'GET', '/api/auth/profile', { token: old })).status).toBe(401);
  });

  it('answers 503 rather than let a token through while auth cannot tell', async () => {
    profileOf('member-1');
    h.auth.on('GET /members/member-1/session-state', { status: 500, body: { code: 'INTERNAL', message: 'x' } });
    expect((await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.member() })).status).toBe(503);
  });
});

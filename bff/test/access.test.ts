import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';
import { profileBody } from './support/service-bodies.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(() => {
  h.auth.reset();
  h.catalog.reset();
  h.wallet.reset();
});

const tokenInvalid = { code: 'TOKEN_INVALID', message: '로그인 정보가 만료되었거나 올바르지 않습니다. 다시 로그인해 주세요.' };
const guestRefused = { code: 'GUEST_NOT_ALLOWED', message: '둘러보기(게스트) 모드에서는 이용할 수 없는 기능입니다. 로그인 후 이용해 주세요.' };

describe('GET /api/auth/profile', () => {
  it('answers 401 "token invalid or expired" without a token and for every kind of bad token', async () => {
    const bad = [undefined, 'garbage', h.keys.expired(), h.keys.otherKey(), h.keys.otherIssuer(), h.keys.hs256(), h.keys.unsigned(), h.keys.noRole()];
    for (const token of bad) {
      const res = await call(h.url, 'GET', '/api/auth/profile', token === undefined ? {} : { token });
      expect(res.status, String(token)).toBe(401);
      expect(res.body).toEqual(tokenInvalid);
    }
    expect(h.auth.requests).toEqual([]);
  });

  it('joins auth profile and wallet balance, naming the caller, request and client to both', async () => {
    h.auth.on('GET /members/me', {
      body: profileBody({ userId: 'member-1', id: 'kim', role: 'member', apiKey: 'smm_ab12…', apiKeyPrefix: 'smm_ab12', referralCode: 'K7QX2M9P', email: 'kim@example.com' }),
    });
    h.wallet.on('GET /accounts/member-1', { body: { userId: 'member-1', point: 1234.5, pointDeci: 12345 } });
    // Without TRUST_PROXY a client's own X-Forwarded-For is not believed: the connecting address counts.
    const res = await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.member(), headers: { 'x-correlation-id': 'corr-123', 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'kim', point: 1234.5, pointDeci: 12345, apiKey: 'smm_ab12…', referralCode: 'K7QX2M9P', role: 'member' });
    for (const recorded of [h.auth.calls('GET /members/me')[0]!, h.wallet.calls('GET /accounts/member-1')[0]!]) {
      expect(recorded.caller).toEqual({ service: 'bff', userId: 'member-1', role: 'member' });
      expect(recorded.headers['x-user-id']).toBeUndefined();
      expect(recorded.headers['x-correlation-id']).toBe('corr-123');
      expect(recorded.headers['x-client-ip']).toBe('127.0.0.1');
      expect(recorded.headers['x-request-id']).toBe(res.headers.get('x-request-id'));
    }
  });

  it('signs every call with a credential for that service alone, short-lived, naming no member for a guest', async () => {
    h.catalog.on('GET /platforms', { body: [] });
    expect((await call(h.url, 'GET', '/api/service/platforms')).status).toBe(200);
    const sent = h.catalog.calls('GET /platforms')[0]!;
    expect(sent.caller).toEqual({ service: 'bff', userId: null, role: null });
    const token = sent.headers.authorization!.replace(/^Bearer /, '');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { aud: string; iat: number; exp: number };
    expect(claims.aud).toBe('catalog');
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(60);
  });

  it('shows 0 points while wallet has not opened the account yet', async () => {
    h.auth.on('GET /members/me', { body: profileBody({ userId: 'member-1', id: 'kim', role: 'member', apiKey: null, referralCode: null }) });
    h.wallet.on('GET /accounts/member-1', { status: 404, body: { code: 'ACCOUNT_NOT_FOUND', message: '포인트 계정을 찾을 수 없습니다.' } });
    const res = await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.member() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'kim', point: 0, apiKey: null, referralCode: null });
  });

  it('answers 401 when the token names a member auth no longer knows', async () => {
    h.auth.on('GET /members/me', { status: 404, body: { code: 'MEMBER_NOT_FOUND', message: '회원 정보를 찾을 수 없습니다.' } });
    h.wallet.on('GET /accounts/member-1', { body: { userId: 'member-1', point: 0, pointDeci: 0 } });
    const res = await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.member() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(tokenInvalid);
  });
});

describe('guest-blocked actions (spec §5 Other)', () => {
  const blocked = [
    ['/api/auth/change-password', 'PUT /members/me/password'],
    ['/api/auth/api-key', 'POST /members/me/api-key'],
    ['/api/auth/referral-code', 'POST /members/me/referral-code'],
  ] as const;

  it('refuses a guest (no token) with the refusal message and never reaches auth', async () => {
    for (const [path] of blocked) {
      for (const headers of [{}, { authorization: 'Bearer null' }, { authorization: '' }] as Array<Record<string, string>>) {
        const res = await call(h.url, 'POST', path, { body: {}, headers });
        expect(res.status, path).toBe(401);
        expect(res.body).toEqual(guestRefused);
      }
    }
    expect(h.auth.requests).toEqual([]);
  });

  it('answers a bad token with "token invalid", not the guest message', async () => {
    for (const [path] of blocked) {
      const res = await call(h.url, 'POST', path, { token: h.keys.expired(), body: {} });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(tokenInvalid);
    }
  });

  it('forwards a member to auth and passes its answers on', async () => {
    h.auth.on('PUT /members/me/password', { status: 409, body: { code: 'CURRENT_PASSWORD_DIFFERENT', message: '현재 비밀번호가 일치하지 않습니다.' } });
    h.auth.on('POST /members/me/api-key', { status: 201, body: { apiKey: 'smm_full_key', apiKeyPrefix: 'smm_full' } });
    h.auth.on('POST /members/me/referral-code', { status: 409, body: { code: 'REFERRAL_CODE_EXISTS', message: '추천인 코드가 이미 발급되었습니다.' } });
    const token = h.keys.member();
    const change = await call(h.url, 'POST', '/api/auth/change-password', { token, body: { currentPassword: 'old', newPassword: 'new-one', extra: 'dropped' } });
    expect(change.status).toBe(409);
    expect(change.body).toEqual({ code: 'CURRENT_PASSWORD_DIFFERENT', message: '현재 비밀번호가 일치하지 않습니다.' });
    expect(h.auth.calls('PUT /members/me/password')[0]!.body).toEqual({ currentPassword: 'old', newPassword: 'new-one' });
    const key = await call(h.url, 'POST', '/api/auth/api-key', { token });
    expect(key.status).toBe(201);
    expect(key.body).toEqual({ apiKey: 'smm_full_key', apiKeyPrefix: 'smm_full' });
    const referral = await call(h.url, 'POST', '/api/auth/referral-code', { token });
    expect(referral.status).toBe(409);
    expect(h.auth.calls('POST /members/me/referral-code')[0]!.caller?.userId).toBe('member-1');
  });
});

describe('admin routes', () => {
  it('answer 401 to anonymous callers and 403 to members, without reaching catalog', async () => {
    for (const [method, path] of [
      ['GET', '/api/admin/services'],
      ['POST', '/api/admin/services'],
      ['PATCH', '/api/admin/platforms/1'],
      ['DELETE', '/api/admin/notices/3'],
      ['PUT', '/api/admin/settings'],
      ['PUT', '/api/admin/settings/MAIN_COLOR'],
    ] as const) {
      const anonymous = await call(h.url, method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body).toEqual(tokenInvalid);
      const member = await call(h.url, method, path, { token: h.keys.member(), body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(member.status, `${method} ${path}`).toBe(403);
      expect(member.body).toEqual({ code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' });
    }
    expect(h.catalog.requests).toEqual([]);
  });

  it('refuse staff: the catalogue, notices, FAQ and settings are the admin\'s (issue 12)', async () => {
    for (const [method, path] of [
      ['GET', '/api/admin/platforms'],
      ['PUT', '/api/admin/platforms/order'],
      ['PATCH', '/api/admin/services/7'],
      ['POST', '/api/admin/notices'],
      ['DELETE', '/api/admin/faqs/1'],
      ['GET', '/api/admin/settings'],
      ['PUT', '/api/admin/settings'],
    ] as const) {
      const staff = await call(h.url, method, path, { token: h.keys.staff(), body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(staff.status, `${method} ${path}`).toBe(403);
      expect(staff.body).toEqual({ code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' });
    }
    expect(h.catalog.requests).toEqual([]);
  });

  it('forwards an admin to catalog /admin/... with the body and the admin role', async () => {
    h.catalog.on('POST /admin/services', (req) => ({ status: 201, body: { id: 99, ...(req.body as object) } }));
    h.catalog.on('PATCH /admin/categories/4', { status: 400, body: { code: 'VALIDATION_FAILED', message: '이름을 입력해 주세요.' } });
    h.catalog.on('DELETE /admin/faqs/2', { status: 204 });
    const token = h.keys.admin();
    const created = await call(h.url, 'POST', '/api/admin/services', { token, body: { text: '좋아요', categoryId: 1, min: 10, max: 100, point: '2.5' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 99, text: '좋아요', point: '2.5' });
    const sent = h.catalog.calls('POST /admin/services')[0]!;
    expect(sent.caller).toEqual({ service: 'bff', userId: 'admin-1', role: 'admin' });
    // the spec's public spelling "categorys" reaches the same resource
    const patched = await call(h.url, 'PATCH', '/api/admin/categorys/4', { token, body: { text: '' } });
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual({ code: 'VALIDATION_FAILED', message: '이름을 입력해 주세요.' });
    const deleted = await call(h.url, 'DELETE', '/api/admin/qnas/2', { token });
    expect(deleted.status).toBe(204);
  });

  it('answers 404 for resources that are not part of the admin API', async () => {
    const res = await call(h.url, 'GET', '/api/admin/members', { token: h.keys.admin() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'ROUTE_NOT_FOUND', message: '요청한 경로를 찾을 수 없습니다.' });
    expect(h.catalog.requests).toEqual([]);
  });
});

describe('auth calls without a token', () => {
  it('pass status codes, Korean messages, the continuation token and Retry-After on', async () => {
    h.auth.on('POST /sessions', { status: 404, body: { code: 'INVALID_CREDENTIALS', message: '아이디 또는 비밀번호가 올바르지 않습니다.' } });
    h.auth.on('POST /sessions/naver', { status: 404, body: { code: 'SOCIAL_ACCOUNT_NOT_REGISTERED', message: '가입되지 않은 계정입니다. 회원가입을 진행해 주세요.', accessToken: 'continue-here' } });
    h.auth.on('POST /phone-verifications', { status: 429, headers: { 'retry-after': '42' }, body: { code: 'CODE_RESEND_TOO_SOON', message: '인증번호는 42초 후에 다시 받을 수 있습니다.' } });
    const login = await call(h.url, 'POST', '/api/auth/login', { body: { id: 'kim', password: 'x' } });
    expect(login.status).toBe(404);
    expect(login.body.message).toBe('아이디 또는 비밀번호가 올바르지 않습니다.');
    const naver = await call(h.url, 'POST', '/api/auth/login/naver', { body: { code: 'abc' } });
    expect(naver.status).toBe(404);
    expect(naver.body.accessToken).toBe('continue-here');
    const send = await call(h.url, 'POST', '/api/auth/send-phone-number', { body: { phoneNumber: '01012345678' } });
    expect(send.status).toBe(429);
    expect(send.headers.get('retry-after')).toBe('42');
  });

  it('sends auth only the fields of spec §3 and answers 400 in Korean for fields of the wrong type', async () => {
    h.auth.on('POST /members', { status: 201, body: { userId: 'u-9', loginId: 'kim' } });
    h.catalog.on('GET /register-where', { body: [{ id: 1, text: '검색' }, { id: 2, text: '지인 추천' }] });
    const ok = await call(h.url, 'POST', '/api/auth/register', {
      body: { id: 'kim', password: 'pw', email: 'k@e.kr', registerWhere: '검색', phoneNumber: null, sendCode: null, referral: '', role: 'admin' },
    });
    expect(ok.status).toBe(201);
    expect(h.auth.calls('POST /members')[0]!.body).toEqual({ id: 'kim', password: 'pw', email: 'k@e.kr', registerWhere: '검색', referral: '' });

    for (const body of [{ id: 123, password: 'x' }, ['id'], { id: 'kim', password: { $ne: '' } }]) {
      const bad = await call(h.url, 'POST', '/api/auth/login', { body });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('입력 형식이 올바르지 않습니다.');
    }
    expect(h.auth.calls('POST /sessions')).toEqual([]);
  });

  it('refuses a registration path the form does not offer, and sends auth nothing', async () => {
    h.catalog.on('GET /register-where', { body: [{ id: 1, text: '검색' }] });
    const before = h.auth.calls('POST /members').length;
    for (const path of ['/api/auth/register', '/api/auth/register/naver']) {
      const res = await call(h.url, 'POST', path, { body: { id: 'kim', password: 'pw-12345', email: 'k@e.kr', registerWhere: '해킹', accessToken: 't' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'REGISTER_WHERE_INVALID', message: '가입 경로는 제시된 항목 중에서 선택해 주세요.' });
    }
    expect(h.auth.calls('POST /members').length).toBe(before);
    expect(h.auth.calls('POST /members/naver')).toEqual([]);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await call(h.url, 'GET', '/api/service/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('API documentation', () => {
  it('takes its base URL from configuration, never from the Host header', async () => {
    const forged = await call(h.url, 'GET', '/api/service/api-docs', { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    expect(forged.status).toBe(200);
    expect(JSON.stringify(forged.body)).not.toContain('evil.example');
    const configured = await startHarness({ publicBaseUrl: 'https://panel.example.com/' });
    try {
      expect((await call(configured.url, 'GET', '/api/service/api-docs')).body.baseUrl).toBe('https://panel.example.com/api');
    } finally {
      await configured.stop();
    }
  });
});

describe('deeply nested JSON', () => {
  it('is a 400 at the edge, never reaching a service (it used to overflow the stack: 500)', async () => {
    const body = '['.repeat(5000) + ']'.repeat(5000);
    const res = await fetch(`${h.url}/api/admin/notices`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.keys.admin()}` }, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'JSON_TOO_DEEP' });
    expect(h.catalog.requests).toEqual([]);
  });
});

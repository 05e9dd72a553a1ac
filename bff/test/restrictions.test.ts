import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';
import { profileBody } from './support/service-bodies.ts';

// Auth is a fake here, so the BFF's own part shows: the refusal on every surface, its Korean
// message, the clock check on a kept answer, and the cache dropped when an operator's change is
// relayed. test/e2e/restrictions.test.ts runs the same story against the real auth service.
let h: Harness;
beforeAll(async () => {
  // A long cache: a suspension must still end on time, and a lift must count at once.
  h = await startHarness({ sessionStateCacheSeconds: 3600, reseller: { apiKeyCacheSeconds: 60, ratePerMinute: 100 } });
});
afterAll(() => h.stop());
beforeEach(async () => {
  for (const fake of [h.auth, h.wallet]) fake.reset();
  await h.redis.flushdb();
  h.auth.on('GET /members/me', { body: profileBody({ userId: 'member-1', id: 'kim', role: 'member', apiKey: null, referralCode: null, restriction: null }) });
  h.wallet.on('GET /accounts/member-1', { body: { userId: 'member-1', point: 12, pointDeci: 120 } });
  h.auth.on('POST /api-keys/resolve', { body: { userId: 'member-1', loginId: 'kim', role: 'member' } });
});

let restriction: Record<string, unknown> | null = null;
const stateNow = () =>
  h.auth.on('GET /members/member-1/session-state', () => ({
    body: { userId: 'member-1', status: restriction === null || restriction.level === 'warning' ? 'active' : restriction.level, version: 0, restriction },
  }));
const profile = () => call(h.url, 'GET', '/api/auth/profile', { token: h.keys.member() });
const resellerServices = () => call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'smm_key-of-member-1' } });
const v2Balance = () => call(h.url, 'POST', '/api/v2', { body: { key: 'smm_key-of-member-1', action: 'balance' } });

describe('restrictions at the BFF', () => {
  it('refuses a suspended member on the web and reseller APIs with the Korean message, and lets it in once the end passed, though the answer is kept', async () => {
    const until = new Date(Date.now() + 4000).toISOString();
    restriction = { level: 'suspended', reason: '부정 결제', until };
    stateNow();
    const kst = new Date(Date.parse(until) + 9 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
    const message = `이용이 정지된 계정입니다(기간 정지, ${kst} KST까지). 사유: 부정 결제`;
    expect(await profile()).toMatchObject({ status: 403, body: { code: 'MEMBER_SUSPENDED', message } });
    expect(await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), body: { serviceId: 1, link: 'x', amount: 10 } })).toMatchObject({ status: 403, body: { code: 'MEMBER_SUSPENDED' } });
    expect(await resellerServices()).toMatchObject({ status: 403, body: { code: 'MEMBER_SUSPENDED', message } });
    expect(await v2Balance()).toMatchObject({ status: 403, body: { error: message } });
    expect(h.wallet.calls('GET /accounts/member-1')).toHaveLength(0);

    await new Promise((resolve) => setTimeout(resolve, Date.parse(until) - Date.now() + 100));
    expect((await profile()).status).toBe(200);
    expect(await v2Balance()).toMatchObject({ status: 200, body: { balance: '12.0', currency: 'KRW' } });
    // Answered from the kept state: auth was asked once.
    expect(h.auth.calls('GET /members/member-1/session-state')).toHaveLength(1);
  });

  it('a ban relayed by an operator counts on the very next request, and so does its lifting', async () => {
    restriction = null;
    stateNow();
    expect((await profile()).status).toBe(200);
    expect((await v2Balance()).status).toBe(200);

    h.auth.on('PUT /admin/members/member-1/restriction', (req) => {
      const body = req.body as { level: string; reason: string };
      restriction = body.level === 'none' ? null : { level: body.level, reason: body.reason, until: null };
      return { body: { userId: 'member-1', loginId: 'kim', before: null, restriction } };
    });
    const ban = await call(h.url, 'PUT', '/api/admin/members/member-1/restriction', { token: h.keys.admin(), body: { level: 'banned', reason: '계정 도용' } });
    expect(ban.status).toBe(200);
    expect(h.auth.calls('PUT /admin/members/member-1/restriction')[0]!.body).toEqual({ level: 'banned', reason: '계정 도용' });
    const banned = { code: 'MEMBER_BANNED', message: '이용이 영구 정지된 계정입니다. 사유: 계정 도용' };
    expect(await profile()).toMatchObject({ status: 403, body: banned });
    expect(await resellerServices()).toMatchObject({ status: 403, body: banned });
    expect(await v2Balance()).toMatchObject({ status: 403, body: { error: banned.message } });

    expect((await call(h.url, 'PUT', '/api/admin/members/member-1/restriction', { token: h.keys.admin(), body: { level: 'none', reason: '오인 제재' } })).status).toBe(200);
    expect((await profile()).status).toBe(200);
    expect((await v2Balance()).status).toBe(200);
  });

  it('a state read while a ban is relayed is not kept: the next request is refused (issue 41)', async () => {
    restriction = null;
    // Auth's answer is computed when the read arrives (active) and sent 2 s later, so the ban is
    // relayed while the read is on its way back.
    h.auth.on('GET /members/member-1/session-state', () => ({ body: { userId: 'member-1', status: restriction === null ? 'active' : 'banned', version: 0, restriction }, delayMs: 2000 }));
    h.auth.on('PUT /admin/members/member-1/restriction', () => {
      restriction = { level: 'banned', reason: '계정 도용', until: null };
      return { body: { userId: 'member-1', loginId: 'kim', before: null, restriction } };
    });
    const inFlight = profile();
    await expect.poll(() => h.auth.calls('GET /members/member-1/session-state').length, { timeout: 10_000 }).toBe(1);
    expect((await call(h.url, 'PUT', '/api/admin/members/member-1/restriction', { token: h.keys.admin(), body: { level: 'banned', reason: '계정 도용' } })).status).toBe(200);
    expect((await inFlight).status).toBe(200);
    stateNow();
    expect(await profile()).toMatchObject({ status: 403, body: { code: 'MEMBER_BANNED' } });
  });

  it('a warning blocks nothing', async () => {
    restriction = { level: 'warning', reason: '욕설', until: null };
    stateNow();
    expect((await profile()).status).toBe(200);
    expect((await v2Balance()).status).toBe(200);
  });

  it('members may not restrict anyone', async () => {
    restriction = null;
    stateNow();
    const answer = await call(h.url, 'PUT', '/api/admin/members/member-2/restriction', { token: h.keys.member(), body: { level: 'banned', reason: 'x' } });
    expect(answer.status).toBe(403);
    expect(h.auth.calls('PUT /admin/members/member-2/restriction')).toHaveLength(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@smm/contracts';
import { AuthUnderTest, type Infra, as, collectAuthEvents, eventually, freshId, startInfra, firstAdmin, signInFirstAdmin } from './support/harness.ts';

let infra: Infra;
let auth: AuthUnderTest;
let authEvents: Awaited<ReturnType<typeof collectAuthEvents>>;
let admin: { userId: string; as: Record<string, string> };

beforeAll(async () => {
  infra = await startInfra();
  auth = await AuthUnderTest.start(infra, null, firstAdmin);
  authEvents = await collectAuthEvents(infra);
  admin = await signInFirstAdmin(auth);
});

afterAll(async () => {
  await authEvents?.stop();
  await auth?.stop();
  await infra?.stop();
});

async function newMember() {
  const id = freshId('rst');
  const created = await auth.post<{ userId: string }>('/members', { id, password: 'secret-123', email: `${id}@example.com`, registerWhere: '블로그' });
  expect(created.status).toBe(201);
  return { id, userId: created.body.userId, as: as(created.body.userId) };
}

const restrict = (userId: string, body: Record<string, unknown>, who = admin.as) => auth.call('PUT', `/admin/members/${userId}/restriction`, body, who);
const logIn = (m: { id: string }) => auth.post<{ accessToken?: string; code?: string; message?: string }>('/sessions', { id: m.id, password: 'secret-123' });
const state = (userId: string) => auth.call<{ status: string; restriction: unknown }>('GET', `/members/${userId}/session-state`);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('member restrictions', () => {
  it('a suspension keeps the member out with the level, the reason and the end in KST; lifting lets it in again', async () => {
    const m = await newMember();
    const until = '2030-12-24T15:00:00.000Z';
    const set = await restrict(m.userId, { level: 'suspended', reason: '부정 결제 시도', until: '2030-12-25T00:00:00+09:00' });
    expect(set).toMatchObject({ status: 200, body: { userId: m.userId, loginId: m.id, before: null, restriction: { level: 'suspended', reason: '부정 결제 시도', until } } });

    const refused = await logIn(m);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('MEMBER_SUSPENDED');
    expect(refused.body.message).toBe('이용이 정지된 계정입니다(기간 정지, 2030-12-25 00:00:00 KST까지). 사유: 부정 결제 시도');
    expect((await state(m.userId)).body).toMatchObject({ status: 'suspended', restriction: { level: 'suspended', until } });

    expect(await restrict(m.userId, { level: 'none', reason: '소명 확인' })).toMatchObject({ status: 200, body: { before: { level: 'suspended' }, restriction: null } });
    expect((await logIn(m)).status).toBe(200);
    expect((await state(m.userId)).body).toMatchObject({ status: 'active', restriction: null });

    const detail = await auth.call<{ restriction: unknown; restrictionHistory: Array<Record<string, unknown>> }>('GET', `/admin/members/${m.userId}`, undefined, admin.as);
    expect(detail.body.restriction).toBeNull();
    expect(detail.body.restrictionHistory).toMatchObject([
      { level: null, previousLevel: 'suspended', reason: '소명 확인', changedByLoginId: 'root' },
      { level: 'suspended', previousLevel: null, reason: '부정 결제 시도', until, changedByLoginId: 'root' },
    ]);
    const events = await eventually(
      () => authEvents.events.filter((e: EventEnvelope) => e.type === 'MemberRestrictionChanged' && e.aggregateId === m.userId),
      (list) => list.length >= 2,
    );
    expect(events.map((e) => e.data)).toEqual([
      { userId: m.userId, level: 'suspended', previousLevel: null, reason: '부정 결제 시도', until, changedBy: admin.userId },
      { userId: m.userId, level: null, previousLevel: 'suspended', reason: '소명 확인', until: null, changedBy: admin.userId },
    ]);
  });

  it('a suspension ends by itself at its date', async () => {
    const m = await newMember();
    const refresh = (await logIn(m)).body as { refreshToken?: string };
    expect((await restrict(m.userId, { level: 'suspended', reason: '도배', until: new Date(Date.now() + 1500).toISOString() })).status).toBe(200);
    expect((await logIn(m)).status).toBe(403);
    expect((await auth.post('/sessions/refresh', { refreshToken: refresh.refreshToken })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1700));
    expect((await logIn(m)).status).toBe(200);
    expect((await state(m.userId)).body).toMatchObject({ status: 'active', restriction: null });
  });

  it('a ban refuses log-in for good; a warning does not block and the member sees it on the profile', async () => {
    const banned = await newMember();
    expect((await restrict(banned.userId, { level: 'banned', reason: '타인 계정 도용' })).status).toBe(200);
    expect(await logIn(banned)).toMatchObject({ status: 403, body: { code: 'MEMBER_BANNED', message: '이용이 영구 정지된 계정입니다. 사유: 타인 계정 도용' } });
    expect((await state(banned.userId)).body.status).toBe('banned');

    const warned = await newMember();
    expect((await restrict(warned.userId, { level: 'warning', reason: '욕설 문의' })).status).toBe(200);
    expect((await logIn(warned)).status).toBe(200);
    expect((await state(warned.userId)).body).toMatchObject({ status: 'active', restriction: { level: 'warning', reason: '욕설 문의', until: null } });
    expect((await auth.call('GET', '/members/me', undefined, warned.as)).body).toMatchObject({ restriction: { level: 'warning', reason: '욕설 문의', until: null } });
  });

  it('shows the level in force in the member list', async () => {
    const m = await newMember();
    await restrict(m.userId, { level: 'banned', reason: '스팸' });
    const list = await auth.call<{ items: Array<{ userId: string; restrictionLevel: string | null }> }>('GET', `/admin/members?q=${m.id}`, undefined, admin.as);
    expect(list.body.items).toEqual([expect.objectContaining({ userId: m.userId, restrictionLevel: 'banned' })]);
  });

  it('refuses a missing reason, a bad level, a past or missing end, changing nothing', async () => {
    const m = await newMember();
    expect(await restrict(m.userId, { level: 'banned', reason: '  ' })).toMatchObject({ status: 400, body: { code: 'RESTRICTION_REASON_REQUIRED', message: '제재 사유를 입력해 주세요.' } });
    expect(await restrict(m.userId, { level: 'jail', reason: 'x' })).toMatchObject({ status: 400, body: { code: 'RESTRICTION_LEVEL_INVALID' } });
    expect(await restrict(m.userId, { level: 'suspended', reason: 'x' })).toMatchObject({ status: 400, body: { code: 'RESTRICTION_UNTIL_INVALID' } });
    expect(await restrict(m.userId, { level: 'suspended', reason: 'x', until: '2099-01-01 00:00' })).toMatchObject({ status: 400, body: { code: 'RESTRICTION_UNTIL_INVALID' } });
    expect(await restrict(m.userId, { level: 'suspended', reason: 'x', until: inDays(-1) })).toMatchObject({ status: 400, body: { code: 'RESTRICTION_UNTIL_PAST' } });
    expect(await restrict(m.userId, { level: 'suspended', reason: 'x', until: '2099-01-01T00:00:00+09:00' })).toMatchObject({ status: 400, body: { code: 'RESTRICTION_UNTIL_TOO_FAR' } });
    expect(await restrict(m.userId, { level: 'none', reason: 'x' })).toMatchObject({ status: 409, body: { code: 'RESTRICTION_NONE' } });
    expect((await restrict('no-such-member', { level: 'warning', reason: 'x' })).status).toBe(404);
    expect((await logIn(m)).status).toBe(200);
    const detail = await auth.call<{ restrictionHistory: unknown[] }>('GET', `/admin/members/${m.userId}`, undefined, admin.as);
    expect(detail.body.restrictionHistory).toEqual([]);
  });

  it('staff may restrict members; members may not; operators cannot be restricted', async () => {
    const staff = await newMember();
    await auth.call('PUT', `/admin/members/${staff.userId}/role`, { role: 'staff' }, admin.as);
    const m = await newMember();
    expect((await restrict(m.userId, { level: 'warning', reason: '경고' }, as(staff.userId))).status).toBe(200);
    const other = await newMember();
    expect((await restrict(other.userId, { level: 'banned', reason: 'x' }, m.as)).status).toBe(403);
    expect(await restrict(staff.userId, { level: 'banned', reason: 'x' })).toMatchObject({ status: 409, body: { code: 'RESTRICTION_OPERATOR' } });
    expect(await restrict(admin.userId, { level: 'banned', reason: 'x' }, as(staff.userId))).toMatchObject({ status: 409, body: { code: 'RESTRICTION_OPERATOR' } });
    expect((await logIn(other)).status).toBe(200);
  });

  it('no operator restricts or lifts their own account (issue 39): 403 SELF_ACTION in Korean, nothing recorded', async () => {
    // A member restricted, then made staff, tries to lift their own warning; an admin tries to ban themselves.
    const m = await newMember();
    expect((await restrict(m.userId, { level: 'warning', reason: '경고' })).status).toBe(200);
    expect((await auth.call('PUT', `/admin/members/${m.userId}/role`, { role: 'staff' }, admin.as)).status).toBe(200);
    const lift = await restrict(m.userId, { level: 'none', reason: '본인 해제' }, as(m.userId));
    expect(lift).toMatchObject({ status: 403, body: { code: 'SELF_ACTION', message: '본인 계정은 제재하거나 제재를 해제할 수 없습니다. 다른 운영자에게 요청해 주세요.' } });
    expect(await restrict(admin.userId, { level: 'banned', reason: '본인' })).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    const detail = await auth.call<{ restrictionHistory: unknown[] }>('GET', `/admin/members/${m.userId}`, undefined, admin.as);
    expect(detail.body.restrictionHistory).toHaveLength(1);
  });
});

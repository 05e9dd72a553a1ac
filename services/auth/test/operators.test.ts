import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/messages.ts';
import { AuthUnderTest, type Infra, as, freshId, startInfra, firstAdmin, signInFirstAdmin } from './support/harness.ts';

let infra: Infra;
let auth: AuthUnderTest;
let admin: { userId: string; as: Record<string, string> };

beforeAll(async () => {
  infra = await startInfra();
  auth = await AuthUnderTest.start(infra, null, firstAdmin);
  admin = await signInFirstAdmin(auth);
});

afterAll(async () => {
  await auth?.stop();
  await infra?.stop();
});

async function newMember() {
  const id = freshId();
  const created = await auth.post<{ userId: string }>('/members', { id, password: 'secret-123', email: `${id}@example.com`, registerWhere: '블로그' });
  expect(created.status).toBe(201);
  return { id, userId: created.body.userId, as: as(created.body.userId) };
}

describe('operator lookups', () => {
  it('answers login ids for internal ids, skipping unknown ones', async () => {
    const a = await newMember();
    const b = await newMember();
    const answer = await auth.post<{ items: Array<{ userId: string; loginId: string }> }>('/admin/members/login-ids', { userIds: [a.userId, b.userId, 'nobody'] }, admin.as);
    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(2);
    expect(answer.body.items).toEqual(expect.arrayContaining([{ userId: a.userId, loginId: a.id }, { userId: b.userId, loginId: b.id }]));
  });

  it('finds a member by login id in any letter case', async () => {
    const a = await newMember();
    const answer = await auth.call('GET', `/admin/members/by-login-id/${a.id.toUpperCase()}`, undefined, admin.as);
    expect(answer).toMatchObject({ status: 200, body: { userId: a.userId, loginId: a.id } });
    expect((await auth.call('GET', '/admin/members/by-login-id/no-such-member', undefined, admin.as)).status).toBe(404);
  });

  it('refuses members (403) and callers without an id (401)', async () => {
    const m = await newMember();
    expect(await auth.post('/admin/members/login-ids', { userIds: [] }, m.as)).toMatchObject({ status: 403, body: { code: 'ADMIN_ONLY', message: messages.operatorOnly } });
    expect((await auth.post('/admin/members/login-ids', { userIds: [] })).status).toBe(401);
  });

  it('answers 400 for a malformed id list', async () => {
    expect(await auth.post('/admin/members/login-ids', { userIds: 'x' }, admin.as)).toMatchObject({ status: 400, body: { code: 'USER_IDS_INVALID' } });
    expect((await auth.post('/admin/members/login-ids', { userIds: ['a b'] }, admin.as)).status).toBe(400);
  });
});

describe('staff role', () => {
  it('an admin makes a member staff: the next login token says staff, and staff may use operator lookups but not change roles', async () => {
    const m = await newMember();
    const other = await newMember();
    expect(await auth.call('PUT', `/admin/members/${m.userId}/role`, { role: 'staff' }, admin.as)).toMatchObject({ status: 200, body: { role: 'staff', loginId: m.id } });
    const login = await auth.post<{ accessToken: string }>('/sessions', { id: m.id, password: 'secret-123' });
    expect(jwt.decode(login.body.accessToken, { json: true })?.role).toBe('staff');
    expect((await auth.post('/admin/members/login-ids', { userIds: [other.userId] }, m.as)).status).toBe(200);
    expect(await auth.call('PUT', `/admin/members/${other.userId}/role`, { role: 'staff' }, m.as)).toMatchObject({ status: 403, body: { message: messages.adminOnly } });
  });

  it('refuses an unknown role, the admin account and the caller itself, changing nothing', async () => {
    const m = await newMember();
    expect(await auth.call('PUT', `/admin/members/${m.userId}/role`, { role: 'admin' }, admin.as)).toMatchObject({ status: 400, body: { code: 'ROLE_INVALID' } });
    expect(await auth.call('PUT', `/admin/members/${admin.userId}/role`, { role: 'member' }, admin.as)).toMatchObject({ status: 409, body: { code: 'ROLE_OWN' } });
    expect((await auth.call('GET', '/members/me', undefined, m.as)).body).toMatchObject({ role: 'member' });
  });
});

describe('member search and detail', () => {
  it('finds members by the start of a login id, an e-mail or a phone number, and pages', async () => {
    const prefix = freshId('srch').slice(0, 12);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = `${prefix}${i}`;
      const created = await auth.post<{ userId: string }>('/members', { id, password: 'secret-123', email: `${id}@search.example.com`, registerWhere: '블로그' });
      expect(created.status).toBe(201);
      ids.push(id);
    }
    type Found = { items: Array<{ loginId: string; email: string | null }>; hasNext: boolean };
    const first = await auth.call<Found>('GET', `/admin/members?q=${prefix.toUpperCase()}&pageSize=2`, undefined, admin.as);
    expect(first.body.items.map((m) => m.loginId)).toEqual(ids.slice(0, 2));
    expect(first.body.hasNext).toBe(true);
    const second = await auth.call<Found>('GET', `/admin/members?q=${prefix}&pageSize=2&page=2`, undefined, admin.as);
    expect(second.body).toMatchObject({ items: [{ loginId: ids[2] }], hasNext: false });
    const byEmail = await auth.call<Found>('GET', `/admin/members?q=${encodeURIComponent(`${ids[1]}@search`)}`, undefined, admin.as);
    expect(byEmail.body.items.map((m) => m.loginId)).toEqual([ids[1]]);
    expect((await auth.call<Found>('GET', '/admin/members?q=.*', undefined, admin.as)).body.items).toEqual([]);
  });

  it('answers a member page without secrets, 404 for an unknown member, 403 for members', async () => {
    const m = await newMember();
    const detail = await auth.call<Record<string, unknown>>('GET', `/admin/members/${m.userId}`, undefined, admin.as);
    expect(detail).toMatchObject({ status: 200, body: { userId: m.userId, loginId: m.id, role: 'member', apiKeyPrefix: null, referralCode: null } });
    expect(Object.keys(detail.body).some((k) => /hash|password/i.test(k))).toBe(false);
    expect((await auth.call('GET', '/admin/members/nobody', undefined, admin.as)).status).toBe(404);
    expect((await auth.call('GET', `/admin/members/${m.userId}`, undefined, m.as)).status).toBe(403);
  });
});

import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecordsInOutbox } from '@smm/platform';
import { callerHeaders } from '@smm/testkit';
import { messages } from '../src/messages.ts';
import { AuthUnderTest, CatalogPublisher, type Infra, firstAdmin, freshId, signInFirstAdmin, startInfra } from './support/harness.ts';
import { totpAt } from '@smm/testkit';

/** Issue 41: staff management and the operators' second factor, against the running service. */
let infra: Infra;
let auth: AuthUnderTest;
let catalog: CatalogPublisher;
let admin: { userId: string; as: Record<string, string> };

const asRole = (userId: string, role: 'member' | 'staff' | 'admin') => callerHeaders({ to: 'auth', userId, role });
type Operator = { userId: string; loginId: string; role: string; areas: string[]; disabled: boolean; twoFactor: boolean; initialPassword: string | null };
type Session = { accessToken: string; expiresIn: number; refreshToken: string; refreshExpiresIn: number };
type Step = { twoFactor: 'verify' | 'enrol'; challenge: string; expiresIn: number };

beforeAll(async () => {
  infra = await startInfra();
  auth = await AuthUnderTest.start(infra, null, { ...firstAdmin, OPERATOR_ACCESS_TOKEN_TTL_SECONDS: '300' });
  catalog = await CatalogPublisher.start(infra, () => auth);
  admin = await signInFirstAdmin(auth);
});

afterAll(async () => {
  await catalog?.stop();
  await auth?.stop();
  await infra?.stop();
});

async function newStaff(areas: string[] = ['top-ups', 'members'], role = 'staff') {
  const made = await auth.post<Operator>('/admin/operators', { loginId: freshId('op'), role, areas }, admin.as);
  expect(made.status).toBe(201);
  return { ...made.body, password: made.body.initialPassword! };
}
const logIn = (id: string, password: string) => auth.post<Session & Step>('/sessions', { id, password });
const member = (userId: string) => auth.runtime.services.members.findById(userId);

describe('staff management (admins only)', () => {
  it('an admin creates a staff account with areas: a one-time password, listed, audited, and it signs in as staff', async () => {
    const staff = await newStaff(['orders', 'top-ups']);
    expect(staff).toMatchObject({ role: 'staff', areas: ['top-ups', 'orders'], disabled: false, twoFactor: false });
    expect(staff.password).toMatch(/^\S{16}$/);
    const stored = await member(staff.userId);
    expect(JSON.stringify(stored)).not.toContain(staff.password);
    const list = await auth.call<{ items: Operator[] }>('GET', '/admin/operators', undefined, admin.as);
    expect(list.body.items.map((o) => o.loginId)).toEqual(expect.arrayContaining(['root', staff.loginId]));
    const login = await logIn(staff.loginId, staff.password);
    expect(login.status).toBe(200);
    expect(jwt.decode(login.body.accessToken, { json: true })).toMatchObject({ role: 'staff' });
    // Operators' sessions are shorter than members' (here 5-minute tokens; 8 hours at most, where members' last 30 days).
    expect(login.body.expiresIn).toBe(300);
    expect(login.body.refreshExpiresIn).toBeLessThanOrEqual(8 * 3600);
    expect(await auditRecordsInOutbox(auth.runtime.services.connection, staff.userId, 'operator')).toEqual([
      expect.objectContaining({ action: 'auth.operator.create', before: null, after: { loginId: staff.loginId, role: 'staff', areas: ['top-ups', 'orders'] } }),
    ]);
  });

  it('makes an existing member an operator (their member sessions end) and refuses an operator twice', async () => {
    const id = freshId('mem');
    const created = await auth.post<{ userId: string }>('/members', { id, password: 'secret-123', email: `${id}@example.com`, registerWhere: '블로그' });
    const before = await logIn(id, 'secret-123');
    const made = await auth.post<Operator>('/admin/operators', { loginId: id.toUpperCase(), role: 'staff', areas: ['review'] }, admin.as);
    expect(made).toMatchObject({ status: 201, body: { userId: created.body.userId, role: 'staff', areas: ['review'], initialPassword: null } });
    expect(await auth.post('/sessions/refresh', { refreshToken: before.body.refreshToken })).toMatchObject({ status: 401 });
    expect(await auth.post('/admin/operators', { loginId: id, role: 'admin' }, admin.as)).toMatchObject({ status: 409, body: { code: 'OPERATOR_EXISTS' } });
  });

  it('refuses bad input with Korean messages and changes nothing', async () => {
    const bad = async (body: Record<string, unknown>, code: string) => expect(await auth.post('/admin/operators', body, admin.as)).toMatchObject({ status: 400, body: { code } });
    await bad({ loginId: '', role: 'staff', areas: ['orders'] }, 'ID_REQUIRED');
    await bad({ loginId: 'a b', role: 'staff', areas: ['orders'] }, 'ID_HAS_SPACE');
    await bad({ loginId: 'naver_x', role: 'staff', areas: ['orders'] }, 'ID_RESERVED');
    await bad({ loginId: freshId(), role: 'owner' }, 'ROLE_INVALID');
    await bad({ loginId: freshId(), role: 'staff', areas: [] }, 'AREAS_REQUIRED');
    await bad({ loginId: freshId(), role: 'staff', areas: ['settings'] }, 'AREAS_INVALID');
    await bad({ loginId: freshId(), role: 'staff', areas: ['orders', 'orders'] }, 'AREAS_INVALID');
    const staff = await newStaff(['orders']);
    expect(await auth.call('PUT', `/admin/operators/${staff.userId}`, { role: 'staff', areas: ['providers'] }, admin.as)).toMatchObject({
      status: 400,
      body: { code: 'AREAS_INVALID', message: messages.areasInvalid },
    });
    expect((await member(staff.userId))?.areas).toEqual(['orders']);
  });

  it('staff and members cannot manage operators (403), whatever their credential claims', async () => {
    const staff = await newStaff();
    const target = await newStaff();
    for (const as of [asRole(staff.userId, 'staff'), asRole(staff.userId, 'admin')]) {
      expect(await auth.call('GET', '/admin/operators', undefined, as)).toMatchObject({ status: 403, body: { code: 'ADMIN_ONLY' } });
      expect((await auth.post('/admin/operators', { loginId: freshId(), role: 'admin' }, as)).status).toBe(403);
      expect((await auth.post(`/admin/operators/${target.userId}/disable`, {}, as)).status).toBe(403);
      expect((await auth.call('PUT', `/admin/operators/${target.userId}`, { role: 'admin' }, as)).status).toBe(403);
    }
    expect((await member(target.userId))).toMatchObject({ role: 'staff' });
    expect((await member(target.userId))?.disabledAt).toBeUndefined();
  });

  it('an admin may not change their own role, areas or account (SELF_ACTION)', async () => {
    for (const [method, path, body] of [
      ['PUT', `/admin/operators/${admin.userId}`, { role: 'staff', areas: ['orders'] }],
      ['POST', `/admin/operators/${admin.userId}/disable`, {}],
      ['POST', `/admin/operators/${admin.userId}/two-factor/reset`, {}],
    ] as const) {
      expect(await auth.call(method, path, body, admin.as)).toMatchObject({ status: 403, body: { code: 'SELF_ACTION', message: messages.operatorSelf } });
    }
    expect(await member(admin.userId)).toMatchObject({ role: 'admin' });
  });

  it('changes a staff member\'s areas (sessions kept) and role (sessions end), audited before → after', async () => {
    const staff = await newStaff(['orders']);
    const login = await logIn(staff.loginId, staff.password);
    expect(await auth.call('PUT', `/admin/operators/${staff.userId}`, { role: 'staff', areas: ['deposits', 'orders'] }, admin.as)).toMatchObject({ status: 200, body: { areas: ['deposits', 'orders'] } });
    const state = await auth.call('GET', `/members/${staff.userId}/session-state`);
    expect(state.body).toMatchObject({ status: 'active', role: 'staff', areas: ['deposits', 'orders'] });
    const refreshed = await auth.post<Session>('/sessions/refresh', { refreshToken: login.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(await auth.call('PUT', `/admin/operators/${staff.userId}`, { role: 'member' }, admin.as)).toMatchObject({ status: 200, body: { role: 'member' } });
    expect(await auth.post('/sessions/refresh', { refreshToken: refreshed.body.refreshToken })).toMatchObject({ status: 401 });
    expect((await auth.call('GET', `/members/${staff.userId}/session-state`)).body).toMatchObject({ role: 'member', areas: [] });
    const records = await auditRecordsInOutbox(auth.runtime.services.connection, staff.userId, 'operator');
    expect(records.filter((r) => r.action === 'auth.operator.access').map((r) => [r.before, r.after])).toEqual([
      [{ role: 'staff', areas: ['orders'] }, { role: 'staff', areas: ['deposits', 'orders'] }],
      [{ role: 'staff', areas: ['deposits', 'orders'] }, { role: 'member', areas: [] }],
    ]);
  });

  it('a disabled operator cannot sign in or refresh, their state says disabled, and enabling lets them back', async () => {
    const staff = await newStaff();
    const login = await logIn(staff.loginId, staff.password);
    const versionBefore = (await auth.call<{ version: number }>('GET', `/members/${staff.userId}/session-state`)).body.version;
    expect(await auth.post(`/admin/operators/${staff.userId}/disable`, {}, admin.as)).toMatchObject({ status: 200, body: { disabled: true } });
    const state = await auth.call<{ status: string; version: number }>('GET', `/members/${staff.userId}/session-state`);
    expect(state.body.status).toBe('disabled');
    expect(state.body.version).toBeGreaterThan(versionBefore);
    expect(await auth.post('/sessions/refresh', { refreshToken: login.body.refreshToken })).toMatchObject({ status: 401 });
    expect(await logIn(staff.loginId, staff.password)).toMatchObject({ status: 403, body: { code: 'OPERATOR_DISABLED', message: messages.operatorDisabled } });
    // Its credential is refused by the services too, not only by the BFF.
    expect(await auth.call('GET', '/admin/members', undefined, asRole(staff.userId, 'staff'))).toMatchObject({ status: 403, body: { code: 'OPERATOR_DISABLED' } });
    expect(await auth.post(`/admin/operators/${staff.userId}/disable`, {}, admin.as)).toMatchObject({ status: 409 });
    expect(await auth.post(`/admin/operators/${staff.userId}/enable`, {}, admin.as)).toMatchObject({ status: 200, body: { disabled: false } });
    expect((await logIn(staff.loginId, staff.password)).status).toBe(200);
    const actions = (await auditRecordsInOutbox(auth.runtime.services.connection, staff.userId, 'operator')).map((r) => [r.action, r.after]);
    expect(actions).toEqual(expect.arrayContaining([['auth.operator.disable', { disabled: true }], ['auth.operator.enable', { disabled: false }]]));
  });
});

describe('two-factor sign-in (TOTP, RFC 6238) while the setting requires it', () => {
  let staff: Awaited<ReturnType<typeof newStaff>>;
  let secret: string;
  let recoveryCodes: string[];
  /** When the enrolment's code was computed: its step is the last one used. */
  let enrolledAt = 0;

  beforeAll(async () => {
    staff = await newStaff(['orders']);
    await catalog.set({ ENABLE_OPERATOR_TWO_FACTOR: 'true' });
  });
  afterAll(async () => {
    await catalog.set({ ENABLE_OPERATOR_TWO_FACTOR: 'false' });
  });

  it('members sign in as before; an operator without 2FA gets an enrolment step, no tokens', async () => {
    const id = freshId('plain');
    await auth.post('/members', { id, password: 'secret-123', email: `${id}@example.com`, registerWhere: '블로그' });
    expect(Object.keys((await logIn(id, 'secret-123')).body)).toContain('accessToken');
    const step = await logIn(staff.loginId, staff.password);
    expect(step.status).toBe(200);
    expect(step.body).toMatchObject({ twoFactor: 'enrol', expiresIn: 600 });
    expect(step.body).not.toHaveProperty('accessToken');
    expect(step.body).not.toHaveProperty('refreshToken');
    expect(await auth.post('/sessions/two-factor', { challenge: step.body.challenge, code: '123456' })).toMatchObject({ status: 401, body: { code: 'TWO_FACTOR_CHALLENGE_INVALID' } });
  });

  it('enrols with a real code from the app; the secret is stored sealed and the recovery codes only as HMACs', async () => {
    const step = await logIn(staff.loginId, staff.password);
    expect(await auth.post('/sessions/two-factor/enrolment/confirm', { challenge: step.body.challenge, code: '123456' })).toMatchObject({ status: 409, body: { code: 'ENROLMENT_NOT_STARTED' } });
    const offered = await auth.post<{ secret: string; otpauthUri: string }>('/sessions/two-factor/enrolment', { challenge: step.body.challenge });
    expect(offered.status).toBe(200);
    secret = offered.body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(offered.body.otpauthUri).toContain(`secret=${secret}`);
    const wrong = String((Number(totpAt(secret, Date.now())) + 1) % 1_000_000).padStart(6, '0');
    expect(await auth.post('/sessions/two-factor/enrolment/confirm', { challenge: step.body.challenge, code: wrong })).toMatchObject({ status: 400, body: { code: 'CODE_INVALID' } });
    enrolledAt = Date.now();
    const done = await auth.post<Session & { recoveryCodes: string[] }>('/sessions/two-factor/enrolment/confirm', { challenge: step.body.challenge, code: totpAt(secret, enrolledAt) });
    expect(done.status).toBe(200);
    expect(jwt.decode(done.body.accessToken, { json: true })).toMatchObject({ sub: staff.userId, role: 'staff' });
    recoveryCodes = done.body.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    const stored = JSON.stringify(await member(staff.userId));
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(Buffer.from(secret).toString('base64'));
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replace(/-/g, ''));
    expect((await member(staff.userId))?.twoFactor?.recoveryHashes).toHaveLength(10);
    // The challenge was spent by the enrolment.
    expect((await auth.post('/sessions/two-factor/enrolment', { challenge: step.body.challenge })).status).toBe(401);
  });

  it('signs in with the next code; a code already used (the enrolment\'s, or this one again) is refused', async () => {
    const step = await logIn(staff.loginId, staff.password);
    expect(step.body.twoFactor).toBe('verify');
    const used = totpAt(secret, enrolledAt);
    expect(await auth.post('/sessions/two-factor', { challenge: step.body.challenge, code: used })).toMatchObject({ status: 400, body: { code: 'CODE_ALREADY_USED', message: messages.codeUsed } });
    const next = totpAt(secret, Date.now() + 30_000);
    const signedIn = await auth.post<Session>('/sessions/two-factor', { challenge: step.body.challenge, code: next });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.expiresIn).toBe(300);
    const again = await logIn(staff.loginId, staff.password);
    expect(await auth.post('/sessions/two-factor', { challenge: again.body.challenge, code: next })).toMatchObject({ status: 400, body: { code: 'CODE_ALREADY_USED' } });
  });

  it('a recovery code signs in once; the same code again is refused', async () => {
    const first = await logIn(staff.loginId, staff.password);
    const code = recoveryCodes[0]!;
    expect((await auth.post('/sessions/two-factor', { challenge: first.body.challenge, recoveryCode: code.toLowerCase() })).status).toBe(200);
    const second = await logIn(staff.loginId, staff.password);
    expect(await auth.post('/sessions/two-factor', { challenge: second.body.challenge, recoveryCode: code })).toMatchObject({ status: 400, body: { code: 'RECOVERY_CODE_INVALID' } });
    expect((await member(staff.userId))?.twoFactor?.recoveryHashes).toHaveLength(9);
    expect((await auth.post('/sessions/two-factor', { challenge: second.body.challenge, recoveryCode: recoveryCodes[1] })).status).toBe(200);
  });

  it('limits code attempts per operator: after 5 wrong codes even the right one waits (429)', async () => {
    const other = await newStaff(['orders']);
    const step = await logIn(other.loginId, other.password);
    const offered = await auth.post<{ secret: string }>('/sessions/two-factor/enrolment', { challenge: step.body.challenge });
    const enrolled = await auth.post('/sessions/two-factor/enrolment/confirm', { challenge: step.body.challenge, code: totpAt(offered.body.secret, Date.now()) });
    expect(enrolled.status).toBe(200);
    const verify = await logIn(other.loginId, other.password);
    for (let i = 0; i < 5; i++) {
      expect((await auth.post('/sessions/two-factor', { challenge: verify.body.challenge, code: '000000' === totpAt(offered.body.secret, Date.now()) ? '111111' : '000000' })).status).toBe(400);
    }
    const limited = await auth.post('/sessions/two-factor', { challenge: verify.body.challenge, code: totpAt(offered.body.secret, Date.now() + 30_000) });
    expect(limited).toMatchObject({ status: 429, body: { code: 'TOO_MANY_CODE_ATTEMPTS', message: messages.tooManyCodes } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('an admin resets a lost second factor: sessions end and the operator enrols again', async () => {
    const login = await logIn(staff.loginId, staff.password);
    const signedIn = await auth.post<Session>('/sessions/two-factor', { challenge: login.body.challenge, recoveryCode: recoveryCodes[2] });
    expect(signedIn.status).toBe(200);
    expect(await auth.post(`/admin/operators/${staff.userId}/two-factor/reset`, {}, admin.as)).toMatchObject({ status: 200, body: { twoFactor: false } });
    expect((await auth.post('/sessions/refresh', { refreshToken: signedIn.body.refreshToken })).status).toBe(401);
    expect((await logIn(staff.loginId, staff.password)).body.twoFactor).toBe('enrol');
  });
});

describe('the last active admin', () => {
  it('two admins demoting each other at once leave one admin: one change wins, the other is refused', async () => {
    const second = await newStaff([], 'admin');
    const [a, b] = await Promise.all([
      auth.call('PUT', `/admin/operators/${second.userId}`, { role: 'member' }, admin.as),
      auth.call('PUT', `/admin/operators/${admin.userId}`, { role: 'member' }, asRole(second.userId, 'admin')),
    ]);
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    expect([a.status, b.status].find((s) => s !== 200)).toBeOneOf([403, 409]);
    const admins = await auth.runtime.services.members.model.countDocuments({ role: 'admin', disabledAt: { $exists: false } });
    expect(admins).toBeGreaterThanOrEqual(1);
  });
});

import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgedCallerHeaders } from '@smm/testkit';
import type { EventEnvelope } from '@smm/contracts';
import { messages } from '../src/messages.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
import { AuthUnderTest, CatalogPublisher, as, type Infra, collectAuthEvents, eventually, freshId, publicKeyPem, startInfra, firstAdmin } from './support/harness.ts';

let infra: Infra;
let auth: AuthUnderTest;
let catalog: CatalogPublisher;
let authEvents: Awaited<ReturnType<typeof collectAuthEvents>>;

beforeAll(async () => {
  infra = await startInfra();
  auth = await AuthUnderTest.start(infra, null, firstAdmin);
  catalog = await CatalogPublisher.start(infra, () => auth);
  authEvents = await collectAuthEvents(infra);
});

afterAll(async () => {
  await authEvents?.stop();
  await catalog?.stop();
  await auth?.stop();
  await infra?.stop();
});

async function newMember(password = 'secret-123') {
  const id = freshId();
  const created = await auth.post<{ userId: string }>('/members', { id, password, email: `${id}@example.com`, registerWhere: '블로그' });
  expect(created.status).toBe(201);
  return { id, password, userId: created.body.userId, as: as(created.body.userId) };
}

const verify = (token: string) => jwt.verify(token, publicKeyPem, { algorithms: ['ES256'] }) as jwt.JwtPayload;

describe('login', () => {
  it('answers an ES256 access token the BFF can verify with the public key', async () => {
    const member = await newMember();
    const answer = await auth.post<{ accessToken: string; expiresIn: number }>('/sessions', { id: member.id, password: member.password });
    expect(answer.status).toBe(200);
    expect(answer.body.expiresIn).toBe(900);
    const claims = verify(answer.body.accessToken);
    expect(claims).toMatchObject({ sub: member.userId, loginId: member.id, role: 'member', iss: 'smm-auth' });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(jwt.decode(answer.body.accessToken, { complete: true })?.header.alg).toBe('ES256');
  });

  it('takes the id in any letter case', async () => {
    const member = await newMember();
    expect((await auth.post('/sessions', { id: member.id.toUpperCase(), password: member.password })).status).toBe(200);
  });

  it.each([
    ['no id', { password: 'x' }, 'ID_REQUIRED', messages.idRequired],
    ['a space in the id', { id: 'a b', password: 'x' }, 'ID_HAS_SPACE', messages.idHasSpace],
    ['no password', { id: 'someone' }, 'PASSWORD_REQUIRED', messages.passwordRequired],
    ['a number for a password', { id: 'someone', password: 1234 }, 'PASSWORD_REQUIRED', messages.passwordRequired],
  ])('answers 400 for %s', async (_name, body, code, message) => {
    expect(await auth.post('/sessions', body)).toMatchObject({ status: 400, body: { code, message } });
  });

  it('answers the same 404 for an unknown id and a wrong password', async () => {
    const member = await newMember();
    const wrongPassword = await auth.post('/sessions', { id: member.id, password: 'not-it' });
    const unknownId = await auth.post('/sessions', { id: freshId('ghost'), password: 'not-it' });
    expect(wrongPassword.status).toBe(404);
    expect(unknownId.status).toBe(404);
    expect(wrongPassword.body).toEqual(unknownId.body);
    expect(wrongPassword.body).toEqual({ code: 'INVALID_CREDENTIALS', message: messages.invalidCredentials });
  });

  it('spends comparable time on an unknown id and on a wrong password (dummy hash)', async () => {
    const member = await newMember();
    const time = async (id: string) => {
      const started = performance.now();
      await auth.post('/sessions', { id, password: 'not-it' });
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(member.id));
      unknown.push(await time(freshId('ghost')));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    // An unknown id without the dummy check would answer in ~1 ms instead of an argon2 verify.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('slows one id and address down with growing delays after two failures, and a success clears them', async () => {
    const member = await newMember();
    const from = { 'x-client-ip': '198.51.100.30' };
    const attempt = (password: string) => auth.post('/sessions', { id: member.id, password }, from);
    for (let i = 0; i < 3; i++) expect((await attempt('wrong')).status).toBe(404);
    const slowed = await attempt(member.password);
    expect(slowed).toMatchObject({ status: 429, body: { code: 'TOO_MANY_LOGIN_ATTEMPTS', message: messages.tooManyLogins } });
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    await sleep(250);
    expect((await attempt('wrong')).status).toBe(404);
    // The fourth failure doubles the wait: 250 ms is no longer enough.
    await sleep(250);
    expect((await attempt(member.password)).status).toBe(429);
    await sleep(250);
    expect((await attempt(member.password)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await attempt('wrong')).status).toBe(404);
  });

  it('does not let a stranger lock the owner out: guesses from one address limit that address only', async () => {
    const member = await newMember();
    const stranger = { 'x-client-ip': '198.51.100.31' };
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await auth.post('/sessions', { id: member.id, password: 'wrong' }, stranger)).status);
    expect(answers).toContain(429);
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, { 'x-client-ip': '198.51.100.32' })).status).toBe(200);
  });

  it('limits guesses of one id from many addresses, which a correct password from a known address passes', async () => {
    const member = await newMember();
    const home = { 'x-client-ip': '198.51.100.40' };
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, home)).status).toBe(200);
    for (let i = 0; i < 12; i++) expect((await auth.post('/sessions', { id: member.id, password: 'wrong' }, { 'x-client-ip': `203.0.113.${i + 1}` })).status).toBe(404);
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, { 'x-client-ip': '198.51.100.41' })).status).toBe(429);
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, home)).status).toBe(200);
  });

  it('limits attempts per client address across ids', async () => {
    const member = await newMember();
    const from = { 'x-client-ip': '198.51.100.20' };
    for (let i = 0; i < 8; i++) expect((await auth.post('/sessions', { id: freshId('guess'), password: 'x' }, from)).status).toBe(404);
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, from)).status).toBe(429);
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, { 'x-client-ip': '198.51.100.21' })).status).toBe(200);
  });

  it('lets a member through a busy shared address they logged in from before', async () => {
    const member = await newMember();
    const proxy = { 'x-client-ip': '198.51.100.22' };
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, proxy)).status).toBe(200);
    for (let i = 0; i < 9; i++) await auth.post('/sessions', { id: freshId('guess'), password: 'x' }, proxy);
    expect((await auth.post('/sessions', { id: freshId('guess'), password: 'x' }, proxy)).status).toBe(429);
    expect((await auth.post('/sessions', { id: member.id, password: member.password }, proxy)).status).toBe(200);
  });
});

describe('admin bootstrap', () => {
  it('creates the admin from ADMIN_ID / ADMIN_PASSWORD, with the admin role', async () => {
    const answer = await auth.post<{ accessToken: string }>('/sessions', { id: 'root', password: 'first-admin-pw' });
    expect(answer.status).toBe(200);
    expect(verify(answer.body.accessToken).role).toBe('admin');
    const registered = await eventually(
      () => authEvents.events.filter((e) => e.type === 'UserRegistered' && (e.data as { loginId: string }).loginId === 'root'),
      (list) => list.length >= 1,
    );
    expect(registered[0]?.data).toMatchObject({ role: 'admin' });
  });

  it('does not overwrite the admin on a later start, even with another password', async () => {
    const second = await AuthUnderTest.start(infra, null, { ADMIN_ID: 'root', ADMIN_PASSWORD: 'other-password' }, true);
    try {
      expect((await second.post('/sessions', { id: 'root', password: 'other-password' })).status).toBe(404);
      expect((await second.post('/sessions', { id: 'root', password: 'first-admin-pw' })).status).toBe(200);
      expect(await auth.runtime.services.members.model.countDocuments({ loginKey: 'root' })).toBe(1);
    } finally {
      await second.stop();
    }
  });
});

describe('profile', () => {
  it('shows id, role, no API key and no referral code for a new member', async () => {
    const member = await newMember();
    const profile = await auth.call('GET', '/members/me', undefined, member.as);
    expect(profile).toMatchObject({
      status: 200,
      body: { userId: member.userId, id: member.id, role: 'member', provider: 'local', apiKey: null, referralCode: null, email: `${member.id}@example.com` },
    });
  });

  it('answers 401 without a member in the credential and 404 for an unknown member', async () => {
    expect((await auth.call('GET', '/members/me')).status).toBe(401);
    expect(await auth.call('GET', '/members/me', undefined, as('no-such-member'))).toMatchObject({ status: 404, body: { code: 'MEMBER_NOT_FOUND' } });
  });

  it('refuses forged callers: identity headers alone, expired, wrongly signed, unsigned, another audience', async () => {
    const member = await newMember();
    for (const [name, headers] of Object.entries(forgedCallerHeaders('auth'))) {
      const forged = { ...headers, 'x-user-id': member.userId };
      const profile = await fetch(`${auth.url}/members/me`, { headers: forged });
      const key = await fetch(`${auth.url}/members/me/api-key`, { method: 'POST', headers: forged });
      expect({ name, profile: profile.status, key: key.status }).toEqual({ name, profile: 401, key: 401 });
    }
    expect((await auth.call<{ apiKey: string | null }>('GET', '/members/me', undefined, as(member.userId))).body.apiKey).toBeNull();
  });
});

describe('password change', () => {
  it('changes the password when the current one matches', async () => {
    const member = await newMember('old-pass');
    expect((await auth.call('PUT', '/members/me/password', { currentPassword: 'old-pass', newPassword: 'new-pass' }, member.as)).status).toBe(204);
    expect((await auth.post('/sessions', { id: member.id, password: 'old-pass' })).status).toBe(404);
    expect((await auth.post('/sessions', { id: member.id, password: 'new-pass' })).status).toBe(200);
  });

  it('answers 409 when the current password differs', async () => {
    const member = await newMember('old-pass');
    const answer = await auth.call('PUT', '/members/me/password', { currentPassword: 'not-it', newPassword: 'new-pass' }, member.as);
    expect(answer).toMatchObject({ status: 409, body: { code: 'CURRENT_PASSWORD_DIFFERENT', message: messages.currentPasswordDifferent } });
    expect((await auth.post('/sessions', { id: member.id, password: 'old-pass' })).status).toBe(200);
  });

  it('answers 400 for missing fields and 401 without a caller', async () => {
    const member = await newMember();
    expect(await auth.call('PUT', '/members/me/password', { newPassword: 'x' }, member.as)).toMatchObject({ status: 400, body: { code: 'CURRENT_PASSWORD_REQUIRED' } });
    expect(await auth.call('PUT', '/members/me/password', { currentPassword: 'x' }, member.as)).toMatchObject({ status: 400, body: { code: 'NEW_PASSWORD_REQUIRED' } });
    expect(await auth.call('PUT', '/members/me/password', { currentPassword: 'x', newPassword: 'a b' }, member.as)).toMatchObject({ status: 400, body: { code: 'PASSWORD_HAS_SPACE' } });
    expect((await auth.call('PUT', '/members/me/password', { currentPassword: 'x', newPassword: 'y' })).status).toBe(401);
  });
});

describe('sessions', () => {
  type Session = { accessToken: string; expiresIn: number; refreshToken: string };
  const state = (userId: string) => auth.call<{ status: string; version: number | null }>('GET', `/members/${userId}/session-state`);
  const refresh = (refreshToken: string) => auth.post<Session>('/sessions/refresh', { refreshToken });

  it('issues short access tokens carrying the token version, and single-use refresh tokens', async () => {
    const member = await newMember();
    const login = await auth.post<Session>('/sessions', { id: member.id, password: member.password });
    expect(login.body.expiresIn).toBe(900);
    expect(verify(login.body.accessToken)).toMatchObject({ sub: member.userId, ver: 0 });
    const next = await refresh(login.body.refreshToken);
    expect(next.status).toBe(200);
    expect(verify(next.body.accessToken)).toMatchObject({ sub: member.userId, ver: 0 });
    expect(await refresh(login.body.refreshToken)).toMatchObject({ status: 401, body: { code: 'REFRESH_TOKEN_INVALID', message: messages.sessionEnded } });
    expect((await refresh('not a token')).status).toBe(401);
    // Log-out answers whose session ended, so the BFF stops accepting its access tokens at once.
    expect(await auth.post('/sessions/revoke', { refreshToken: next.body.refreshToken })).toMatchObject({ status: 200, body: { userId: member.userId } });
    expect((await state(member.userId)).body).toMatchObject({ endedSessions: [verify(next.body.accessToken).sid] });
    expect((await refresh(next.body.refreshToken)).status).toBe(401);
  });

  it('ends every session on a password change', async () => {
    const member = await newMember('old-pass');
    const before = await auth.post<Session>('/sessions', { id: member.id, password: 'old-pass' });
    expect((await auth.call('PUT', '/members/me/password', { currentPassword: 'old-pass', newPassword: 'new-pass' }, member.as)).status).toBe(204);
    expect((await state(member.userId)).body).toEqual({ userId: member.userId, status: 'active', version: 1, restriction: null, endedSessions: [], role: 'member', areas: [] });
    expect((await refresh(before.body.refreshToken)).status).toBe(401);
    const after = await auth.post<Session>('/sessions', { id: member.id, password: 'new-pass' });
    expect(verify(after.body.accessToken).ver).toBe(1);
    expect((await refresh(after.body.refreshToken)).status).toBe(200);
  });

  it('logs out everywhere on demand', async () => {
    const member = await newMember();
    const login = await auth.post<Session>('/sessions', { id: member.id, password: member.password });
    expect(await auth.post('/members/me/sessions/end', {}, member.as)).toMatchObject({ status: 200, body: { version: 1 } });
    expect((await state(member.userId)).body.version).toBe(1);
    expect((await refresh(login.body.refreshToken)).status).toBe(401);
  });

  it('refuses banned members a session and reports them, and reports unknown members as deleted', async () => {
    const member = await newMember();
    const login = await auth.post<Session>('/sessions', { id: member.id, password: member.password });
    await auth.runtime.services.members.model.updateOne({ _id: member.userId }, { $set: { status: 'banned' } });
    expect(await auth.post('/sessions', { id: member.id, password: member.password })).toMatchObject({ status: 403, body: { code: 'MEMBER_BANNED' } });
    expect((await refresh(login.body.refreshToken)).status).toBe(401);
    expect((await state(member.userId)).body.status).toBe('banned');
    expect((await state('no-such-member')).body).toEqual({ userId: 'no-such-member', status: 'deleted', version: null, restriction: null, endedSessions: [] });
    // A member may not read another's state; only the BFF acting for itself may.
    expect((await auth.call('GET', `/members/${member.userId}/session-state`, undefined, as('someone-else'))).status).toBe(401);
  });
});

describe('API keys', () => {
  it('shows a new key once, resolves it to the member, and retires the old key at once', async () => {
    const member = await newMember();
    const first = await auth.post<{ apiKey: string; apiKeyPrefix: string }>('/members/me/api-key', {}, member.as);
    expect(first.status).toBe(201);
    expect(first.body.apiKey).toMatch(/^smm_[A-Za-z0-9_-]{43}$/);
    expect(await auth.post('/api-keys/resolve', { apiKey: first.body.apiKey })).toMatchObject({ status: 200, body: { userId: member.userId, loginId: member.id, role: 'member' } });

    const profile = await auth.call<{ apiKey: string }>('GET', '/members/me', undefined, member.as);
    expect(profile.body.apiKey.startsWith(first.body.apiKeyPrefix)).toBe(true);
    expect(profile.body.apiKey).not.toContain(first.body.apiKey.slice(first.body.apiKeyPrefix.length));
    const stored = await auth.runtime.services.members.model.findById(member.userId).lean();
    expect(JSON.stringify(stored)).not.toContain(first.body.apiKey);

    const second = await auth.post<{ apiKey: string }>('/members/me/api-key', {}, member.as);
    expect(second.body.apiKey).not.toBe(first.body.apiKey);
    expect(await auth.post('/api-keys/resolve', { apiKey: first.body.apiKey })).toMatchObject({ status: 404, body: { code: 'API_KEY_INVALID', message: messages.apiKeyInvalid } });
    expect((await auth.post('/api-keys/resolve', { apiKey: second.body.apiKey })).status).toBe(200);

    const rotated = await eventually(
      () => authEvents.events.filter((e: EventEnvelope) => e.type === 'ApiKeyRotated' && e.aggregateId === member.userId),
      (list) => list.length >= 2,
    );
    expect(JSON.stringify(rotated)).not.toContain(first.body.apiKey);
    expect(rotated[0]?.data).toEqual({ userId: member.userId, keyPrefix: first.body.apiKeyPrefix });
  });

  it('answers 400 without a key and 404 for a malformed or unknown key', async () => {
    expect(await auth.post('/api-keys/resolve', {})).toMatchObject({ status: 400, body: { code: 'API_KEY_REQUIRED' } });
    expect((await auth.post('/api-keys/resolve', { apiKey: 'hello' })).status).toBe(404);
    expect((await auth.post('/api-keys/resolve', { apiKey: `smm_${'A'.repeat(43)}` })).status).toBe(404);
  });

  it('answers 401 to a renewal without a caller', async () => {
    expect((await auth.post('/members/me/api-key', {})).status).toBe(401);
  });
});

describe('referral code issue', () => {
  it('refuses with 409 while the referral setting is off', async () => {
    const member = await newMember();
    expect(await auth.post('/members/me/referral-code', {}, member.as)).toMatchObject({ status: 409, body: { code: 'REFERRAL_DISABLED', message: messages.referralFeatureOff } });
  });

  it('issues one code per member while the setting is on, and announces it', async () => {
    await catalog.set({ ENABLE_REFERRAL: 'true' });
    const member = await newMember();
    const answers = await Promise.all([0, 1, 2].map(() => auth.post<{ referralCode: string; message?: string }>('/members/me/referral-code', {}, member.as)));
    const issued = answers.filter((a) => a.status === 201);
    expect(issued).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.message === messages.referralAlreadyIssued)).toHaveLength(2);
    const code = issued[0]!.body.referralCode;
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect((await auth.call('GET', '/members/me', undefined, member.as)).body.referralCode).toBe(code);
    const event = await eventually(
      () => authEvents.events.find((e) => e.type === 'ReferralCodeIssued' && e.aggregateId === member.userId),
      (e) => e !== undefined,
    );
    expect(event?.data).toEqual({ userId: member.userId, referralCode: code });
  });
});

describe('development SMS outbox', () => {
  it('is not served when SMS_DEV_OUTBOX is off', async () => {
    const quiet = await AuthUnderTest.start(infra, null, { SMS_DEV_OUTBOX: 'false' }, true);
    try {
      expect((await quiet.post('/phone-verifications', { phoneNumber: '01077778888' })).status).toBe(201);
      expect((await quiet.call('GET', '/dev/sms-outbox?phoneNumber=01077778888')).status).toBe(404);
    } finally {
      await quiet.stop();
    }
  });
});

describe('readiness', () => {
  it('reports mongo, kafka and redis ready', async () => {
    expect(await auth.call('GET', '/readyz')).toMatchObject({ status: 200, body: { checks: { mongo: 'ok', kafka: 'ok', redis: 'ok' } } });
  });
});

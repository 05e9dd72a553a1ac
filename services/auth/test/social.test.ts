import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/messages.ts';
import {
  AuthUnderTest,
  CatalogPublisher,
  FakeProviders,
  type Infra,
  as,
  collectAuthEvents,
  eventually,
  freshPhone,
  privateKeyPem,
  publicKeyPem,
  startInfra,
} from './support/harness.ts';

let infra: Infra;
let providers: FakeProviders;
let auth: AuthUnderTest;
let catalog: CatalogPublisher;
let authEvents: Awaited<ReturnType<typeof collectAuthEvents>>;

beforeAll(async () => {
  infra = await startInfra();
  providers = await new FakeProviders().start();
  auth = await AuthUnderTest.start(infra, providers);
  catalog = await CatalogPublisher.start(infra, () => auth);
  authEvents = await collectAuthEvents(infra);
});

afterAll(async () => {
  await authEvents?.stop();
  await catalog?.stop();
  await auth?.stop();
  await providers?.close();
  await infra?.stop();
});

type NotRegistered = { code: string; message: string; accessToken: string };
const claims = (token: string) => jwt.verify(token, publicKeyPem, { algorithms: ['ES256'] }) as jwt.JwtPayload;

describe('social login while switched off (no setting = off)', () => {
  it('refuses Naver and Kakao with 403', async () => {
    expect(await auth.post('/sessions/naver', { code: 'x' })).toMatchObject({ status: 403, body: { code: 'SOCIAL_LOGIN_DISABLED', message: messages.socialLoginDisabled('네이버') } });
    expect(await auth.post('/sessions/kakao', { accessToken: 'x' })).toMatchObject({ status: 403, body: { code: 'SOCIAL_LOGIN_DISABLED' } });
    expect((await auth.post('/members/kakao', { accessToken: 'x', registerWhere: 'x' })).status).toBe(403);
  });
});

describe('Naver', () => {
  it('answers 503 while the client id or state setting is missing', async () => {
    await catalog.set({ ENABLE_NAVER_LOGIN: 'true' });
    providers.addNaverUser({ id: 'nv-early', email: 'early@naver.com' });
    const code = await providers.naverCodeFor('nv-early');
    expect(await auth.post('/sessions/naver', { code })).toMatchObject({ status: 503, body: { code: 'SOCIAL_NOT_CONFIGURED' } });
  });

  it('signs an unknown Naver user up through the continuation token, then logs them in', async () => {
    await catalog.set({ ENABLE_NAVER_LOGIN: 'true', NAVER_CLIENT_ID: providers.naverClientId, NAVER_STATE: providers.naverState });
    providers.addNaverUser({ id: 'nv-1001', email: 'hong@naver.com', nickname: '홍길동' });

    const first = await auth.post<NotRegistered>('/sessions/naver', { code: await providers.naverCodeFor('nv-1001') });
    expect(first.status).toBe(404);
    expect(first.body).toMatchObject({ code: 'SOCIAL_ACCOUNT_NOT_REGISTERED', message: messages.socialNotRegistered });
    expect(first.body.accessToken).toEqual(expect.any(String));
    // what auth sent to Naver's token endpoint: the settings' client id and state, the env's secret
    const sent = providers.tokenRequests.at(-1)!;
    expect(Object.fromEntries(sent)).toMatchObject({ grant_type: 'authorization_code', client_id: providers.naverClientId, client_secret: providers.naverClientSecret, state: providers.naverState });
    // the continuation token is not an access token: ES256 verification refuses it
    expect(() => claims(first.body.accessToken)).toThrow();

    const created = await auth.post<{ userId: string; loginId: string }>('/members/naver', { accessToken: first.body.accessToken, registerWhere: '네이버 검색' });
    expect(created.status).toBe(201);
    expect(created.body.loginId).toBe('naver_nv-1001');

    const again = await auth.post<{ accessToken: string }>('/sessions/naver', { code: await providers.naverCodeFor('nv-1001') });
    expect(again.status).toBe(200);
    expect(claims(again.body.accessToken)).toMatchObject({ sub: created.body.userId, loginId: 'naver_nv-1001', role: 'member' });

    const event = await eventually(
      () => authEvents.events.find((e) => e.type === 'UserRegistered' && e.aggregateId === created.body.userId),
      (e) => e !== undefined,
    );
    expect(event?.data).toMatchObject({ provider: 'naver', email: 'hong@naver.com', registerWhere: '네이버 검색', role: 'member' });

    // the same token cannot make a second member
    const twice = await auth.post('/members/naver', { accessToken: first.body.accessToken, registerWhere: '네이버 검색' });
    expect(twice).toMatchObject({ status: 409, body: { code: 'SOCIAL_ALREADY_REGISTERED' } });
  });

  it('answers 400 when Naver refuses the code, and 400 without a code', async () => {
    expect(await auth.post('/sessions/naver', { code: 'made-up' })).toMatchObject({ status: 400, body: { code: 'SOCIAL_AUTH_FAILED', message: messages.socialAuthFailed('네이버') } });
    expect(await auth.post('/sessions/naver', {})).toMatchObject({ status: 400, body: { code: 'SOCIAL_CODE_REQUIRED' } });
  });

  it('answers 502 when Naver is down', async () => {
    providers.addNaverUser({ id: 'nv-down' });
    const code = await providers.naverCodeFor('nv-down');
    providers.failing = true;
    try {
      expect(await auth.post('/sessions/naver', { code })).toMatchObject({ status: 502, body: { code: 'SOCIAL_PROVIDER_UNAVAILABLE' } });
    } finally {
      providers.failing = false;
    }
  });
});

describe('Kakao', () => {
  beforeAll(async () => {
    await catalog.set({ ENABLE_KAKAO_LOGIN: 'true' });
  });

  it('signs an unknown Kakao user up and logs them in', async () => {
    const kakaoToken = providers.kakaoTokenFor({ id: 4_200_000_001, email: 'lee@kakao.com' });
    const first = await auth.post<NotRegistered>('/sessions/kakao', { accessToken: kakaoToken });
    expect(first).toMatchObject({ status: 404, body: { code: 'SOCIAL_ACCOUNT_NOT_REGISTERED' } });

    const created = await auth.post<{ userId: string; loginId: string }>('/members/kakao', { accessToken: first.body.accessToken, registerWhere: '카카오톡' });
    expect(created).toMatchObject({ status: 201, body: { loginId: 'kakao_4200000001' } });

    const login = await auth.post<{ accessToken: string }>('/sessions/kakao', { accessToken: providers.kakaoTokenFor({ id: 4_200_000_001 }) });
    expect(login.status).toBe(200);
    expect(claims(login.body.accessToken).sub).toBe(created.body.userId);
    // a social member has no password to log in with or change
    expect((await auth.post('/sessions', { id: 'kakao_4200000001', password: 'anything' })).status).toBe(404);
    expect(await auth.call('PUT', '/members/me/password', { currentPassword: 'a', newPassword: 'b-123456' }, as(created.body.userId))).toMatchObject({
      status: 409,
      body: { code: 'NO_PASSWORD_TO_CHANGE' },
    });
  });

  it('also finishes sign-up with Kakao\'s own access token in place of the continuation token', async () => {
    const kakaoToken = providers.kakaoTokenFor({ id: 4_200_000_009 });
    expect((await auth.post('/sessions/kakao', { accessToken: kakaoToken })).status).toBe(404);
    const created = await auth.post('/members/kakao', { accessToken: kakaoToken, registerWhere: '카카오톡' });
    expect(created).toMatchObject({ status: 201, body: { loginId: 'kakao_4200000009' } });
  });

  it('answers 400 for a token Kakao does not know, and for none', async () => {
    expect(await auth.post('/sessions/kakao', { accessToken: 'expired-token' })).toMatchObject({ status: 400, body: { code: 'SOCIAL_AUTH_FAILED', message: messages.socialAuthFailed('카카오') } });
    expect(await auth.post('/sessions/kakao', {})).toMatchObject({ status: 400, body: { code: 'SOCIAL_TOKEN_REQUIRED' } });
  });

  it('refuses a continuation token that is forged, expired or made for the other provider', async () => {
    const first = await auth.post<NotRegistered>('/sessions/kakao', { accessToken: providers.kakaoTokenFor({ id: 4_200_000_002 }) });
    expect(first.status).toBe(404);
    const forNaver = await auth.post('/members/naver', { accessToken: first.body.accessToken, registerWhere: 'x' });
    expect(forNaver).toMatchObject({ status: 400, body: { code: 'SOCIAL_TOKEN_INVALID' } });
    const forged = jwt.sign({ p: 'kakao' }, 'guessed-secret', { algorithm: 'HS256', subject: '1', audience: 'smm-social-signup', issuer: 'smm-auth' });
    expect(await auth.post('/members/kakao', { accessToken: forged, registerWhere: 'x' })).toMatchObject({ status: 400, body: { code: 'SOCIAL_TOKEN_INVALID' } });
    // an ES256 access token signed with the real key is not a continuation token either
    const access = jwt.sign({ p: 'kakao' }, privateKeyPem, { algorithm: 'ES256', subject: '1', audience: 'smm-social-signup', issuer: 'smm-auth' });
    expect(await auth.post('/members/kakao', { accessToken: access, registerWhere: 'x' })).toMatchObject({ status: 400, body: { code: 'SOCIAL_TOKEN_INVALID' } });
    expect(await auth.post('/members/kakao', { registerWhere: 'x' })).toMatchObject({ status: 400, body: { code: 'SOCIAL_TOKEN_REQUIRED' } });
  });

  it('applies the path and phone rules of the plain form', async () => {
    await catalog.set({ ENABLE_PHONE_NUMBER_VERIFICATION: 'true' });
    try {
      const first = await auth.post<NotRegistered>('/sessions/kakao', { accessToken: providers.kakaoTokenFor({ id: 4_200_000_003 }) });
      const token = first.body.accessToken;
      expect(await auth.post('/members/kakao', { accessToken: token })).toMatchObject({ status: 400, body: { code: 'REGISTER_WHERE_REQUIRED' } });
      expect(await auth.post('/members/kakao', { accessToken: token, registerWhere: 'x' })).toMatchObject({ status: 400, body: { code: 'PHONE_NUMBER_INVALID' } });
      const phoneNumber = freshPhone();
      expect(await auth.post('/members/kakao', { accessToken: token, registerWhere: 'x', phoneNumber, sendCode: '123' })).toMatchObject({ status: 400, body: { code: 'SEND_CODE_LENGTH' } });
      expect(await auth.post('/members/kakao', { accessToken: token, registerWhere: 'x', phoneNumber, sendCode: '12345' })).toMatchObject({ status: 400, body: { code: 'CODE_NOT_SENT' } });
      await auth.post('/phone-verifications', { phoneNumber });
      const sendCode = await auth.lastCode(phoneNumber);
      expect(await auth.post('/members/kakao', { accessToken: token, registerWhere: 'x', phoneNumber, sendCode, referral: 'ABCD2345' })).toMatchObject({ status: 400, body: { code: 'REFERRAL_DISABLED' } });
      expect((await auth.post('/members/kakao', { accessToken: token, registerWhere: 'x', phoneNumber, sendCode })).status).toBe(201);
    } finally {
      await catalog.set({ ENABLE_PHONE_NUMBER_VERIFICATION: 'false' });
    }
  });
});

describe('settings replica', () => {
  it('ignores other catalog events and survives a redelivered SettingChanged', async () => {
    const { ServiceUpserted, SettingChanged } = await import('@smm/contracts');
    const product = ServiceUpserted.create('service-1', { serviceId: 1, text: '좋아요', platformId: 1, categoryId: 1, min: 10, max: 100, unitPriceDeci: 5, enableAuto: false, isReadOnly: false, visible: true }, { correlationId: 'c' });
    const on = SettingChanged.create('setting-ENABLE_KAKAO_LOGIN', { key: 'ENABLE_KAKAO_LOGIN', value: 'false' }, { correlationId: 'c' });
    await catalog.publish([product, on, on]);
    await eventually(() => auth.post('/sessions/kakao', { accessToken: 'x' }), (a) => a.status === 403);
    // an older change delivered late does not roll the value back
    const stale = { ...SettingChanged.create('setting-ENABLE_KAKAO_LOGIN', { key: 'ENABLE_KAKAO_LOGIN', value: 'true' }, { correlationId: 'c' }), occurredAt: new Date(Date.now() - 3_600_000).toISOString() };
    // a marker on the same partition (same message key) tells when the stale one was processed
    const marker = SettingChanged.create('setting-ENABLE_KAKAO_LOGIN', { key: 'NAVER_REDIRECT_URL', value: 'https://marker.example' }, { correlationId: 'c' });
    await catalog.publish([stale, marker]);
    await eventually(() => auth.runtime.services.settings.all(), (all) => all.get('NAVER_REDIRECT_URL') === 'https://marker.example');
    expect((await auth.post('/sessions/kakao', { accessToken: 'x' })).status).toBe(403);
  });
});

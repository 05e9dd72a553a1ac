import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@smm/contracts';
import { messages } from '../src/messages.ts';
import { AuthUnderTest, CatalogPublisher, as, type Infra, collectAuthEvents, eventually, freshId, freshPhone, startInfra } from './support/harness.ts';

let infra: Infra;
let auth: AuthUnderTest;
let catalog: CatalogPublisher;
let authEvents: Awaited<ReturnType<typeof collectAuthEvents>>;

beforeAll(async () => {
  infra = await startInfra();
  auth = await AuthUnderTest.start(infra, null);
  catalog = await CatalogPublisher.start(infra, () => auth);
  authEvents = await collectAuthEvents(infra);
});

afterAll(async () => {
  await authEvents?.stop();
  await catalog?.stop();
  await auth?.stop();
  await infra?.stop();
});

const form = (overrides: Record<string, unknown> = {}) => ({
  id: freshId(),
  password: 'secret-123',
  email: `${freshId('mail')}@example.com`,
  registerWhere: '검색 광고',
  ...overrides,
});

describe('registration with phone verification off (the default: no setting = off)', () => {
  it('creates a member who can log in, and publishes UserRegistered exactly once with its data', async () => {
    const input = form();
    const created = await auth.post<{ userId: string; loginId: string }>('/members', input, { 'x-correlation-id': 'corr-reg-1' });
    expect(created.status).toBe(201);
    expect(created.body.loginId).toBe(input.id);

    const login = await auth.post('/sessions', { id: input.id, password: input.password });
    expect(login.status).toBe(200);

    const mine = (events: EventEnvelope[]) => events.filter((e) => e.type === 'UserRegistered' && e.aggregateId === created.body.userId);
    await eventually(() => mine(authEvents.events).length, (n) => n >= 1);
    await new Promise((r) => setTimeout(r, 1500)); // a second copy would have arrived by now
    const events = mine(authEvents.events);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'UserRegistered',
      version: 1,
      correlationId: 'corr-reg-1',
      data: { userId: created.body.userId, loginId: input.id, email: input.email, role: 'member', provider: 'local', registerWhere: '검색 광고', referredBy: null, referrerId: null },
    });
  });

  it.each([
    ['no id', { id: '' }, 'ID_REQUIRED', messages.idRequired],
    ['a space in the id', { id: 'kim min' }, 'ID_HAS_SPACE', messages.idHasSpace],
    ['a space in the password', { password: 'se cret' }, 'PASSWORD_HAS_SPACE', messages.passwordHasSpace],
    ['an e-mail without @', { email: 'kim.example.com' }, 'EMAIL_INVALID', messages.emailInvalid],
    ['an e-mail without a dot', { email: 'kim@example' }, 'EMAIL_INVALID', messages.emailInvalid],
    ['no password', { password: '' }, 'PASSWORD_REQUIRED', messages.passwordRequired],
    ['no registration path', { registerWhere: '' }, 'REGISTER_WHERE_REQUIRED', messages.registerWhereRequired],
    ['a malformed phone number', { phoneNumber: '010-12' }, 'PHONE_NUMBER_INVALID', messages.phoneNumberInvalid],
    ['a referral while referrals are off', { referral: 'ABCD2345' }, 'REFERRAL_DISABLED', messages.referralDisabled],
  ])('answers 400 for %s', async (_name, overrides, code, message) => {
    const answer = await auth.post('/members', form(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code, message });
  });

  it('answers 400 with the first rule for a body that is not JSON or not an object', async () => {
    expect((await auth.post('/members', '{not json')).status).toBe(400);
    const array = await auth.post('/members', [1, 2]);
    expect(array.status).toBe(400);
    expect(array.body).toMatchObject({ code: 'ID_REQUIRED' });
  });

  it('refuses a duplicate id (any letter case), e-mail or phone number with 409 and a clear message', async () => {
    const phoneNumber = freshPhone();
    const first = form({ phoneNumber });
    expect((await auth.post('/members', first)).status).toBe(201);

    const sameId = await auth.post('/members', form({ id: first.id.toUpperCase() }));
    expect(sameId).toMatchObject({ status: 409, body: { code: 'DUPLICATE_ID', message: messages.duplicateId } });
    const sameEmail = await auth.post('/members', form({ email: first.email.toUpperCase() }));
    expect(sameEmail).toMatchObject({ status: 409, body: { code: 'DUPLICATE_EMAIL', message: messages.duplicateEmail } });
    const samePhone = await auth.post('/members', form({ phoneNumber }));
    expect(samePhone).toMatchObject({ status: 409, body: { code: 'DUPLICATE_PHONE_NUMBER', message: messages.duplicatePhone } });
  });

  it('lets exactly one of many concurrent registrations of one id through', async () => {
    const id = freshId('race');
    const answers = await Promise.all(Array.from({ length: 8 }, () => auth.post('/members', form({ id }))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'DUPLICATE_ID')).toBe(true);
    const count = await auth.runtime.services.members.model.countDocuments({ loginKey: id.toLowerCase() });
    expect(count).toBe(1);
  });

  it('lets exactly one of concurrent registrations with one e-mail through', async () => {
    const email = `${freshId('race')}@example.com`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => auth.post('/members', form({ email }))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.code === 'DUPLICATE_EMAIL')).toHaveLength(4);
  });
});

describe('sending a verification code', () => {
  it('sends a 5-digit code to an 11-digit number and shows it in the development outbox', async () => {
    const phoneNumber = freshPhone();
    const sent = await auth.post('/phone-verifications', { phoneNumber });
    expect(sent).toMatchObject({ status: 201, body: { phoneNumber, expiresIn: 180, resendAfter: 60 } });
    expect(await auth.lastCode(phoneNumber)).toMatch(/^\d{5}$/);
  });

  it('answers 400 for a number that is not 11 digits', async () => {
    for (const phoneNumber of ['0101234567', '010123456789', 'abcdefghijk', undefined]) {
      const answer = await auth.post('/phone-verifications', { phoneNumber });
      expect(answer).toMatchObject({ status: 400, body: { code: 'PHONE_NUMBER_INVALID', message: messages.phoneNumberInvalid } });
    }
  });

  it('answers 409 when the number belongs to a member', async () => {
    const phoneNumber = freshPhone();
    expect((await auth.post('/members', form({ phoneNumber }))).status).toBe(201);
    const answer = await auth.post('/phone-verifications', { phoneNumber });
    expect(answer).toMatchObject({ status: 409, body: { code: 'PHONE_NUMBER_EXISTS', message: messages.duplicatePhone } });
  });

  it('refuses a resend within the cooldown with 429 and Retry-After', async () => {
    const phoneNumber = freshPhone();
    expect((await auth.post('/phone-verifications', { phoneNumber })).status).toBe(201);
    const again = await auth.post('/phone-verifications', { phoneNumber });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('CODE_RESEND_TOO_SOON');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits sends per client address', async () => {
    const headers = { 'x-client-ip': '203.0.113.7' };
    for (let i = 0; i < 3; i++) expect((await auth.post('/phone-verifications', { phoneNumber: freshPhone() }, headers)).status).toBe(201);
    const fourth = await auth.post('/phone-verifications', { phoneNumber: freshPhone() }, headers);
    expect(fourth).toMatchObject({ status: 429, body: { code: 'CODE_SEND_LIMIT' } });
    // another address is not affected
    expect((await auth.post('/phone-verifications', { phoneNumber: freshPhone() }, { 'x-client-ip': '203.0.113.8' })).status).toBe(201);
  });
});

describe('registration with phone verification on', () => {
  beforeAll(async () => {
    await catalog.set({ ENABLE_PHONE_NUMBER_VERIFICATION: 'true' });
  });
  afterAll(async () => {
    await catalog.set({ ENABLE_PHONE_NUMBER_VERIFICATION: 'false' });
  });

  it('registers with the code that was sent, once', async () => {
    const phoneNumber = freshPhone();
    expect((await auth.post('/phone-verifications', { phoneNumber })).status).toBe(201);
    const sendCode = await auth.lastCode(phoneNumber);
    const created = await auth.post<{ userId: string }>('/members', form({ phoneNumber, sendCode }));
    expect(created.status).toBe(201);
    const profile = await auth.call('GET', '/members/me', undefined, as(created.body.userId));
    expect(profile.body.phoneNumber).toBe(phoneNumber);
    // the code is used up: a second sign-up with it meets the "send first" rule
    const reuse = await auth.post('/members', form({ phoneNumber, sendCode }));
    expect(reuse.status).toBe(400);
  });

  it.each([
    ['no phone number', {}, 'PHONE_NUMBER_INVALID', messages.phoneNumberInvalid],
    ['no code', { phoneNumber: '01055556666' }, 'SEND_CODE_REQUIRED', messages.sendCodeRequired],
    ['a 4-character code', { phoneNumber: '01055556666', sendCode: '1234' }, 'SEND_CODE_LENGTH', messages.sendCodeLength],
    ['a 6-character code', { phoneNumber: '01055556666', sendCode: '123456' }, 'SEND_CODE_LENGTH', messages.sendCodeLength],
    ['a code never sent', { phoneNumber: '01055556666', sendCode: '12345' }, 'CODE_NOT_SENT', messages.codeNotSent],
  ])('answers 400 for %s', async (_name, overrides, code, message) => {
    const answer = await auth.post('/members', form(overrides));
    expect(answer).toMatchObject({ status: 400, body: { code, message } });
  });

  it('answers 400 for a wrong code, and drops the code after too many wrong tries', async () => {
    const phoneNumber = freshPhone();
    await auth.post('/phone-verifications', { phoneNumber });
    const right = await auth.lastCode(phoneNumber);
    const wrong = right === '00000' ? '11111' : '00000';
    for (let i = 0; i < 4; i++) {
      expect(await auth.post('/members', form({ phoneNumber, sendCode: wrong }))).toMatchObject({ status: 400, body: { code: 'CODE_MISMATCH', message: messages.codeMismatch } });
    }
    expect(await auth.post('/members', form({ phoneNumber, sendCode: wrong }))).toMatchObject({ status: 429, body: { code: 'CODE_ATTEMPTS_EXCEEDED' } });
    expect(await auth.post('/members', form({ phoneNumber, sendCode: right }))).toMatchObject({ status: 400, body: { code: 'CODE_NOT_SENT' } });
  });

  it('keeps the code usable when the sign-up failed for another reason (duplicate id)', async () => {
    const firstPhone = freshPhone();
    await auth.post('/phone-verifications', { phoneNumber: firstPhone });
    const taken = form({ phoneNumber: firstPhone, sendCode: await auth.lastCode(firstPhone) });
    expect((await auth.post('/members', taken)).status).toBe(201);
    const phoneNumber = freshPhone();
    await auth.post('/phone-verifications', { phoneNumber });
    const sendCode = await auth.lastCode(phoneNumber);
    expect((await auth.post('/members', form({ id: taken.id, phoneNumber, sendCode }))).status).toBe(409);
    expect((await auth.post('/members', form({ phoneNumber, sendCode }))).status).toBe(201);
  });
});

describe('code expiry', () => {
  it('refuses a code after PHONE_CODE_TTL_SECONDS, as if none was sent', async () => {
    const shortLived = await AuthUnderTest.start(infra, null, { PHONE_CODE_TTL_SECONDS: '1' }, true);
    try {
      await catalog.set({ ENABLE_PHONE_NUMBER_VERIFICATION: 'true' });
      const phoneNumber = freshPhone();
      expect((await shortLived.post('/phone-verifications', { phoneNumber })).body).toMatchObject({ expiresIn: 1 });
      const sendCode = await shortLived.lastCode(phoneNumber);
      await new Promise((r) => setTimeout(r, 1300));
      expect(await shortLived.post('/members', form({ phoneNumber, sendCode }))).toMatchObject({ status: 400, body: { code: 'CODE_NOT_SENT' } });
    } finally {
      await catalog.set({ ENABLE_PHONE_NUMBER_VERIFICATION: 'false' });
      await shortLived.stop();
    }
  });
});

describe('referral codes at registration', () => {
  it('accepts a member\'s code while the setting is on and records who referred', async () => {
    await catalog.set({ ENABLE_REFERRAL: 'true' });
    const referrer = await auth.post<{ userId: string }>('/members', form());
    const issued = await auth.post<{ referralCode: string }>('/members/me/referral-code', {}, as(referrer.body.userId));
    expect(issued.status).toBe(201);

    const unknown = await auth.post('/members', form({ referral: 'ZZZZ9999' }));
    expect(unknown).toMatchObject({ status: 400, body: { code: 'REFERRAL_NOT_FOUND', message: messages.referralNotFound } });

    const referred = await auth.post<{ userId: string }>('/members', form({ referral: issued.body.referralCode.toLowerCase() }));
    expect(referred.status).toBe(201);
    const event = await eventually(
      () => authEvents.events.find((e) => e.type === 'UserRegistered' && e.aggregateId === referred.body.userId),
      (e) => e !== undefined,
    );
    expect(event?.data).toMatchObject({ referredBy: issued.body.referralCode, referrerId: referrer.body.userId });

    await catalog.set({ ENABLE_REFERRAL: 'false' });
    const off = await auth.post('/members', form({ referral: issued.body.referralCode }));
    expect(off).toMatchObject({ status: 400, body: { code: 'REFERRAL_DISABLED' } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, totpAt } from '@smm/testkit';
import { api, asAdmin, setSettings, uniqueId } from './support/client.ts';

/**
 * Issue 41 through the BFF against the running services: staff management by admins only, staff
 * held to their areas on the server, a disabled operator's token refused at once, and the
 * second factor with real TOTP codes and single-use recovery codes.
 */
type ErrorBody = { code: string; message: string };
type Operator = { userId: string; loginId: string; role: string; areas: string[]; disabled: boolean; initialPassword: string | null };
type Step = { twoFactor?: 'verify' | 'enrol'; challenge?: string; accessToken?: string };
let admin: string;

beforeAll(async () => {
  admin = await asAdmin();
});

async function newOperator(areas: string[], role = 'staff') {
  const made = await api<Operator>('POST', '/admin/operators', { token: admin, body: { loginId: uniqueId('op'), role, areas } });
  expect(made.status).toBe(201);
  return { ...made.body, password: made.body.initialPassword! };
}
const logIn = (op: { loginId: string; password: string }) => api<Step & { expiresIn?: number }>('POST', '/auth/login', { body: { id: op.loginId, password: op.password } });
const refreshCookie = (headers: Headers) => /smm_refresh=([^;]+)/.exec(headers.get('set-cookie') ?? '')?.[1] ?? null;

describe('staff management through the BFF', () => {
  it('staff cannot manage operators, and are held to their areas on the server', async () => {
    const staff = await newOperator(['top-ups']);
    const token = (await logIn(staff)).body.accessToken!;
    expect(await api<ErrorBody>('GET', '/admin/operators', { token })).toMatchObject({ status: 403, body: { code: 'ADMIN_ONLY' } });
    expect((await api('POST', '/admin/operators', { token, body: { loginId: uniqueId('x'), role: 'admin' } })).status).toBe(403);
    expect((await api('POST', `/admin/operators/${staff.userId}/disable`, { token })).status).toBe(403);
    expect(await api('GET', '/admin/me', { token })).toMatchObject({ status: 200, body: { role: 'staff', areas: ['top-ups'] } });
    expect((await api('GET', '/admin/top-ups', { token })).status).toBe(200);
    expect((await api('GET', '/admin/dashboard', { token })).status).toBe(200);
    for (const path of ['/admin/members', '/admin/orders/search', '/admin/deposits', '/admin/fulfillment/forwards?state=review']) {
      expect(await api<ErrorBody>('GET', path, { token }), path).toMatchObject({ status: 403, body: { code: 'AREA_FORBIDDEN', message: expect.stringContaining('권한') } });
    }
    // New areas count on the very next request.
    expect((await api('PUT', `/admin/operators/${staff.userId}`, { token: admin, body: { role: 'staff', areas: ['members'] } })).status).toBe(200);
    expect((await api('GET', '/admin/members', { token })).status).toBe(200);
    expect((await api('GET', '/admin/top-ups', { token })).status).toBe(403);
  });

  it("a disabled operator's token is refused at once; they cannot sign in or refresh", async () => {
    const staff = await newOperator(['orders']);
    const login = await logIn(staff);
    const token = login.body.accessToken!;
    const cookie = refreshCookie(login.headers);
    expect(cookie).not.toBeNull();
    expect((await api('GET', '/admin/me', { token })).status).toBe(200);
    expect(await api('POST', `/admin/operators/${staff.userId}/disable`, { token: admin })).toMatchObject({ status: 200, body: { disabled: true } });
    expect(await api<ErrorBody>('GET', '/admin/me', { token })).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
    expect((await api('GET', '/admin/orders/search', { token })).status).toBe(401);
    expect(await logIn(staff)).toMatchObject({ status: 403, body: { code: 'OPERATOR_DISABLED', message: expect.stringContaining('사용이 중지된') } });
    expect((await api('POST', '/auth/refresh', { headers: { cookie: `smm_refresh=${cookie}` } })).status).toBe(401);
    const log = await eventually(
      () => api<{ items: Array<{ action: string; target: { loginId: string | null } }> }>('GET', '/admin/audit?action=auth.operator.disable', { token: admin }),
      (res) => res.body.items.some((i) => i.target.loginId === staff.loginId),
      20_000,
    );
    expect(log.status).toBe(200);
  });

  it('an admin may not change their own role or disable themselves (SELF_ACTION)', async () => {
    const me = await api<{ userId: string }>('GET', '/admin/me', { token: admin });
    expect(await api<ErrorBody>('PUT', `/admin/operators/${me.body.userId}`, { token: admin, body: { role: 'staff', areas: ['orders'] } })).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    expect(await api<ErrorBody>('POST', `/admin/operators/${me.body.userId}/disable`, { token: admin })).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    expect((await api('GET', '/admin/operators', { token: admin })).status).toBe(200);
  });
});

describe('two-factor sign-in while the setting requires it', () => {
  let staff: Awaited<ReturnType<typeof newOperator>>;
  beforeAll(async () => {
    staff = await newOperator(['orders']);
    await setSettings({ ENABLE_OPERATOR_TWO_FACTOR: 'true' });
    await eventually(() => logIn(staff), (res) => res.body.twoFactor === 'enrol', 20_000);
  });
  afterAll(async () => {
    await setSettings({ ENABLE_OPERATOR_TWO_FACTOR: 'false' });
    const other = await newOperator(['orders']);
    await eventually(() => logIn(other), (res) => typeof res.body.accessToken === 'string', 20_000);
  });

  it('enrols with a real code, then signs in with codes (a used one refused) and recovery codes (once each)', async () => {
    const step = await logIn(staff);
    expect(step.body).toMatchObject({ twoFactor: 'enrol' });
    expect(step.body.accessToken).toBeUndefined();
    const offered = await api<{ secret: string; otpauthUri: string }>('POST', '/auth/login/two-factor/enrolment', { body: { challenge: step.body.challenge } });
    expect(offered.status).toBe(200);
    const enrolledAt = Date.now();
    const enrolled = await api<{ accessToken: string; recoveryCodes: string[] }>('POST', '/auth/login/two-factor/enrolment/confirm', {
      body: { challenge: step.body.challenge, code: totpAt(offered.body.secret, enrolledAt) },
    });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body).not.toHaveProperty('refreshToken');
    expect(refreshCookie(enrolled.headers)).not.toBeNull();
    expect(enrolled.body.recoveryCodes).toHaveLength(10);
    expect((await api('GET', '/admin/me', { token: enrolled.body.accessToken })).status).toBe(200);

    const verify = await logIn(staff);
    expect(verify.body.twoFactor).toBe('verify');
    // The enrolment's code again: its step was used.
    expect(await api<ErrorBody>('POST', '/auth/login/two-factor', { body: { challenge: verify.body.challenge, code: totpAt(offered.body.secret, enrolledAt) } })).toMatchObject({
      status: 400,
      body: { code: 'CODE_ALREADY_USED' },
    });
    const signedIn = await api<{ accessToken: string }>('POST', '/auth/login/two-factor', { body: { challenge: verify.body.challenge, code: totpAt(offered.body.secret, Date.now() + 30_000) } });
    expect(signedIn.status).toBe(200);
    expect((await api('GET', '/admin/orders/search', { token: signedIn.body.accessToken })).status).toBe(200);

    const recovery = enrolled.body.recoveryCodes[0]!;
    const first = await logIn(staff);
    expect((await api('POST', '/auth/login/two-factor', { body: { challenge: first.body.challenge, recoveryCode: recovery } })).status).toBe(200);
    const second = await logIn(staff);
    expect(await api<ErrorBody>('POST', '/auth/login/two-factor', { body: { challenge: second.body.challenge, recoveryCode: recovery } })).toMatchObject({
      status: 400,
      body: { code: 'RECOVERY_CODE_INVALID', message: expect.stringContaining('복구 코드') },
    });
  });
});

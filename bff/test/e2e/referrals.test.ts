import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, asAdmin, setSettings, uniqueId } from './support/client.ts';
import { type Member, balanceBecomes, fund, member, order, orderServiceUp, pointDeciOf, product } from './support/money.ts';

type Referrals = {
  ratePercent: number;
  memberCount: number;
  members: Array<{ loginId: string; registeredAt: string }>;
  earningsDeci: number;
  earnings: number;
  history: { items: Array<{ kind: string; member: string; amountDeci: number; point: number; sourceDeci: number; ratePercent: number; shortfallDeci: number }>; hasNext: boolean };
};
const referralsOf = async (m: Member) => (await api<Referrals>('GET', '/auth/referrals', { token: m.token })).body;

describe.runIf(orderServiceUp())('referrals that pay (register with a code → the referred member\'s order is delivered → the referrer earns)', () => {
  let referrer: Member;
  let referred: Member;
  let p: Awaited<ReturnType<typeof product>>;

  beforeAll(async () => {
    await setSettings({ ENABLE_REFERRAL: 'true' });
    referrer = await member();
  });
  afterAll(async () => {
    await setSettings({ REFERRAL_RATE_PERCENT: '5' });
  });

  it('lets operators read and change the rate, refusing a rate outside 0–50 with a Korean message', async () => {
    const admin = await asAdmin();
    const refused = await api('PUT', '/admin/settings', { token: admin, body: { values: { REFERRAL_RATE_PERCENT: '60' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('추천 적립률은 0~50 사이의 정수(%)로 입력해 주세요.');
    await setSettings({ REFERRAL_RATE_PERCENT: '10' });
    const read = await api<unknown>('GET', '/admin/settings', { token: admin });
    expect(JSON.stringify(read.body)).toContain('REFERRAL_RATE_PERCENT');
    expect(JSON.stringify(read.body)).not.toContain('"60"');
    // the member's section follows the operator's rate once wallet has the SettingChanged
    await eventually(() => referralsOf(referrer), (r) => r.ratePercent === 10, 20_000);
  });

  it('registers a member with the referrer\'s code and pays 10 % of their delivered order, nothing of a cancelled one', async () => {
    const code = (await api<{ referralCode: string }>('POST', '/auth/referral-code', { token: referrer.token })).body.referralCode;
    const id = uniqueId('ref');
    const password = 'pass-1234';
    const reg = await api<{ userId: string }>('POST', '/auth/register', { body: { id, password, email: `${id}@example.com`, registerWhere: '기타', referral: code } });
    expect(reg.status).toBe(201);
    const login = await api<{ accessToken: string }>('POST', '/auth/login', { body: { id, password } });
    referred = { id, password, token: login.body.accessToken, userId: reg.body.userId };
    await eventually(() => referralsOf(referrer), (r) => r.memberCount === 1, 20_000);
    expect((await referralsOf(referrer)).members).toEqual([{ loginId: `${id.slice(0, 2)}***`, registeredAt: expect.any(String) }]);

    await fund(referred, 10_000);
    p = await product({ min: 10, max: 1000, point: 2.5 }, referred);
    // Nothing is earned before delivery: an operator cancels the first order, the member gets it all back, the referrer never had it.
    const placed = await order(referred, { serviceId: p.id, link: 'my_profile', amount: 101 }); // 2525 deci-won → 10 % = 252
    expect(placed.body.outcome).toBe('accepted');
    const canceledId = (placed.body.order as { id: number }).id;
    expect((await api('PATCH', `/admin/orders/${canceledId}`, { token: await asAdmin(), body: { status: 5 } })).status).toBe(200);
    await balanceBecomes(referred, 100_000);
    expect(await pointDeciOf(referrer)).toBe(0);

    // The second order is completed: the referrer earns 10 % of what it delivered.
    const second = await order(referred, { serviceId: p.id, link: 'my_profile', amount: 101 });
    expect(second.body.outcome).toBe('accepted');
    const completedId = (second.body.order as { id: number }).id;
    expect((await api('PATCH', `/admin/orders/${completedId}`, { token: await asAdmin(), body: { status: 2 } })).status).toBe(200);
    await balanceBecomes(referrer, 252);
    const view = await referralsOf(referrer);
    expect(view).toMatchObject({ ratePercent: 10, memberCount: 1, earningsDeci: 252, earnings: 25.2 });
    expect(view.history.items).toEqual([{ createdAt: expect.any(String), kind: 'credit', member: `${id.slice(0, 2)}***`, amountDeci: 252, point: 25.2, sourceDeci: 2525, ratePercent: 10, shortfallDeci: 0 }]);
    // the referred member has no referrals of their own, and guests have none at all
    expect(await referralsOf(referred)).toMatchObject({ memberCount: 0, earningsDeci: 0, history: { items: [] } });
    expect((await api('GET', '/auth/referrals')).status).toBe(401);
  });
});

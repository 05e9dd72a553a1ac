import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, reconcile } from '@smm/reconcile';
import { eventually } from '@smm/testkit';
import { api, asAdmin, stack } from './support/client.ts';
import { type Member, apiKeyOf, balanceBecomes, member, order, orderServiceUp, pointDeciOf, product, schedulerUp, v2 } from './support/money.ts';

/**
 * Issue 40, rates per member, on the running devstack: an admin gives a member a discount or a
 * price of their own; the member sees it on the catalogue, /api/services and v2 services, and is
 * charged exactly it on the web (whose shown-price guard catches a rate change), through v2 and
 * for an auto order's runs; insiders and forged rates are refused; every change is in the audit
 * log with the member as beneficiary; the reconciliation finds nothing.
 */
type ErrorBody = { code: string; message: string };
type Rates = { userId: string; items: Array<{ serviceId: number | null; discountPercent: number | null; unitPriceDeci: number | null }> };
type Service = { id: number; point: number; unitPriceDeci: number; listPoint?: number; listUnitPriceDeci?: number };

let admin: string;
let m: Member;
let p: Awaited<ReturnType<typeof product>>;
let q: Awaited<ReturnType<typeof product>>;
const mine = new Set<string>();

const setRate = (userId: string, body: unknown, token = admin) => api<Rates & ErrorBody>('PUT', `/admin/members/${userId}/rates`, { token, body });
const servicesOf = async (who: Member) => (await api<Service[]>('GET', '/service/services', { token: who.token })).body;

describe.skipIf(!orderServiceUp())('rates per member (issue 40)', () => {
  beforeAll(async () => {
    admin = await asAdmin();
    m = await member(20_000);
    mine.add(m.userId);
    p = await product({ min: 10, max: 1000, point: 2.5 }, m);
    q = await product({ min: 10, max: 1000, point: 12.5 }, m);
  });

  afterAll(async () => {
    // Every money test ends with the cross-service reconciliation (these members' movements).
    const report = await eventually(
      () => reconcile({ url: stack().mongoUrl, readPreference: 'primary' }),
      (r) => r.discrepancies.every((d) => d.userId === undefined || !mine.has(d.userId)),
      30_000,
    );
    const ours = report.discrepancies.filter((d) => d.userId !== undefined && mine.has(d.userId));
    expect(ours, formatReport(report).join('\n')).toEqual([]);
  });

  it('refuses staff, an admin for their own account, unknown members and forged rates, changing nothing', async () => {
    const staffMember = await member();
    expect((await api('PUT', `/admin/members/${staffMember.userId}/role`, { token: admin, body: { role: 'staff' } })).status).toBe(200);
    const staff = (await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: staffMember.id, password: staffMember.password } })).body.accessToken;
    expect(await setRate(m.userId, { discountPercent: 10 }, staff)).toMatchObject({ status: 403, body: { code: 'ADMIN_ONLY' } });
    // Staff may read a member's rates (the console shows them), not change them.
    expect((await api<Rates>('GET', `/admin/members/${m.userId}/rates`, { token: staff })).body).toEqual({ userId: m.userId, items: [] });

    const adminId = (await api<{ userId: string }>('GET', '/auth/profile', { token: admin })).body.userId;
    expect(await setRate(adminId, { discountPercent: 50 })).toMatchObject({ status: 403, body: { code: 'SELF_ACTION', message: '본인 계정의 단가는 직접 정할 수 없습니다. 다른 관리자에게 요청해 주세요.' } });
    expect((await setRate('no-such-member-40', { discountPercent: 10 })).status).toBe(404);

    for (const [body, code] of [
      [{ discountPercent: -10 }, 'RATE_PERCENT_INVALID'],
      [{ discountPercent: 120 }, 'RATE_PERCENT_INVALID'],
      [{ serviceId: p.id, unitPrice: 0 }, 'RATE_PRICE_INVALID'],
      [{ serviceId: p.id, unitPrice: -1 }, 'RATE_PRICE_INVALID'],
      [{ serviceId: 987_654, discountPercent: 10 }, 'RATE_SERVICE_UNKNOWN'],
      [[1, 2], 'RATE_KIND_REQUIRED'],
    ] as const) {
      const res = await setRate(m.userId, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, code]);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    expect((await api<Rates>('GET', `/admin/members/${m.userId}/rates`, { token: admin })).body.items).toEqual([]);
    expect((await servicesOf(m)).find((s) => s.id === p.id)).toMatchObject({ unitPriceDeci: 25 });
  });

  it('shows the member their price everywhere, charges exactly it, and refuses a price shown before a rate change', async () => {
    // 20 % on everything (2.5 → 2.0 won), 9.9 won of their own for q (12.5 won in the catalogue).
    expect((await setRate(m.userId, { discountPercent: 20 })).status).toBe(200);
    expect((await setRate(m.userId, { serviceId: q.id, unitPrice: '9.9' })).body.items).toHaveLength(2);

    const list = await servicesOf(m);
    expect(list.find((s) => s.id === p.id)).toMatchObject({ point: 2, unitPriceDeci: 20, listPoint: 2.5, listUnitPriceDeci: 25 });
    expect(list.find((s) => s.id === q.id)).toMatchObject({ point: 9.9, unitPriceDeci: 99, listPoint: 12.5 });
    const other = await member();
    expect((await servicesOf(other)).find((s) => s.id === p.id)).toMatchObject({ point: 2.5, unitPriceDeci: 25 });
    expect((await api<Service[]>('GET', '/service/services')).body.find((s) => s.id === p.id)).toMatchObject({ point: 2.5 });

    const key = await apiKeyOf(m);
    const plain = await api<Array<{ id: number; point: number }>>('GET', '/services', { headers: { 'api-key': key } });
    expect(plain.body.find((s) => s.id === q.id)?.point).toBe(9.9);
    const v2List = await v2<Array<{ service: number; rate: string }>>({ key, action: 'services' });
    expect(v2List.body.find((s) => s.service === p.id)?.rate).toBe('2000.0');

    // The web shows the price it read; one read before the rate was set is refused, nothing charged.
    const before = await pointDeciOf(m);
    const stale = await order(m, { serviceId: p.id, link: 'https://www.instagram.com/p/rates-40', amount: 100, unitPriceDeci: 25 });
    expect(stale).toMatchObject({ status: 409, body: { code: 'PRICE_CHANGED', message: '가격이 변경되었습니다. 확인 후 다시 주문해 주세요.' } });
    const placed = await order(m, { serviceId: p.id, link: 'https://www.instagram.com/p/rates-40', amount: 100, unitPriceDeci: 20 });
    expect(placed.status).toBe(201);
    expect(placed.body.order).toMatchObject({ pointDeci: 2_000 });
    await balanceBecomes(m, before - 2_000);
    // A reseller's v2 add pays their price for q: 9.9 × 10.
    const added = await v2<{ order: number }>({ key, action: 'add', service: String(q.id), link: 'https://www.instagram.com/p/rates-40-v2', quantity: '10' });
    expect(added.status).toBe(200);
    expect((await v2<{ charge: string }>({ key, action: 'status', order: String(added.body.order) })).body.charge).toBe('99.0');
    await balanceBecomes(m, before - 2_000 - 990);

    const log = await eventually(
      () => api<{ items: Array<{ action: string; before: unknown; after: unknown; beneficiary: { loginId: string | null } | null }> }>('GET', `/admin/audit?beneficiary=${m.id}&action=order.rate.set`, { token: admin }),
      (r) => r.body.items?.length === 2,
      30_000,
    );
    expect(log.body.items.map((i) => [i.before, i.after, i.beneficiary?.loginId])).toEqual([
      [null, { serviceId: q.id, discountPercent: null, unitPriceDeci: 99 }, m.id],
      [null, { serviceId: null, discountPercent: 20, unitPriceDeci: null }, m.id],
    ]);
  });

  it.skipIf(!schedulerUp())("an auto order's runs are charged at placement: a rate removed meanwhile changes nothing", async () => {
    const a = await member(10_000);
    mine.add(a.userId);
    expect((await setRate(a.userId, { serviceId: p.id, discountPercent: 50 })).status).toBe(200); // 2.5 → 1.25 → 1.3 won
    const placed = await order(a, { serviceId: p.id, link: 'https://www.instagram.com/p/rates-40-auto', amount: 100, runs: 2, interval: 60, unitPriceDeci: 13 });
    expect(placed.status).toBe(201);
    const autoId = (placed.body.order as { id: number }).id;
    expect(placed.body.order).toMatchObject({ pointDeci: 2_600 });
    expect((await api('DELETE', `/admin/members/${a.userId}/rates/${p.id}`, { token: admin })).status).toBe(200);
    expect((await servicesOf(a)).find((s) => s.id === p.id)).toMatchObject({ unitPriceDeci: 25 });
    type Auto = { id: number; completed: number; pointDeci: number };
    const done = await eventually(() => api<{ items: Auto[] }>('GET', '/service/auto-order-history', { token: a.token }), (r) => r.body.items?.find((x) => x.id === autoId)?.completed === 2, 30_000);
    expect(done.body.items.find((x) => x.id === autoId)).toMatchObject({ completed: 2, pointDeci: 2_600 });
    const runs = await api<{ items: Array<{ autoOrderId: number | null; pointDeci: number }> }>('GET', '/service/order-history', { token: a.token });
    expect(runs.body.items.filter((o) => o.autoOrderId === autoId).map((o) => o.pointDeci)).toEqual([1_300, 1_300]);
    expect(await pointDeciOf(a)).toBe(100_000 - 2_600);
  });
});

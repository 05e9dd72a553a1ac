import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { auditRecordsInOutbox } from '@smm/platform';
import { type ErrorBody, client, eventually, orderSuite, replicated } from './support.ts';

/**
 * Issue 39 through order's own HTTP route (the one the console's PATCH and its bulk change both
 * reach): staff move orders along but a change that refunds is an admin's, no operator changes
 * their own order, and a refund's audit record names the member it benefits.
 */
const suite = orderSuite();

type View = { id: number; status: number | null; remains: number };

async function paidOrder(userId = `m-${randomUUID().slice(0, 8)}`) {
  suite.h.stand.balances.set(userId, (suite.h.stand.balances.get(userId) ?? 0) + 1_000_000);
  const res = await client(suite.h.base, userId).post<{ order: View }>('/orders', { serviceId: 1, link: 'creator', amount: 100 });
  expect(res.status).toBe(201);
  return { userId, id: res.body.order.id };
}
const statusOf = async (id: number, userId: string) => (await client(suite.h.base, userId).get<View>(`/orders/${id}`)).body.status;

describe('order changes by operators (issue 39)', () => {
  it('staff may move an order along but not cancel or partially complete it (refunds): 403, nothing changed', async () => {
    const { userId, id } = await paidOrder();
    const staff = client(suite.h.base, 'staff-39', 'staff');
    expect((await staff.patch(`/admin/orders/${id}`, { status: 1 })).status).toBe(200);
    for (const patch of [{ status: 5 }, { status: 3, remains: 40 }]) {
      expect(await staff.patch(`/admin/orders/${id}`, patch)).toEqual({
        status: 403,
        body: { code: 'STAFF_REFUND_ADMIN_ONLY', message: '환불이 따르는 변경(부분 완료, 취소)은 관리자만 할 수 있습니다.' },
      });
    }
    expect(await statusOf(id, userId)).toBe(1);
    expect(suite.h.stand.of(id, 'RefundRequested')).toEqual([]);
    const admin = client(suite.h.base, 'admin-39', 'admin');
    expect((await admin.patch(`/admin/orders/${id}`, { status: 5 })).status).toBe(200);
    const records = await auditRecordsInOutbox(suite.h.order.store.connection, String(id));
    expect(records.at(-1)).toMatchObject({ action: 'order.status.change', after: { status: 5 }, beneficiaryId: userId });
    expect(records[0]!.beneficiaryId).toBeUndefined(); // moving it along refunded nothing
  });

  it('no operator changes their own order, admins included', async () => {
    const { userId, id } = await paidOrder(`op-${randomUUID().slice(0, 8)}`);
    for (const role of ['admin', 'staff'] as const) {
      expect(await client(suite.h.base, userId, role).patch(`/admin/orders/${id}`, { status: 5 })).toEqual({
        status: 403,
        body: { code: 'SELF_ACTION', message: '본인 계정의 주문은 직접 변경할 수 없습니다. 다른 운영자에게 요청해 주세요.' },
      });
    }
    expect(await statusOf(id, userId)).toBe(0);
  });
});

/**
 * Issue 40, rates per member, through order's own routes: only an admin sets a member's rate and
 * never their own; forged rates are refused in Korean and change nothing; a member is priced by
 * their rate (discount rounded up to 0.1 won, never above the catalogue's price), the shown-price
 * guard covers a rate change, and an auto order's runs keep the price it was charged at placement.
 */
describe('rates per member (issue 40)', () => {
  type Rates = { userId: string; items: Array<{ serviceId: number | null; serviceText: string | null; discountPercent: number | null; unitPriceDeci: number | null; unitPrice: number | null; updatedBy: string }> };
  type Placed = { order: { id: number; pointDeci: number; chargeDeci?: number; perRunDeci?: number } };
  const admin = () => client(suite.h.base, 'admin-40', 'admin');
  const rich = (userId: string) => suite.h.stand.balances.set(userId, 10_000_000);

  it('only an admin sets a rate, never for their own account; forged rates are refused and change nothing', async () => {
    const userId = `r-${randomUUID().slice(0, 8)}`;
    expect(await client(suite.h.base, 'staff-40', 'staff').put(`/admin/rates/${userId}`, { discountPercent: 10 })).toEqual({
      status: 403,
      body: { code: 'RATE_ADMIN_ONLY', message: '회원 단가(할인·지정 단가)는 관리자만 정할 수 있습니다.' },
    });
    expect(await client(suite.h.base, userId, 'member').put(`/admin/rates/${userId}`, { discountPercent: 10 })).toMatchObject({ status: 403, body: { code: 'ADMIN_ONLY' } });
    expect(await client(suite.h.base, userId, 'admin').put(`/admin/rates/${userId}`, { discountPercent: 50 })).toEqual({
      status: 403,
      body: { code: 'SELF_ACTION', message: '본인 계정의 단가는 직접 정할 수 없습니다. 다른 관리자에게 요청해 주세요.' },
    });
    const forged: Array<[unknown, string]> = [
      [{ discountPercent: -5 }, 'RATE_PERCENT_INVALID'],
      [{ discountPercent: 0 }, 'RATE_PERCENT_INVALID'],
      [{ discountPercent: 100 }, 'RATE_PERCENT_INVALID'],
      [{ discountPercent: 150 }, 'RATE_PERCENT_INVALID'],
      [{ discountPercent: 12.5 }, 'RATE_PERCENT_INVALID'],
      [{ discountPercent: '10%' }, 'RATE_PERCENT_INVALID'],
      [{ serviceId: 1, unitPrice: 0 }, 'RATE_PRICE_INVALID'],
      [{ serviceId: 1, unitPrice: -2 }, 'RATE_PRICE_INVALID'],
      [{ serviceId: 1, unitPrice: '1.25' }, 'RATE_PRICE_INVALID'],
      [{ serviceId: 1, unitPrice: 1_000_001 }, 'RATE_PRICE_INVALID'],
      [{ unitPrice: 2 }, 'RATE_PRICE_NEEDS_SERVICE'],
      [{ serviceId: 1, discountPercent: 10, unitPrice: 2 }, 'RATE_KIND_REQUIRED'],
      [{ serviceId: 1 }, 'RATE_KIND_REQUIRED'],
      [{ serviceId: 999_999, discountPercent: 10 }, 'RATE_SERVICE_UNKNOWN'],
      [{ serviceId: -1, discountPercent: 10 }, 'RATE_SERVICE_UNKNOWN'],
      [[1, 2], 'RATE_KIND_REQUIRED'],
    ];
    for (const [body, code] of forged) {
      const res = await admin().put<ErrorBody>(`/admin/rates/${userId}`, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, code]);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    expect((await admin().delete<ErrorBody>(`/admin/rates/${userId}/all`)).body.code).toBe('RATE_NOT_FOUND');
    expect((await admin().get<Rates>(`/admin/rates/${userId}`)).body).toEqual({ userId, items: [] });
    expect(await auditRecordsInOutbox(suite.h.order.store.connection, userId, 'member')).toEqual([]);
    // A member reads only their own rates.
    expect((await client(suite.h.base, 'someone-else').get(`/rates?userId=${userId}`)).status).toBe(403);
  });

  it("a member is charged their price; the shown-price guard covers a rate change; every change is audited with the member as beneficiary", async () => {
    const userId = `r-${randomUUID().slice(0, 8)}`;
    rich(userId);
    const member = client(suite.h.base, userId);
    await suite.h.stand.product({ serviceId: 40, text: '리셀러 상품', unitPriceDeci: 125, min: 10, max: 1000 });
    await replicated(suite.h, 40);

    // 10 % on every product: 2.5 won → 2.25 → rounded up to 2.3 won (23 deci).
    expect((await admin().put<Rates>(`/admin/rates/${userId}`, { discountPercent: 10 })).status).toBe(200);
    // A price of its own for product 40: 12.5 → 9.9 won; and a "custom price" above the catalogue's changes nothing.
    const set = await admin().put<Rates>(`/admin/rates/${userId}`, { serviceId: 40, unitPrice: '9.9' });
    expect(set.body.items).toEqual([
      expect.objectContaining({ serviceId: null, discountPercent: 10, unitPriceDeci: null, updatedBy: 'admin-40' }),
      expect.objectContaining({ serviceId: 40, serviceText: '리셀러 상품', discountPercent: null, unitPriceDeci: 99, unitPrice: 9.9 }),
    ]);
    expect((await member.get<Rates>('/rates')).body.items).toHaveLength(2);

    // The screen showed the catalogue price before the rate: 409, nothing placed.
    const stale = await member.post<ErrorBody>('/orders', { serviceId: 1, link: 'rated', amount: 100, unitPriceDeci: 25 });
    expect(stale).toEqual({ status: 409, body: { code: 'PRICE_CHANGED', message: '가격이 변경되었습니다. 확인 후 다시 주문해 주세요.' } });
    const one = await member.post<Placed>('/orders', { serviceId: 1, link: 'rated', amount: 100, unitPriceDeci: 23 });
    expect(one.status).toBe(201);
    expect(one.body.order.pointDeci).toBe(2300);
    const own = await member.post<Placed>('/orders', { serviceId: 40, link: 'rated', amount: 10 }); // an API caller: no price shown, pays theirs
    expect(own.body.order.pointDeci).toBe(990);
    expect(suite.h.stand.of(own.body.order.id, 'OrderPlaced')[0]?.data).toMatchObject({ chargeDeci: 990 });
    // Another member pays the catalogue's price.
    rich('r-plain');
    expect((await client(suite.h.base, 'r-plain').post<Placed>('/orders', { serviceId: 1, link: 'plain', amount: 100 })).body.order.pointDeci).toBe(2500);

    // A custom price above the catalogue's: the member still pays the catalogue's (a rate only lowers).
    await admin().put(`/admin/rates/${userId}`, { serviceId: 40, unitPrice: 20 });
    expect((await member.post<Placed>('/orders', { serviceId: 40, link: 'rated', amount: 10, unitPriceDeci: 125 })).body.order.pointDeci).toBe(1250);

    // Removing the rate for every product: the catalogue's price again, the screen showing 2.3 won is told.
    expect((await admin().delete<Rates>(`/admin/rates/${userId}/all`)).body.items.map((r) => r.serviceId)).toEqual([40]);
    expect((await member.post<ErrorBody>('/orders', { serviceId: 1, link: 'rated', amount: 100, unitPriceDeci: 23 })).status).toBe(409);

    const records = await auditRecordsInOutbox(suite.h.order.store.connection, userId, 'member');
    expect(records.map((r) => [r.action, r.before, r.after, r.beneficiaryId, r.actor])).toEqual([
      ['order.rate.set', null, { serviceId: null, discountPercent: 10, unitPriceDeci: null }, userId, { userId: 'admin-40', role: 'admin' }],
      ['order.rate.set', null, { serviceId: 40, discountPercent: null, unitPriceDeci: 99 }, userId, { userId: 'admin-40', role: 'admin' }],
      ['order.rate.set', { serviceId: 40, discountPercent: null, unitPriceDeci: 99 }, { serviceId: 40, discountPercent: null, unitPriceDeci: 200 }, userId, { userId: 'admin-40', role: 'admin' }],
      ['order.rate.delete', { serviceId: null, discountPercent: 10, unitPriceDeci: null }, null, userId, { userId: 'admin-40', role: 'admin' }],
    ]);
  });

  it("an auto order's runs keep the rate it was charged at placement; cancel refunds at that price", async () => {
    const userId = `r-${randomUUID().slice(0, 8)}`;
    rich(userId);
    const member = client(suite.h.base, userId);
    await admin().put(`/admin/rates/${userId}`, { serviceId: 1, discountPercent: 33 }); // 2.5 → 1.675 → 1.7 won
    const placed = await member.post<Placed>('/orders', { serviceId: 1, link: 'auto-rated', amount: 100, runs: 3, interval: 60, unitPriceDeci: 17 });
    expect(placed.status).toBe(201);
    expect(placed.body.order).toMatchObject({ pointDeci: 5100, chargeDeci: 5100 });
    const id = placed.body.order.id;
    // The rate goes away before the first run: the run is the share paid at placement, nothing charged again.
    await admin().delete(`/admin/rates/${userId}/1`);
    await suite.h.stand.publish(Topics.scheduler, suite.h.stand.runDue(id, userId, 1));
    const run = await eventually(() => suite.h.stand.of(id, 'AutoOrderRunPlaced'), (e) => e.length === 1);
    const child = await member.get<{ pointDeci: number }>(`/orders/${(run[0]!.data as { childOrderId: number }).childOrderId}`);
    expect(child.body.pointDeci).toBe(1700);
    const canceled = await member.post<{ refundDeci: number }>(`/auto-orders/${id}/cancel`, {});
    expect(canceled.body.refundDeci).toBe(3400);
    expect(suite.h.stand.replies.filter((r) => (r.data as { orderId: number }).orderId === id).map((r) => r.type)).toEqual(['PointDebited']);
  });
});

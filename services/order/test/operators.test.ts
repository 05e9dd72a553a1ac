import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ErrorBody, client, eventually, orderSuite } from './support.ts';

const suite = orderSuite();
const admin = () => client(suite.h.base, 'op-1', 'admin');

type View = { id: number; status: number | null; startCount: number | null; remains: number; amount: number; pointDeci: number; userId: string; createdAt: string; link: string; linkUrl: string | null; serviceText: string; autoOrderId: number | null };
type PageOf<T> = { items: T[]; page: number; pageSize: number; hasNext: boolean };

async function paidOrder(amount = 100, userId = `m-${randomUUID().slice(0, 8)}`) {
  const api = client(suite.h.base, userId);
  suite.h.stand.balances.set(userId, (suite.h.stand.balances.get(userId) ?? 0) + 1_000_000);
  const res = await api.post<{ order: View }>('/orders', { serviceId: 1, link: 'creator', amount });
  expect(res.status).toBe(201);
  return { userId, api, order: res.body.order };
}

describe('operators change order statuses', () => {
  it('refuse non-operators with 403', async () => {
    const { api, order } = await paidOrder();
    expect(await api.patch(`/admin/orders/${order.id}`, { status: 1 })).toEqual({ status: 403, body: { code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' } });
    expect((await api.get('/admin/orders')).status).toBe(403);
  });

  it('move an open order through 1 and 4, set the start count, then complete it; final orders stay final', async () => {
    const { userId, order } = await paidOrder();
    let res = await admin().patch<View>(`/admin/orders/${order.id}`, { status: 1, startCount: 1200 });
    expect(res.body).toMatchObject({ status: 1, startCount: 1200, remains: 100 });
    res = await admin().patch<View>(`/admin/orders/${order.id}`, { status: 4, remains: 30 });
    expect(res.body).toMatchObject({ status: 4, remains: 30 });
    res = await admin().patch<View>(`/admin/orders/${order.id}`, { status: 2 });
    expect(res.body).toMatchObject({ status: 2, remains: 0, startCount: 1200 });
    for (const patch of [{ status: 1 }, { status: 5 }, { startCount: 5 }]) {
      expect(await admin().patch(`/admin/orders/${order.id}`, patch)).toEqual({ status: 409, body: { code: 'ORDER_STATUS_FINAL', message: '이미 종료된 주문은 변경할 수 없습니다.' } });
    }
    const changes = await eventually(() => suite.h.stand.of(order.id, 'OrderStatusChanged'), (e) => e.length >= 3);
    expect(changes.map((e) => e.data)).toEqual([
      { orderId: order.id, userId, from: 0, to: 1, startCount: 1200, remains: 100 },
      { orderId: order.id, userId, from: 1, to: 4, startCount: 1200, remains: 30 },
      { orderId: order.id, userId, from: 4, to: 2, startCount: 1200, remains: 0 },
    ]);
    expect(suite.h.stand.of(order.id, 'RefundRequested')).toEqual([]);
  });

  it('refund the remains at the unit price on partial, once', async () => {
    const { userId, order } = await paidOrder(100);
    const res = await admin().patch<View>(`/admin/orders/${order.id}`, { status: 3, remains: 41 });
    expect(res.body).toMatchObject({ status: 3, remains: 41 });
    expect((await admin().patch(`/admin/orders/${order.id}`, { status: 3, remains: 41 })).status).toBe(409);
    const refunds = await eventually(() => suite.h.stand.of(order.id, 'RefundRequested'), (e) => e.length >= 1);
    expect(refunds.map((e) => e.data)).toEqual([{ refundId: `order-${order.id}-partial`, userId, orderId: order.id, amountDeci: 41 * 25, reason: 'partial' }]);
    expect(suite.h.stand.of(order.id, 'OrderStatusChanged').map((e) => e.data)).toEqual([{ orderId: order.id, userId, from: 0, to: 3, startCount: null, remains: 41 }]);
  });

  it('refuse remains above the amount, negative or non-integer start counts, unknown statuses and status 0', async () => {
    const { order } = await paidOrder(100);
    const cases: Array<[unknown, string]> = [
      [{ status: 3, remains: 101 }, 'REMAINS_INVALID'],
      [{ remains: -1 }, 'REMAINS_INVALID'],
      [{ startCount: -1 }, 'START_COUNT_INVALID'],
      [{ startCount: 1.5 }, 'START_COUNT_INVALID'],
      [{ startCount: 'abc' }, 'START_COUNT_INVALID'],
      [{ status: 6 }, 'STATUS_TRANSITION_INVALID'],
      [{ status: 0 }, 'STATUS_TRANSITION_INVALID'],
      [{ status: '2' }, 'STATUS_INVALID'],
      [{}, 'NOTHING_TO_UPDATE'],
      [{ status: 5, reason: ' ' }, 'VALIDATION_FAILED'],
      [{ status: 5, reason: 'x'.repeat(201) }, 'VALIDATION_FAILED'],
    ];
    for (const [patch, code] of cases) {
      const res = await admin().patch<ErrorBody>(`/admin/orders/${order.id}`, patch);
      expect([res.status, res.body.code]).toEqual([400, code]);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    expect((await admin().get<View>(`/orders/${order.id}`)).body).toMatchObject({ status: 0, startCount: null, remains: 100 });
  });

  it('refund the whole charge on cancel; unpaid and unknown orders are refused', async () => {
    const { userId, order } = await paidOrder(60);
    const res = await admin().patch<View>(`/admin/orders/${order.id}`, { status: 5, reason: '공급처가 링크를 거부했습니다.' });
    expect(res.body).toMatchObject({ status: 5, remains: 60, reason: '공급처가 링크를 거부했습니다.' });
    expect((await client(suite.h.base, userId).get<View>(`/orders/${order.id}`)).body).toMatchObject({ reason: '공급처가 링크를 거부했습니다.' });
    const refunds = await eventually(() => suite.h.stand.of(order.id, 'RefundRequested'), (e) => e.length >= 1);
    expect(refunds[0]!.data).toEqual({ refundId: `order-${order.id}-canceled`, userId, orderId: order.id, amountDeci: 1500, reason: 'canceled' });

    const poor = `m-${randomUUID().slice(0, 8)}`;
    const rejected = await client(suite.h.base, poor).post<{ orderId: number }>('/orders', { serviceId: 1, link: 'x', amount: 10 });
    expect(rejected.status).toBe(402);
    expect(await admin().patch(`/admin/orders/${rejected.body.orderId}`, { status: 1 })).toEqual({ status: 409, body: { code: 'ORDER_NOT_PAID', message: '결제가 완료되지 않은 주문입니다.' } });
    expect((await admin().patch(`/admin/orders/987654`, { status: 1 })).status).toBe(404);
  });

  it('list orders across members, by status and member, newest first', async () => {
    const a = await paidOrder(10);
    const b = await paidOrder(20);
    await admin().patch(`/admin/orders/${b.order.id}`, { status: 1 });
    const page = await admin().get<PageOf<View>>('/admin/orders?pageSize=2');
    expect(page.body.items.map((o) => o.id)).toEqual([b.order.id, a.order.id]);
    expect(page.body.hasNext).toBe(true);
    const inProgress = await admin().get<PageOf<View>>('/admin/orders?status=1&pageSize=100');
    expect(inProgress.body.items.every((o) => o.status === 1)).toBe(true);
    expect(inProgress.body.items[0]!.id).toBe(b.order.id);
    const mine = await admin().get<PageOf<View>>(`/admin/orders?userId=${a.userId}`);
    expect(mine.body.items.map((o) => o.userId)).toEqual([a.userId]);
  });
});

describe('order history', () => {
  it('shows a member’s paid orders newest first, filtered by status and paged', async () => {
    const userId = `m-${randomUUID().slice(0, 8)}`;
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await paidOrder(10 + i, userId)).order.id);
    suite.h.stand.balances.set(userId, 0);
    expect((await client(suite.h.base, userId).post('/orders', { serviceId: 1, link: 'x', amount: 10 })).status).toBe(402);
    await admin().patch(`/admin/orders/${ids[1]}`, { status: 1, startCount: 77 });
    await admin().patch(`/admin/orders/${ids[4]}`, { status: 1 });
    await admin().patch(`/admin/orders/${ids[5]}`, { status: 5 });
    const api = client(suite.h.base, userId);

    const first = await api.get<PageOf<View>>('/orders?pageSize=3');
    expect(first.body).toMatchObject({ page: 1, pageSize: 3, hasNext: true });
    expect(first.body.items.map((o) => o.id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(first.body.items[0]).toEqual({
      kind: 'order',
      id: ids[6],
      userId,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      serviceId: 1,
      serviceText: '틱톡 좋아요',
      serviceType: 'default',
      details: null,
      link: 'creator',
      linkUrl: 'https://www.tiktok.com/@creator',
      point: 40,
      pointDeci: 400,
      amount: 16,
      status: 0,
      startCount: null,
      remains: 16,
      autoOrderId: null,
      run: null,
      payment: 'paid',
      refundedDeci: 0,
      source: 'web',
      reason: null,
    });
    const third = await api.get<PageOf<View>>('/orders?pageSize=3&page=3');
    expect(third.body).toMatchObject({ page: 3, hasNext: false });
    expect(third.body.items.map((o) => o.id)).toEqual([ids[0]]);
    expect((await api.get<PageOf<View>>('/orders?pageSize=3&page=4')).body.items).toEqual([]);

    const inProgress = await api.get<PageOf<View>>('/orders?status=1');
    expect(inProgress.body.items.map((o) => [o.id, o.startCount])).toEqual([
      [ids[4], null],
      [ids[1], 77],
    ]);
    expect((await api.get<PageOf<View>>('/orders?status=5')).body.items.map((o) => o.id)).toEqual([ids[5]]);
    expect((await api.get<PageOf<View>>('/orders?status=2')).body.items).toEqual([]);
    expect((await api.get<PageOf<View>>(`/orders?userId=${userId}&status=0`)).body.items).toHaveLength(4);
    expect((await admin().get<PageOf<View>>(`/orders?userId=${userId}`)).body.items).toHaveLength(7);
    for (const bad of ['status=6', 'status=x', 'page=0', 'pageSize=101', 'ids=1,,2']) expect((await api.get(`/orders?${bad}`)).status).toBe(400);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { storedOrders } from '../src/store/models.ts';
import { expireDueSubscriptions } from '../src/use-cases/subscriptions.ts';
import { type ErrorBody, client, eventually, orderSuite, sleep } from './support.ts';

/** Subscriptions (issue 40): placed as auto orders charged for the max, run by posts, ended with the refund of the posts not done. */
const suite = orderSuite([{ serviceId: 7, text: '인스타그램 자동 좋아요 (구독)', platformId: 1, min: 50, max: 500, unitPriceDeci: 3, enableAuto: false, type: 'subscriptions' }]);

type Sub = { state: string; postsDone: number; posts: number; min: number; max: number; delay: number; expiry: string | null; perPostDeci: number; username: string; orders?: number[] };
type AutoView = { id: number; kind: string; status: number | null; completed: number; runs: number; amount: number; chargeDeci: number; refundedDeci: number; pointDeci: number; link: string; subscription: Sub | null };

const kstToday = () => new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);

async function member(points = 1_000_000) {
  const userId = `m-${randomUUID().slice(0, 8)}`;
  suite.h.stand.balances.set(userId, points);
  return { userId, api: client(suite.h.base, userId) };
}
const admin = () => client(suite.h.base, `admin-${randomUUID().slice(0, 6)}`, 'admin');
const refunds = (id: number) => suite.h.stand.of(id, 'RefundRequested').map((e) => e.data as { refundId: string; amountDeci: number; reason: string });

describe('subscriptions', () => {
  it('are charged unit price × max × posts up front, carry their terms to OrderAccepted and schedule nothing', async () => {
    const { userId, api } = await member();
    const res = await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: '@my.profile', min: 100, max: 200, posts: 4, delay: 15, expiry: '' });
    expect(res.status).toBe(201);
    const sub = res.body.order;
    // 0.3 won × 200 × 4 posts = 240 won
    expect(sub).toMatchObject({ kind: 'auto', status: 0, runs: 4, amount: 200, chargeDeci: 2400, link: 'my.profile', subscription: { username: 'my.profile', min: 100, max: 200, posts: 4, delay: 15, expiry: null, state: 'active', postsDone: 0, perPostDeci: 600 } });
    expect(suite.h.stand.balances.get(userId)).toBe(1_000_000 - 2400);
    const accepted = await eventually(() => suite.h.stand.of(sub.id, 'OrderAccepted'), (e) => e.length === 1);
    expect(accepted[0]!.data).toMatchObject({ kind: 'auto', runs: 4, interval: 0, serviceType: 'subscriptions', subscription: { username: 'my.profile', min: 100, max: 200, posts: 4, delay: 15, expiry: null } });
    // A due run (a stale schedule, or forged on the broker) places no post: posts are recorded, never scheduled.
    await suite.h.stand.publish(Topics.scheduler, suite.h.stand.runDue(sub.id, userId, 1));
    await sleep(1000);
    expect(await storedOrders(suite.h.order.store.connection).orders.countDocuments({ autoOrderId: sub.id })).toBe(0);
    expect(suite.h.stand.of(sub.id, 'AutoOrderRunPlaced')).toEqual([]);
  });

  it('refuse bad fields with Korean messages and place nothing', async () => {
    const { userId, api } = await member();
    const base = { serviceId: 7, username: 'profile', min: 100, max: 200, posts: 3, delay: 0 };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: '' }, 'USERNAME_REQUIRED'],
      [{ username: 'bad name!' }, 'USERNAME_INVALID'],
      [{ min: 'x' }, 'SUBSCRIPTION_MIN_INVALID'],
      [{ max: undefined }, 'SUBSCRIPTION_MAX_INVALID'],
      [{ min: 300, max: 200 }, 'SUBSCRIPTION_MIN_ABOVE_MAX'],
      [{ min: 10 }, 'AMOUNT_BELOW_MIN'],
      [{ max: 501 }, 'AMOUNT_ABOVE_MAX'],
      [{ min: -5 }, 'AMOUNT_BELOW_MIN'],
      [{ posts: 0 }, 'SUBSCRIPTION_POSTS_INVALID'],
      [{ posts: -2 }, 'SUBSCRIPTION_POSTS_INVALID'],
      [{ posts: 1.5 }, 'SUBSCRIPTION_POSTS_INVALID'],
      [{ posts: 1001 }, 'SUBSCRIPTION_POSTS_INVALID'],
      [{ delay: 7 }, 'SUBSCRIPTION_DELAY_INVALID'],
      [{ delay: -5 }, 'SUBSCRIPTION_DELAY_INVALID'],
      [{ expiry: '2020-01-01' }, 'SUBSCRIPTION_EXPIRY_INVALID'],
      [{ expiry: '2026-02-30' }, 'SUBSCRIPTION_EXPIRY_INVALID'],
      [{ expiry: 'tomorrow' }, 'SUBSCRIPTION_EXPIRY_INVALID'],
      [{ runs: 3, interval: 60 }, 'AUTO_NOT_SUPPORTED'],
    ];
    for (const [change, code] of cases) {
      const res = await api.post<ErrorBody>('/orders', { ...base, ...change });
      expect([res.status, res.body.code], JSON.stringify(change)).toEqual([400, code]);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    expect(suite.h.stand.balances.get(userId)).toBe(1_000_000);
    expect(await storedOrders(suite.h.order.store.connection).orders.db.collection('auto_orders').countDocuments({ userId })).toBe(0);
  });

  it('run by posts an operator records: each post a paid order for max, next post only, nothing while paused, completed after the last', async () => {
    const { api } = await member();
    const sub = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'runner', min: 50, max: 100, posts: 2, delay: 0, expiry: kstToday() })).body.order;
    const op = admin();
    const staff = client(suite.h.base, 'staff-1', 'staff');
    // The member cannot record posts, nor cancel around the subscription's own rule.
    expect((await api.post<ErrorBody>(`/admin/subscriptions/${sub.id}/posts`, {})).status).toBe(403);
    expect((await api.post<ErrorBody>(`/auto-orders/${sub.id}/cancel`, {})).body.code).toBe('SUBSCRIPTION_CANCEL_ELSEWHERE');

    const first = await staff.post<{ order: { id: number; amount: number; pointDeci: number; autoOrderId: number; run: number; link: string } }>(`/admin/subscriptions/${sub.id}/posts`, { link: 'https://www.instagram.com/p/abc' });
    expect(first.status).toBe(201);
    expect(first.body.order).toMatchObject({ amount: 100, pointDeci: 300, autoOrderId: sub.id, run: 1, link: 'https://www.instagram.com/p/abc' });
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/posts`, { post: 1 })).body.code).toBe('SUBSCRIPTION_POST_INVALID');
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/posts`, { link: 'javascript:alert(1)' })).body.code).toBe('SUBSCRIPTION_LINK_INVALID');

    expect((await staff.post<AutoView>(`/admin/subscriptions/${sub.id}/pause`, {})).body.subscription?.state).toBe('paused');
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/posts`, {})).body.code).toBe('SUBSCRIPTION_PAUSED');
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/pause`, {})).status).toBe(409);
    expect((await staff.post<AutoView>(`/admin/subscriptions/${sub.id}/resume`, {})).body.subscription?.state).toBe('active');

    expect((await op.post(`/admin/subscriptions/${sub.id}/posts`, { post: 2 })).status).toBe(201);
    const done = (await api.get<AutoView>(`/orders/${sub.id}`)).body;
    expect(done).toMatchObject({ status: 1, completed: 2, refundedDeci: 0, subscription: { state: 'completed', postsDone: 2 } });
    expect(done.subscription!.orders).toHaveLength(2);
    // Completed: no post beyond the last, no end, no refund.
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/posts`, {})).status).toBe(409);
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/end`, { state: 'canceled' })).body.code).toBe('SUBSCRIPTION_NOT_ACTIVE');
    await eventually(() => suite.h.stand.of(sub.id), (e) => e.some((x) => x.type === 'AutoOrderCompleted'));
    const runs = suite.h.stand.of(sub.id, 'AutoOrderRunPlaced').map((e) => e.data);
    expect(runs).toEqual(done.subscription!.orders!.map((childOrderId, i) => expect.objectContaining({ run: i + 1, childOrderId, subscription: true, amount: 100 })));
    expect(refunds(sub.id)).toEqual([]);
  });

  it('ends once with the refund of the posts not done: a second cancel, an end by staff or for another member moves nothing', async () => {
    const { userId, api } = await member();
    const sub = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'ender', min: 50, max: 100, posts: 5, delay: 30 })).body.order;
    const op = admin();
    await op.post(`/admin/subscriptions/${sub.id}/posts`, {});
    await op.post(`/admin/subscriptions/${sub.id}/pause`, {});
    expect((await client(suite.h.base, 'staff-2', 'staff').post<ErrorBody>(`/admin/subscriptions/${sub.id}/end`, { state: 'canceled' })).body.code).toBe('STAFF_REFUND_ADMIN_ONLY');
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/end`, { state: 'canceled', userId: 'someone-else' })).status).toBe(404);
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/end`, { state: 'deleted' })).status).toBe(400);
    expect((await client(suite.h.base, userId, 'admin').post<ErrorBody>(`/admin/subscriptions/${sub.id}/end`, { state: 'canceled' })).body.code).toBe('SELF_ACTION');

    // 5 posts × 300 charged; 1 done: 4 × 300 back.
    const ended = await op.post<{ subscription: AutoView; refundDeci: number }>(`/admin/subscriptions/${sub.id}/end`, { state: 'canceled', userId });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ refundDeci: 1200, subscription: { status: 2, refundedDeci: 1200, pointDeci: 300, subscription: { state: 'canceled', postsDone: 1 } } });
    const again = await Promise.all([op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/end`, { state: 'canceled' }), op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/end`, { state: 'expired' })]);
    expect(again.map((r) => r.body.code)).toEqual(['SUBSCRIPTION_NOT_ACTIVE', 'SUBSCRIPTION_NOT_ACTIVE']);
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${sub.id}/posts`, {})).status).toBe(409);
    await eventually(() => refunds(sub.id), (r) => r.length === 1);
    await sleep(300);
    expect(refunds(sub.id)).toEqual([{ refundId: `auto-${sub.id}-canceled`, userId, orderId: sub.id, amountDeci: 1200, reason: 'subscription-ended' }]);
    expect(suite.h.stand.of(sub.id, 'AutoOrderCanceled').map((e) => e.data)).toEqual([{ autoOrderId: sub.id, userId, runsDone: 1, runs: 5, refundDeci: 1200, ended: 'canceled' }]);
  });

  it('expire after their expiry day with the refund of the rest (the sweep, and a post recorded too late)', async () => {
    const { userId, api } = await member();
    const a = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'late', min: 50, max: 100, posts: 3, expiry: kstToday() })).body.order;
    const b = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'late2', min: 50, max: 100, posts: 3, expiry: kstToday() })).body.order;
    const op = admin();
    await op.post(`/admin/subscriptions/${a.id}/posts`, {});
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    // The sweep as the service runs it, two days on: a expires (2 posts back), b too (3 back); a second sweep finds nothing.
    expect(await expireDueSubscriptions(suite.h.order.deps, tomorrow)).toBeGreaterThanOrEqual(2);
    expect(await expireDueSubscriptions(suite.h.order.deps, tomorrow)).toBe(0);
    expect((await api.get<AutoView>(`/orders/${a.id}`)).body).toMatchObject({ status: 3, refundedDeci: 600, subscription: { state: 'expired', postsDone: 1 } });
    expect((await api.get<AutoView>(`/orders/${b.id}`)).body).toMatchObject({ status: 2, refundedDeci: 900, subscription: { state: 'expired', postsDone: 0 } });
    await eventually(() => [...refunds(a.id), ...refunds(b.id)], (r) => r.length === 2);
    expect([...refunds(a.id), ...refunds(b.id)].map((r) => [r.refundId, r.amountDeci])).toEqual([
      [`auto-${a.id}-expired`, 600],
      [`auto-${b.id}-expired`, 900],
    ]);
    expect(suite.h.stand.balances.get(userId)).toBe(1_000_000 - 1800);

    // A post recorded after the expiry day (before the sweep came by): refused, and the subscription expires then.
    const c = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'late3', min: 50, max: 100, posts: 2, expiry: kstToday() })).body.order;
    const yesterday = new Date(Date.now() + 9 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    await suite.h.order.store.connection.collection('auto_orders').updateOne({ _id: c.id } as never, { $set: { 'subscription.expiry': yesterday } });
    expect((await op.post<ErrorBody>(`/admin/subscriptions/${c.id}/posts`, {})).body.code).toBe('SUBSCRIPTION_EXPIRED');
    expect((await api.get<AutoView>(`/orders/${c.id}`)).body).toMatchObject({ completed: 0, refundedDeci: 600, subscription: { state: 'expired' } });
    await eventually(() => refunds(c.id), (r) => r.length === 1);
  });
});

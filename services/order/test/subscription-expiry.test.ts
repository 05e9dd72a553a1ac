import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ErrorBody, client, eventually, orderSuite, sleep } from './support.ts';

/**
 * The subscription expiry timer (issues 40 and 42): set for the soonest expiry, none while no live
 * subscription expires, looked at again when a subscription is placed or ended.
 */
const suite = orderSuite([{ serviceId: 7, text: '인스타그램 자동 좋아요 (구독)', platformId: 1, min: 50, max: 500, unitPriceDeci: 3, enableAuto: false, type: 'subscriptions' }]);

type AutoView = { id: number; status: number | null; refundedDeci: number; subscription: { state: string; postsDone: number } | null };
const kstToday = () => new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
const refunds = (id: number) => suite.h.stand.of(id, 'RefundRequested').map((e) => e.data as { refundId: string; amountDeci: number });

async function member() {
  const userId = `m-${randomUUID().slice(0, 8)}`;
  suite.h.stand.balances.set(userId, 1_000_000);
  return { userId, api: client(suite.h.base, userId) };
}
const armedFor = () => suite.h.order.subscriptionExpiry.armedFor();
const autoOrders = () => suite.h.order.store.connection.collection('auto_orders');

describe('the subscription expiry timer', () => {
  it('is not set while no live subscription has an expiry; set for the soonest one once placed; gone again once it ended', async () => {
    // Idle: the pass at start found nothing to wait for, and no timer is armed (no 60 s sweep).
    await eventually(async () => armedFor(), (at) => at === null, 5000);
    await sleep(300);
    expect(armedFor()).toBeNull();
    const { userId, api } = await member();
    // Without an expiry there is nothing to wait for either.
    const open = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'no.expiry', min: 50, max: 100, posts: 2 })).body.order;
    expect(open.status).toBe(0);
    await sleep(300);
    expect(armedFor()).toBeNull();
    // With one: armed for its expiry (the end of today, KST), capped at an hour from now.
    const dated = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'with.expiry', min: 50, max: 100, posts: 2, expiry: kstToday() })).body.order;
    const expiresAt = ((await autoOrders().findOne({ _id: dated.id } as never)) as unknown as { subscription: { expiresAt: Date } }).subscription.expiresAt;
    const expected = Math.min(expiresAt.getTime(), Date.now() + 3_600_000);
    const armed = await eventually(async () => armedFor(), (at) => at !== null, 5000);
    expect(Math.abs(armed!.getTime() - expected)).toBeLessThan(5000);
    // Ended by an operator: nothing left to expire, no timer.
    const ended = await client(suite.h.base, 'admin-1', 'admin').post<{ refundDeci: number }>(`/admin/subscriptions/${dated.id}/end`, { state: 'canceled', userId });
    expect(ended.body.refundDeci).toBe(600);
    await eventually(async () => armedFor(), (at) => at === null, 5000);
    expect((await client(suite.h.base, 'admin-1', 'admin').post<ErrorBody>(`/admin/subscriptions/${open.id}/end`, { state: 'canceled', userId })).status).toBe(200);
  });

  it('expires a subscription at its expiry, not a sweep later: the refund of the posts not done, once', async () => {
    const { userId, api } = await member();
    const sub = (await api.post<{ order: AutoView }>('/orders', { serviceId: 7, username: 'soon.over', min: 50, max: 100, posts: 3, expiry: kstToday() })).body.order;
    // Its expiry brought to 5.5 s from now (the API takes days); the next placement re-arms the timer,
    // which reads it. 5.5 s: past any pass the service made in its first 5 s, so only a timer set for
    // the expiry itself — not a periodic sweep — can expire it on time.
    const dueAt = Date.now() + 5500;
    await autoOrders().updateOne({ _id: sub.id } as never, { $set: { 'subscription.expiresAt': new Date(dueAt) } });
    await api.post('/orders', { serviceId: 7, username: 'later.over', min: 50, max: 100, posts: 1, expiry: kstToday() });
    await eventually(async () => armedFor(), (at) => at !== null && Math.abs(at.getTime() - dueAt) < 200, 5000);
    expect((await api.get<AutoView>(`/orders/${sub.id}`)).body.subscription!.state).toBe('active');
    const over = await eventually(() => api.get<AutoView>(`/orders/${sub.id}`).then((r) => r.body), (o) => o.subscription?.state === 'expired', 10_000);
    const late = Date.now() - dueAt;
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(1500); // one probe (100 ms) and the expiry's own write, far from a 60 s sweep
    expect(over).toMatchObject({ status: 2, refundedDeci: 900, subscription: { state: 'expired', postsDone: 0 } });
    await eventually(() => refunds(sub.id), (r) => r.length === 1);
    await sleep(500);
    expect(refunds(sub.id)).toEqual([{ refundId: `auto-${sub.id}-expired`, userId, orderId: sub.id, amountDeci: 900, reason: 'subscription-ended' }]);
    // Charged 900 and 300 (the second subscription) once; the refund is the wallet's, from the event above.
    expect(suite.h.stand.balances.get(userId)).toBe(1_000_000 - 1200);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { formatReport, reconcile } from '@smm/reconcile';
import { eventually } from '@smm/testkit';
import { api, asAdmin, stack } from './support/client.ts';
import { type Member, apiKeyOf, member, order, orderServiceUp, pointDeciOf, product, v2 } from './support/money.ts';

type Json = Record<string, unknown>;

/**
 * Issue 40's Subscriptions through the whole stack with a standard-shaped API v2 client: `services`
 * says Subscriptions, `add` takes username/min/max/posts/delay/expiry and charges max × posts up
 * front, `status` answers the subscription's fields (Active … Expired, posts, orders), `cancel` ends it
 * once with the unused posts back; the console runs it (posts, pause, expire); bad input charges nothing.
 */
describe.runIf(orderServiceUp())('subscriptions (API v2, console, money)', () => {
  let m: Member;
  let key: string;
  let sub: Awaited<ReturnType<typeof product>>;
  beforeAll(async () => {
    m = await member(100_000);
    key = await apiKeyOf(m);
    sub = await product({ type: 'subscriptions', min: 50, max: 1000, point: 2, enableAuto: false }, m);
  });

  it('add, status and cancel as a panel-standard client speaks them; the console records posts and expires; refunds exact and once', async () => {
    const list = await eventually(() => v2<Json[]>({ key, action: 'services' }), (r) => r.body.some((s) => s.service === sub.id), 5000);
    expect(list.body.find((s) => s.service === sub.id)).toMatchObject({ type: 'Subscriptions', rate: '2000.0', min: 50, max: 1000, cancel: true, dripfeed: false });

    const before = await pointDeciOf(m);
    const expiry = new Date(Date.now() + 9 * 3600_000 + 30 * 86_400_000).toISOString().slice(0, 10);
    const dmy = `${expiry.slice(8, 10)}/${expiry.slice(5, 7)}/${expiry.slice(0, 4)}`;
    // 2 won × 300 (max) × 4 posts = 2,400 won up front.
    const added = await v2<{ order: number }>({ key, action: 'add', service: String(sub.id), username: '@brand.kr', min: '100', max: '300', posts: '4', delay: '30', expiry: dmy });
    expect(added).toMatchObject({ status: 200, body: { order: expect.any(Number) } });
    const id = added.body.order;
    expect(await pointDeciOf(m)).toBe(before - 24_000);
    expect((await v2({ key, action: 'status', order: String(id) })).body).toEqual({ charge: '2400.0', start_count: '0', status: 'Active', remains: '4', currency: 'KRW', expiry, posts: '0', orders: [], username: 'brand.kr', min: '100', max: '300', delay: '30' });

    // The operator runs it: a post (its order, 300 × 2 won), a pause, then the expiry — 3 posts back.
    const admin = await asAdmin();
    const listed = await api<{ items: Json[] }>('GET', '/admin/orders/subscriptions?state=active&pageSize=100', { token: admin });
    expect(listed.body.items.find((s) => s.id === id)).toMatchObject({ subscription: { username: 'brand.kr', state: 'active', posts: 4, postsDone: 0 } });
    const post = await api<{ order: { id: number; amount: number; pointDeci: number } }>('POST', `/admin/orders/subscriptions/${id}/posts`, { token: admin, body: { link: 'https://www.instagram.com/p/brand-1' } });
    expect(post).toMatchObject({ status: 201, body: { order: { amount: 300, pointDeci: 6000 } } });
    expect((await api('POST', `/admin/orders/subscriptions/${id}/pause`, { token: admin })).status).toBe(200);
    expect((await v2({ key, action: 'status', orders: String(id) })).body).toMatchObject({ [String(id)]: { status: 'Paused', posts: '1', remains: '3', orders: [post.body.order.id] } });
    const expired = await api<{ refundDeci: number }>('POST', `/admin/orders/subscriptions/${id}/end`, { token: admin, body: { state: 'expired' } });
    expect(expired).toMatchObject({ status: 200, body: { refundDeci: 18_000 } });
    await eventually(() => pointDeciOf(m), (p) => p === before - 6000, 20_000);
    expect((await v2({ key, action: 'status', order: String(id) })).body).toMatchObject({ status: 'Expired', charge: '600.0', posts: '1', remains: '3' });
    // Ended: no second end, no cancel, no post.
    expect((await api('POST', `/admin/orders/subscriptions/${id}/end`, { token: admin, body: { state: 'canceled' } })).body).toMatchObject({ code: 'SUBSCRIPTION_NOT_ACTIVE' });
    expect((await v2<Json[]>({ key, action: 'cancel', orders: String(id) })).body).toEqual([{ order: id, cancel: { error: 'Cancel is not available for this order' } }]);

    // A second one canceled by the member through v2 right after its add, as a reseller's script does
    // (fulfillment takes it in a moment later and the cancel waits for it): all 2 posts back, once —
    // a second cancel moves nothing.
    const second = (await v2<{ order: number }>({ key, action: 'add', service: String(sub.id), username: 'brand.kr', min: '50', max: '50', posts: '2' })).body.order;
    expect(await pointDeciOf(m)).toBe(before - 6000 - 2000);
    expect((await v2<Json[]>({ key, action: 'cancel', orders: String(second) })).body).toEqual([{ order: second, cancel: 1 }]);
    expect((await v2<Json[]>({ key, action: 'cancel', orders: String(second) })).body).toEqual([{ order: second, cancel: { error: 'Cancel is not available for this order' } }]);
    await eventually(() => pointDeciOf(m), (p) => p === before - 6000, 20_000);
    expect((await v2({ key, action: 'status', order: String(second) })).body).toMatchObject({ status: 'Canceled', charge: '0.0', posts: '0' });

    // A plain order, refilled and canceled right after its add: answered as the order it is (this
    // product is run by operators: neither is available), never as an unknown order.
    const plain = await product({ min: 10, max: 1000, point: 2 }, m);
    const placed = (await v2<{ order: number }>({ key, action: 'add', service: String(plain.id), link: 'https://www.instagram.com/p/at-once', quantity: '100' })).body.order;
    const [refill, cancel] = await Promise.all([v2({ key, action: 'refill', order: String(placed) }), v2<Json[]>({ key, action: 'cancel', orders: String(placed) })]);
    expect([refill.status, refill.body]).toEqual([409, { error: 'Refill is not available for this order' }]);
    expect(cancel.body).toEqual([{ order: placed, cancel: { error: 'Cancel is not available for this order' } }]);
    expect((await v2<Json[]>({ key, action: 'cancel', orders: '999999999' })).body).toEqual([{ order: 999999999, cancel: { error: 'Incorrect order ID' } }]);

    const report = await eventually(() => reconcile({ url: stack().mongoUrl, readPreference: 'primary' }), (r) => r.total === 0, 30_000).catch(async () => reconcile({ url: stack().mongoUrl, readPreference: 'primary' }));
    expect(report.total, formatReport(report).join('\n')).toBe(0);
    expect(await pointDeciOf(m)).toBe(before - 6000 - 2000); // the plain order: 2 won × 100
  });

  it('bad subscription input is a clear error and charges nothing; a member cannot reach the console’s subscription routes', async () => {
    const before = await pointDeciOf(m);
    const add = (fields: Record<string, string>) => v2({ key, action: 'add', service: String(sub.id), username: 'brand.kr', min: '100', max: '200', posts: '2', ...fields });
    expect(await add({ min: '300' })).toMatchObject({ status: 400, body: { error: 'Min must not be greater than max' } });
    expect(await add({ posts: '0' })).toMatchObject({ status: 400, body: { error: 'Incorrect posts: 1 to 1000 whole posts' } });
    expect(await add({ posts: '-3' })).toMatchObject({ status: 400, body: { error: 'Incorrect posts: 1 to 1000 whole posts' } });
    expect(await add({ min: '-1' })).toMatchObject({ status: 400, body: { error: 'Quantity less than minimal 50' } });
    expect(await add({ max: '5000' })).toMatchObject({ status: 400, body: { error: 'Quantity more than maximal 1000' } });
    expect(await add({ delay: '7' })).toMatchObject({ status: 400, body: { error: 'Incorrect delay: 0, 5, 10, 15, 30, 60 or 90 minutes' } });
    expect(await add({ expiry: '31/02/2030' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^Incorrect expiry/) } });
    expect(await add({ username: '' })).toMatchObject({ status: 400, body: { error: 'Incorrect username' } });
    const web = await order(m, { serviceId: sub.id, username: 'brand.kr', min: 100, max: 200, posts: 0, unitPriceDeci: 20 });
    expect(web).toMatchObject({ status: 400, body: { code: 'SUBSCRIPTION_POSTS_INVALID', message: expect.stringMatching(/게시물 수/) } });
    expect(await pointDeciOf(m)).toBe(before);

    // The member's own token cannot reach the console's subscription routes.
    const placed = (await add({})).body as { order: number };
    expect((await api('POST', `/admin/orders/subscriptions/${placed.order}/posts`, { token: m.token })).status).toBe(403);
    expect((await api('POST', `/admin/orders/subscriptions/${placed.order}/end`, { token: m.token, body: { state: 'canceled' } })).status).toBe(403);
    expect(await pointDeciOf(m)).toBe(before - 8000);
  });
});

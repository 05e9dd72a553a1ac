import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, reconcile } from '@smm/reconcile';
import { FaultProvider } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, sleep, startInfra, startStack } from './support.ts';

/**
 * Subscriptions (issue 40) at a provider, with the real wallet: a member's subscription is charged
 * max × posts up front, sent with the standard's fields, and followed through the provider's
 * `status` (state, posts). The provider is a real API v2 server answering as scripted. Ends with
 * the cross-service reconciliation.
 */
let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;
let providerId: number;
let product: number;
const members: string[] = [];

type ErrorBody = { code: string; message: string };
type SubscriptionOrder = { id: number; status: number | null; chargeDeci: number; refundedDeci: number; subscription: { state: string; postsDone: number } };
type ForwardBody = { state: string; providerOrderId: string | null; status: number };

/** A funded member (10,000원) of this suite. */
async function member(): Promise<string> {
  const userId = `m-${randomUUID().slice(0, 8)}`;
  await stack.wallet!.fund(userId, 10_000);
  members.push(userId);
  return userId;
}

/** A paid subscription of `posts` posts of at most 100 likes (1원 each: 100원 a post). */
async function subscribe(userId: string, posts = 3): Promise<SubscriptionOrder> {
  const res = await client(stack.order.base, userId, 'member').post<{ order: SubscriptionOrder }>('/orders?waitMs=15000', { serviceId: product, username: `profile.${randomUUID().slice(0, 6)}`, min: 50, max: 100, posts, delay: 0 });
  if (res.status !== 201) throw new Error(`subscription refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.order;
}
const orderOf = (id: number) => client(stack.order.base).get<SubscriptionOrder>(`/orders/${id}`).then((r) => r.body);
const forwardOf = (id: number) => stack.admin.get<ForwardBody>(`/admin/forwards/${id}`).then((r) => r.body);

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra, { realWallet: true });
  upstream = new FaultProvider();
  upstream.services = [{ service: 31, name: 'auto likes', type: 'Subscriptions', rate: '1000', min: 50, max: 1000, cancel: true }];
  await upstream.start();
  providerId = (await stack.admin.post<{ id: number }>('/admin/providers', { name: 'subs', url: upstream.url, key: upstream.key })).body.id;
  await stack.admin.post(`/admin/providers/${providerId}/import`);
  product = await stack.product();
  const mapped = await stack.admin.put<{ unitPriceDeci: number }>(`/admin/mappings/${product}`, { mode: 'provider', providerId, providerServiceId: '31', rule: { kind: 'markup', percent: 0 } });
  expect(mapped.status).toBe(200);
  // The mapping makes the product a subscription at the provider's price: wait until order sells it so.
  await eventually(() => stack.order.store.product(product), (p) => p?.type === 'subscriptions' && p.unitPriceDeci === mapped.body.unitPriceDeci, 20_000);
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
  await stack?.stop();
  await infra?.stop();
});

describe('a subscription at a provider', () => {
  it('that the provider refuses (add) is canceled with the whole charge back, once', async () => {
    const userId = await member();
    upstream.addScript = ['refuse-posts'];
    const sub = await subscribe(userId);
    expect(sub.chargeDeci).toBe(3000); // 1원 × 100 × 3 posts
    expect(await stack.wallet!.balanceDeci(userId)).toBe(100_000 - 3000);
    expect(await eventually(() => forwardOf(sub.id), (f) => f?.state === 'failed')).toMatchObject({ status: 5, providerOrderId: null });
    expect(upstream.adds().at(-1)).toMatchObject({ service: '31', min: '50', max: '100', posts: '3', delay: '0' });
    expect(await eventually(() => orderOf(sub.id), (o) => o.subscription.state === 'canceled')).toMatchObject({ refundedDeci: 3000, subscription: { postsDone: 0 } });
    expect(await eventually(() => stack.wallet!.balanceDeci(userId), (b) => b === 100_000)).toBe(100_000);
    // Nothing more: a status sync, a member's cancel, time.
    await stack.fulfillment.tasks.statuses.runNow();
    const cancel = await client(stack.fulfillment.base, userId, 'member').post<ErrorBody>(`/orders/${sub.id}/cancel`);
    expect([cancel.status, cancel.body.code]).toEqual([409, 'SUBSCRIPTION_NOT_ACTIVE']);
    await sleep(500);
    expect(await stack.wallet!.balanceDeci(userId)).toBe(100_000);
    expect((await orderOf(sub.id)).refundedDeci).toBe(3000);
  });

  it('paused at the provider shows paused here: no refund, nothing charged again; active again, it runs on', async () => {
    const userId = await member();
    const sub = await subscribe(userId);
    const forward = await eventually(() => forwardOf(sub.id), (f) => f?.state === 'accepted');
    const remote = Number(forward.providerOrderId);
    const entry = (status: string) => ({ charge: '0.3', start_count: '0', status, remains: '3', currency: 'USD', posts: '0', orders: [] });
    upstream.statusEntries.set(remote, entry('Paused'));
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => orderOf(sub.id), (o) => o.subscription.state === 'paused')).toMatchObject({ status: 0, refundedDeci: 0, chargeDeci: 3000 });
    expect(await forwardOf(sub.id)).toMatchObject({ state: 'accepted' });
    // Synced again while paused: nothing moves.
    await stack.fulfillment.tasks.statuses.runNow();
    await sleep(300);
    expect(await orderOf(sub.id)).toMatchObject({ refundedDeci: 0, subscription: { state: 'paused' } });
    expect(await stack.wallet!.balanceDeci(userId)).toBe(100_000 - 3000);
    upstream.statusEntries.set(remote, entry('Active'));
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => orderOf(sub.id), (o) => o.subscription.state === 'active')).toMatchObject({ refundedDeci: 0 });
    expect(await stack.wallet!.balanceDeci(userId)).toBe(100_000 - 3000);
    // Ended at the provider: the posts not done come back once.
    upstream.statusEntries.set(remote, entry('Canceled'));
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => orderOf(sub.id), (o) => o.subscription.state === 'canceled')).toMatchObject({ refundedDeci: 3000 });
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => stack.wallet!.balanceDeci(userId), (b) => b === 100_000)).toBe(100_000);
  });

  it('canceled right after it was placed — before fulfillment took it in, while its add is in flight — waits for the add and goes to the provider: every post back, never "unknown" or "not yet"', async () => {
    const userId = await member();
    upstream.addDelayMs = 1000; // the provider takes a second to answer `add`
    const sub = await subscribe(userId);
    const cancel = await client(stack.fulfillment.base, userId, 'member').post<{ orderId: number; cancel: string }>(`/orders/${sub.id}/cancel`);
    upstream.addDelayMs = 0;
    expect([cancel.status, cancel.body]).toEqual([200, { orderId: sub.id, cancel: 'requested' }]);
    expect(upstream.received.filter((r) => r.action === 'cancel')).toHaveLength(1);
    await stack.fulfillment.tasks.statuses.runNow(); // a cancel sent to the provider: its Canceled
    expect(await eventually(() => orderOf(sub.id), (o) => o.subscription.state === 'canceled')).toMatchObject({ refundedDeci: 3000 });
    expect(await eventually(() => stack.wallet!.balanceDeci(userId), (b) => b === 100_000)).toBe(100_000);
  });
});

describe('money', () => {
  it('reconciles across wallet, order and fulfillment after every subscription above', async () => {
    const run = () => reconcile({ url: infra.mongo.url, readPreference: 'primary', databases: { wallet: stack.wallet!.database, order: stack.order.store.connection.name, fulfillment: stack.fulfillment.connection.name } });
    const report = await eventually(run, (r) => r.total === 0, 20_000).catch(run);
    expect(report.total, formatReport(report).join('\n')).toBe(0);
    expect(members.length).toBe(3);
  });
});

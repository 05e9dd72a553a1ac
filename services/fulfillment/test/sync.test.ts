import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProvider, closedPort } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, startInfra, startStack } from './support.ts';

let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;
let providerId: number;

type ForwardView = { orderId: number; state: string; providerOrderId: string; status: number; note?: string | null; providerAnswer?: string | null; reviewFrom?: string | null };
const link = () => `https://instagram.com/p/${randomUUID().slice(0, 8)}`;
const forward = (orderId: number) => stack.admin.get<ForwardView>(`/admin/forwards/${orderId}`).then((r) => r.body);

async function mapped(rule: { kind: 'markup'; percent: number } | { kind: 'fixed'; unitPriceDeci: number }, service = '11'): Promise<number> {
  const id = await stack.product();
  const res = await stack.admin.put<{ unitPriceDeci: number; min: number }>(`/admin/mappings/${id}`, { mode: 'provider', providerId, providerServiceId: service, rule });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  // Orders are priced from order's replica: wait until it holds the mapped price and limits.
  await eventually(() => stack.order.store.product(id), (r) => r?.unitPriceDeci === res.body.unitPriceDeci && r.min === res.body.min);
  return id;
}

async function forwarded(productId: number, amount: number): Promise<ForwardView> {
  const orderId = await stack.placeOrder(productId, link(), amount);
  return eventually(() => forward(orderId), (f) => f?.state === 'accepted', 45_000);
}

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra);
  upstream = new FaultProvider();
  upstream.services = [
    { service: 11, name: 'Likes', rate: '1000', min: 10, max: 10_000, refill: true, cancel: true },
    { service: 12, name: 'Views', rate: '2000', min: 10, max: 10_000 },
    { service: 13, name: 'Saves', rate: '1000', min: 10, max: 10_000 },
  ];
  await upstream.start();
  const p = await stack.admin.post<{ id: number }>('/admin/providers', { name: 'sync', url: upstream.url, key: upstream.key, currency: 'KRW', wonDeciPerUnit: 10, lowBalanceThreshold: '50' });
  providerId = p.body.id;
  await stack.admin.post(`/admin/providers/${providerId}/import`);
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
  await stack?.stop();
  await infra?.stop();
});

describe('status sync', () => {
  it('moves orders as the provider moves them, with refunds for partial and canceled', async () => {
    const productId = await mapped({ kind: 'markup', percent: 0 }); // 1 won a unit
    const [a, b, c, d] = await Promise.all([100, 100, 100, 100].map((n) => forwarded(productId, n)));
    upstream.move(Number(a!.providerOrderId), 'In progress', { startCount: 1200, remains: 100 });
    upstream.move(Number(b!.providerOrderId), 'Completed', { startCount: 50, remains: 0 }); // jumps straight to the end
    upstream.move(Number(c!.providerOrderId), 'Canceled');
    upstream.move(Number(d!.providerOrderId), 'Processing');
    const stats = await stack.admin.post<{ requests: number; changed: number }>('/admin/sync/statuses');
    expect(stats.body).toMatchObject({ requests: 1, changed: 4 });
    await eventually(() => stack.orderOf(a!.orderId), (o) => o.status === 1);
    expect(await stack.orderOf(a!.orderId)).toMatchObject({ status: 1, startCount: 1200, remains: 100, refundedDeci: 0 });
    expect(await eventually(() => stack.orderOf(b!.orderId), (o) => o.status === 2)).toMatchObject({ startCount: 50, remains: 0, refundedDeci: 0 });
    expect(await eventually(() => stack.orderOf(c!.orderId), (o) => o.status === 5)).toMatchObject({ remains: 100, refundedDeci: 1000 });
    expect(await eventually(() => stack.orderOf(d!.orderId), (o) => o.status === 4)).toMatchObject({ refundedDeci: 0 });

    // Partial refunds the remains at the unit price; statuses going backwards change nothing.
    upstream.move(Number(a!.providerOrderId), 'Partial', { remains: 30 });
    upstream.move(Number(b!.providerOrderId), 'In progress', { remains: 40 });
    upstream.move(Number(d!.providerOrderId), 'Pending');
    await stack.admin.post('/admin/sync/statuses');
    expect(await eventually(() => stack.orderOf(a!.orderId), (o) => o.status === 3)).toMatchObject({ remains: 30, refundedDeci: 300 });
    await stack.admin.post('/admin/sync/statuses');
    expect(await stack.orderOf(b!.orderId)).toMatchObject({ status: 2, remains: 0 });
    expect(await stack.orderOf(d!.orderId)).toMatchObject({ status: 4 });
    expect((await forward(b!.orderId)).state).toBe('closed');

    const changes = stack.events.events.filter((e) => e.type === 'ProviderOrderStatusChanged');
    await eventually(() => stack.events.events.filter((e) => e.type === 'ProviderOrderStatusChanged' && e.aggregateId === `forward-${a!.orderId}`).length, (n) => n === 2);
    expect(changes.some((e) => e.aggregateId === `forward-${b!.orderId}` && (e.data as { status: number }).status === 2)).toBe(true);
  });

  it('asks in batches of at most 100 and survives a failing status call', async () => {
    const productId = await mapped({ kind: 'markup', percent: 0 });
    const orders = await Promise.all(Array.from({ length: 105 }, () => forwarded(productId, 10)));
    upstream.statusFault = 'http500';
    const failed = await stack.admin.post<{ failedRequests: number; changed: number }>('/admin/sync/statuses');
    expect(failed.body.failedRequests).toBeGreaterThanOrEqual(2);
    expect(failed.body.changed).toBe(0);
    upstream.statusFault = null;
    for (const o of orders) upstream.move(Number(o.providerOrderId), 'Completed');
    const before = upstream.received.filter((r) => r.action === 'status').length;
    const ok = await stack.admin.post<{ requests: number; changed: number }>('/admin/sync/statuses');
    const statusCalls = upstream.received.filter((r) => r.action === 'status').slice(before);
    expect(statusCalls.every((r) => r.fields.orders!.split(',').length <= 100)).toBe(true);
    expect(ok.body.changed).toBeGreaterThanOrEqual(105);
    await eventually(() => stack.orderOf(orders[104]!.orderId), (o) => o.status === 2);
  }, 90_000); // 105 orders placed, paid and forwarded first: 6 s quiet, past 30 s on a loaded machine
});

describe('status answers that cannot be acted on', () => {
  it('an unknown status ("Exploded"), a garbage entry, an entry without a status, negative or unreadable remains on Partial: review with the answer kept and a note, record and order unchanged; resume follows it again', async () => {
    const productId = await mapped({ kind: 'markup', percent: 0 });
    const [exploded, garbage, noStatus, negative, unreadable] = await Promise.all(Array.from({ length: 5 }, () => forwarded(productId, 10)));
    const entries: Array<[ForwardView, unknown, string]> = [
      [exploded!, { status: 'Exploded', remains: '3', start_count: '7' }, 'unknown-status: "Exploded"'],
      [garbage!, 'garbage', 'bad-status: the entry has no status'],
      [noStatus!, { charge: '0.1', remains: '5' }, 'bad-status: the entry has no status'],
      [negative!, { status: 'Partial', remains: '-7', start_count: '0' }, 'bad-remains: Partial'],
      [unreadable!, { status: 'Partial', remains: 'lots' }, 'bad-remains: Partial'],
    ];
    for (const [f, entry] of entries) upstream.statusEntries.set(Number(f.providerOrderId), entry);
    const run = await stack.admin.post<{ review: number }>('/admin/sync/statuses');
    expect(run.body.review).toBeGreaterThanOrEqual(5);
    for (const [f, entry, note] of entries) {
      const now = await forward(f.orderId);
      expect(now, note).toMatchObject({ state: 'review', reviewFrom: 'accepted', note, providerAnswer: JSON.stringify(entry), status: 0, providerOrderId: f.providerOrderId });
      expect(await stack.orderOf(f.orderId)).toMatchObject({ status: 0, refundedDeci: 0 });
      expect(stack.events.of(f.orderId, 'ProviderOrderStatusChanged')).toEqual([]);
    }
    // An order the provider holds is never sent again from review.
    const resend = await stack.admin.post<{ code: string; message: string }>(`/admin/forwards/${exploded!.orderId}/review`, { action: 'resend' });
    expect([resend.status, resend.body.code]).toEqual([409, 'ALREADY_AT_PROVIDER']);
    expect(resend.body.message).toMatch(/[가-힣]/);
    // The provider answers properly again: resume follows the order, and its Partial refunds as usual.
    upstream.statusEntries.delete(Number(negative!.providerOrderId));
    upstream.move(Number(negative!.providerOrderId), 'Partial', { remains: 4 });
    expect((await stack.admin.post<{ state: string }>(`/admin/forwards/${negative!.orderId}/review`, { action: 'resume' })).body).toMatchObject({ state: 'accepted', reviewFrom: null });
    await stack.admin.post('/admin/sync/statuses');
    expect(await eventually(() => stack.orderOf(negative!.orderId), (o) => o.status === 3)).toMatchObject({ remains: 4, refundedDeci: 40 });
    // Resume is only for orders the provider took.
    const notTaken = await stack.admin.post<{ code: string }>(`/admin/forwards/${negative!.orderId}/review`, { action: 'resume' });
    expect(notTaken.body.code).toBe('NOT_IN_REVIEW');
    for (const [f] of entries) upstream.statusEntries.delete(Number(f.providerOrderId));
    // Out of the way of the price sync's counts below.
    expect((await stack.admin.del(`/admin/mappings/${productId}`)).status).toBe(204);
  });

  it('an HTML page in answer to `status`, and a failed check, show the provider failing with the error (not "not checked yet"); a good answer clears it', async () => {
    const productId = await mapped({ kind: 'markup', percent: 0 });
    await forwarded(productId, 10);
    upstream.statusFault = 'html';
    await stack.admin.post('/admin/sync/statuses');
    upstream.statusFault = null;
    type Health = { health: string; lastError: string | null; lastCallAction: string | null; failingSince: string | null; lastErrorAt: string | null };
    const failing = (await stack.admin.get<Health>(`/admin/providers/${providerId}`)).body;
    expect(failing).toMatchObject({ health: 'failing', lastError: 'HTTP 200: not JSON', lastCallAction: 'status', failingSince: expect.any(String) });
    await stack.admin.post('/admin/sync/statuses');
    expect((await stack.admin.get<Health>(`/admin/providers/${providerId}`)).body).toMatchObject({ health: 'ok', lastError: null, failingSince: null, lastErrorAt: failing.lastErrorAt });

    // A provider whose first check fails is failing, with the reason.
    const down = await stack.admin.post<{ id: number }>('/admin/providers', { name: 'down', url: `http://127.0.0.1:${await closedPort()}/api/v2`, key: 'k-down' });
    expect((await stack.admin.get<Health>(`/admin/providers/${down.body.id}`)).body).toMatchObject({ health: 'unchecked', lastError: null });
    const check = await stack.admin.post<{ ok: boolean; error: string; provider: Health & { balanceCheckedAt: string | null } }>(`/admin/providers/${down.body.id}/check`);
    expect(check.body).toMatchObject({ ok: false, error: 'ECONNREFUSED', provider: { health: 'failing', lastError: 'ECONNREFUSED', lastCallAction: 'balance', balanceCheckedAt: null } });
    await stack.admin.del(`/admin/providers/${down.body.id}`);
    expect((await stack.admin.del(`/admin/mappings/${productId}`)).status).toBe(204);
  });
});

describe('balance and price sync', () => {
  it('refreshes balances and raises the low-balance alert', async () => {
    upstream.balance = '20.5';
    await stack.admin.post('/admin/sync/balances');
    const p = await stack.admin.get<{ balance: string; balanceLow: boolean }>(`/admin/providers/${providerId}`);
    expect(p.body).toMatchObject({ balance: '20.5', balanceLow: true });
    await eventually(() => stack.events.events.filter((e) => e.type === 'ProviderBalanceLow'), (e) => e.length === 1);
    // Operators are told once per crossing, on the providers screen's notice list.
    await stack.admin.post('/admin/sync/balances');
    const notices = await stack.admin.get<{ unread: number; items: Array<{ kind: string; text: string; read: boolean }> }>('/admin/notices');
    expect(notices.body.items.filter((n) => n.kind === 'balance-low')).toEqual([expect.objectContaining({ read: false, text: expect.stringContaining('잔액(20.5 KRW)') })]);
    expect(notices.body.unread).toBe(1);
    expect((await stack.admin.post('/admin/notices/read')).body).toEqual({ read: 1 });
    expect((await stack.admin.get<{ unread: number }>('/admin/notices')).body.unread).toBe(0);
    expect((await stack.admin.get('/admin/notices?limit=0')).status).toBe(400);
  });

  it('reprices markup products, and makes products read-only when the cost passes a fixed price or the service disappears', async () => {
    const markup = await mapped({ kind: 'markup', percent: 20 }, '12'); // 2 won cost → 2.4 won
    const fixed = await mapped({ kind: 'fixed', unitPriceDeci: 15 }, '11'); // 1 won cost, sold at 1.5
    const gone = await mapped({ kind: 'markup', percent: 0 }, '13');
    const catalog = client(stack.catalog.base);
    expect((await catalog.get(`/admin/services/${markup}`)).body).toMatchObject({ unitPriceDeci: 24 });
    upstream.services = [
      { service: 11, name: 'Likes', rate: '2000', min: 10, max: 10_000, refill: true, cancel: true },
      { service: 12, name: 'Views', rate: '3000', min: 20, max: 5000 },
    ];
    const stats = await stack.admin.post('/admin/sync/prices');
    // Products of the earlier tests follow service 11's new rate too.
    expect(stats.body).toMatchObject({ repriced: 3, suspended: 2 });
    expect((await catalog.get(`/admin/services/${markup}`)).body).toMatchObject({ unitPriceDeci: 36, min: 20, max: 5000, isReadOnly: false });
    expect((await catalog.get(`/admin/services/${fixed}`)).body).toMatchObject({ unitPriceDeci: 15, isReadOnly: true });
    expect((await catalog.get(`/admin/services/${gone}`)).body).toMatchObject({ isReadOnly: true });
    const list = await stack.admin.get<Array<{ productId: number; suspendedReason: string | null }>>('/admin/mappings');
    expect(list.body.find((m) => m.productId === fixed)?.suspendedReason).toContain('원가');
    expect(list.body.find((m) => m.productId === gone)?.suspendedReason).toContain('더 이상 제공하지 않아');
    await eventually(() => stack.order.store.product(fixed), (r) => r?.isReadOnly === true);

    // Each change is announced on fulfillment.events.v1 and left as an unread notice for operators.
    const ofProduct = (id: number, type: string) => stack.events.events.filter((e) => e.type === type && (e.data as { productId: number }).productId === id);
    await eventually(() => ofProduct(markup, 'ProductRepricedFromProvider'), (e) => e.length === 1);
    expect(ofProduct(markup, 'ProductRepricedFromProvider')[0]!.data).toMatchObject({ fromUnitPriceDeci: 24, toUnitPriceDeci: 36, costDeci: 30, providerServiceId: '12' });
    expect((await eventually(() => ofProduct(fixed, 'ProductSuspendedByProvider'), (e) => e.length === 1))[0]!.data).toMatchObject({ reason: 'below-cost' });
    expect((await eventually(() => ofProduct(gone, 'ProductSuspendedByProvider'), (e) => e.length === 1))[0]!.data).toMatchObject({ reason: 'service-gone' });
    type Notices = { unread: number; items: Array<{ kind: string; productId: number | null; text: string; read: boolean }> };
    const notices = (await stack.admin.get<Notices>('/admin/notices')).body;
    expect(notices.unread).toBe(5);
    expect(notices.items.find((n) => n.productId === markup)).toMatchObject({ kind: 'repriced', read: false, text: expect.stringContaining('2.4원에서 3.6원') });
    expect(notices.items.find((n) => n.productId === fixed)).toMatchObject({ kind: 'suspended', text: expect.stringContaining('읽기 전용') });
    expect(notices.items.find((n) => n.productId === gone)).toMatchObject({ kind: 'suspended', text: expect.stringContaining('더 이상 제공하지 않아') });
    // A second sync with nothing new says nothing new.
    await stack.admin.post('/admin/sync/prices');
    expect((await stack.admin.get<Notices>('/admin/notices')).body.unread).toBe(5);

    // The cost falls back: the fixed product sells again.
    upstream.services[0]!.rate = '1000';
    expect((await stack.admin.post('/admin/sync/prices')).body).toMatchObject({ resumed: 1 });
    expect((await catalog.get(`/admin/services/${fixed}`)).body).toMatchObject({ isReadOnly: false });
    await eventually(() => ofProduct(fixed, 'ProductResumedByProvider'), (e) => e.length === 1);
    expect((await stack.admin.get<Notices>('/admin/notices')).body.items[0]).toMatchObject({ kind: 'resumed', productId: fixed });
  }, 90_000);
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutoOrderRunDue, OrderAccepted, Topics } from '@smm/contracts';
import { EventProducer, createKafka } from '@smm/platform';
import { FaultProvider, closedPort } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, logger, sleep, startInfra, startStack } from './support.ts';

type ForwardView = { orderId: number; state: string; providerOrderId: string | null; attempts: number; note: string | null; providerId: number | null; providerAnswer?: string | null };

let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;
let productId: number;

const services = [{ service: 11, name: 'Likes', rate: '1000', min: 10, max: 10_000, refill: true, cancel: true }];

/** A provider (KRW, 1 won a unit) with one imported service, mapped to a new product at cost + 0 %. */
async function mappedProduct(provider: FaultProvider, idempotentAdd = false): Promise<{ productId: number; providerId: number }> {
  const p = await stack.admin.post<{ id: number }>('/admin/providers', { name: `p-${provider.port}`, url: provider.url, key: provider.key, currency: 'KRW', wonDeciPerUnit: 10, idempotentAdd });
  await stack.admin.post(`/admin/providers/${p.body.id}/import`);
  const id = await stack.product();
  const mapped = await stack.admin.put(`/admin/mappings/${id}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '11', rule: { kind: 'markup', percent: 0 } });
  if (mapped.status !== 200) throw new Error(JSON.stringify(mapped.body));
  await eventually(() => stack.order.store.product(id), (r) => r?.unitPriceDeci === 10);
  return { productId: id, providerId: p.body.id };
}

const forward = (orderId: number) => stack.admin.get<ForwardView>(`/admin/forwards/${orderId}`).then((r) => r.body);
const settled = (orderId: number, states: string[]) => eventually(() => forward(orderId), (f) => states.includes(f?.state));
const link = () => `https://instagram.com/p/${randomUUID().slice(0, 8)}`;

/** `fulfillment_forward_duration_seconds_count{outcome}` as fulfillment's /metrics serves it. */
async function forwardCount(outcome: string): Promise<number> {
  const text = await (await fetch(`${stack.fulfillment.base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`fulfillment_forward_duration_seconds_count{outcome="${outcome}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra, { providerTimeoutMs: 1000 });
  upstream = new FaultProvider();
  upstream.services = services;
  await upstream.start();
  ({ productId } = await mappedProduct(upstream));
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
  await stack?.stop();
  await infra?.stop();
});

describe('a paid order', () => {
  it('is forwarded once with `add` and announced with OrderForwarded', async () => {
    const l = link();
    const acceptedBefore = await forwardCount('accepted');
    const orderId = await stack.placeOrder(productId, l, 120);
    const f = await settled(orderId, ['accepted']);
    // The forward latency (paid order in → provider answer recorded) is observed once.
    expect(await eventually(() => forwardCount('accepted'), (n) => n >= acceptedBefore + 1)).toBe(acceptedBefore + 1);
    expect(upstream.adds().filter((a) => a.link === l)).toEqual([{ key: upstream.key, action: 'add', service: '11', link: l, quantity: '120' }]);
    expect(f).toMatchObject({ state: 'accepted', attempts: 1, providerOrderId: expect.stringMatching(/^\d+$/) });
    const events = await eventually(() => stack.events.of(orderId), (e) => e.length >= 1);
    expect(events[0]).toMatchObject({ type: 'OrderForwarded', data: { orderId, providerServiceId: '11', providerOrderId: f.providerOrderId, attempts: 1 } });
  });

  it('waits and retries when the provider has not enough funds, alerting each time', async () => {
    upstream.addScript = ['funds', 'funds', 'ok'];
    const orderId = await stack.placeOrder(productId, link(), 50);
    const f = await settled(orderId, ['accepted']);
    expect(f.attempts).toBe(3);
    const failed = stack.events.of(orderId, 'OrderForwardFailed');
    expect(failed.map((e) => (e.data as { reason: string }).reason)).toEqual(['not-enough-funds', 'not-enough-funds']);
    expect((failed[0]!.data as { retryAt: string | null }).retryAt).not.toBeNull();
  });

  it('sends a forward queued again when it falls due, not at the next poll', async () => {
    // A ten-minute poll: only the retry's own wake-up can send it again within the wait below.
    await stack.restartFulfillment({ pollMs: 600_000 });
    try {
      upstream.addScript = ['funds', 'ok'];
      const l = link();
      const orderId = await stack.placeOrder(productId, l, 30);
      const f = await settled(orderId, ['accepted']);
      expect(f.attempts).toBe(2);
      expect(upstream.adds().filter((a) => a.link === l)).toHaveLength(2);
    } finally {
      await stack.restartFulfillment({ pollMs: 100 });
    }
  });

  it('is canceled with a full refund and a Korean reason when the provider refuses the link or quantity', async () => {
    for (const fault of ['refuse-link', 'refuse-quantity'] as const) {
      upstream.addScript = [fault];
      const orderId = await stack.placeOrder(productId, link(), 40);
      await settled(orderId, ['failed']);
      const order = await eventually(() => stack.orderOf(orderId), (o) => o.status === 5);
      expect(order).toMatchObject({ status: 5, remains: 40, refundedDeci: 400, reason: '공급처가 링크 또는 수량을 받지 않아 주문이 취소되고 전액 환불되었습니다.' });
      expect(stack.events.of(orderId, 'OrderForwardFailed')[0]?.data).toMatchObject({ reason: 'refused' });
    }
  });

  it('goes to review, never resent, when the outcome is unknown (timeout, 5xx, malformed JSON, no id, dropped connection)', async () => {
    const cases = ['timeout', 'http500', 'malformed', 'no-id', 'drop'] as const;
    const ids: number[] = [];
    const links: string[] = [];
    for (const fault of cases) {
      upstream.addScript = [fault];
      const l = link();
      links.push(l);
      const orderId = await stack.placeOrder(productId, l, 30);
      ids.push(orderId);
      const f = await settled(orderId, ['review']);
      expect(f.note).toMatch(/^unknown: /);
      expect(upstream.adds().filter((a) => a.link === l)).toHaveLength(1);
    }
    await sleep(1500); // a few forwarder passes and a stale-claim recovery
    for (const orderId of ids) expect((await forward(orderId)).state).toBe('review');
    for (const l of links) expect(upstream.adds().filter((a) => a.link === l)).toHaveLength(1);
    expect((await stack.orderOf(ids[0]!)).status).toBe(0);
  });

  it('is never taken as a success when the answer names an impossible order id (-5, 0, "abc", 1.5): review with the answer kept, the status sync does not follow it', async () => {
    const cases = [
      ['negative-id', '{"order":-5}'],
      ['zero-id', '{"order":0}'],
      ['text-id', '{"order":"abc"}'],
      ['fraction-id', '{"order":1.5}'],
    ] as const;
    const ids: number[] = [];
    for (const [fault, answer] of cases) {
      upstream.addScript = [fault];
      const l = link();
      const orderId = await stack.placeOrder(productId, l, 30);
      ids.push(orderId);
      const f = await settled(orderId, ['review']);
      expect(f, fault).toMatchObject({ providerOrderId: null, note: 'invalid answer: order id is not a positive integer', providerAnswer: answer });
      expect(upstream.adds().filter((a) => a.link === l)).toHaveLength(1);
      expect(stack.events.of(orderId, 'OrderForwarded')).toEqual([]);
      expect(await eventually(() => stack.events.of(orderId, 'OrderForwardFailed'), (e) => e.length === 1)).toMatchObject([{ data: { reason: 'provider-error', retryAt: null } }]);
    }
    // A status sync later (a provider answering "Completed" for anything) changes none of them.
    const statusCalls = upstream.received.filter((r) => r.action === 'status').length;
    await stack.fulfillment.tasks.statuses.runNow();
    for (const orderId of ids) {
      expect((await forward(orderId)).state).toBe('review');
      expect((await stack.orderOf(orderId)).status).toBe(0);
    }
    const asked = upstream.received.filter((r) => r.action === 'status').slice(statusCalls).flatMap((r) => r.fields.orders!.split(','));
    expect(asked.filter((id) => ['-5', '0', 'abc', '1.5'].includes(id))).toEqual([]);
  });

  it('a definite error that is not a refusal (service disabled) waits for an operator', async () => {
    upstream.addScript = ['disabled'];
    const orderId = await stack.placeOrder(productId, link(), 30);
    expect((await settled(orderId, ['review'])).note).toBe('provider-error: Service disabled');
  });
});

describe('an unknown outcome at a provider that honours Idempotency-Key', () => {
  let keyed: FaultProvider;
  let keyedProduct: number;
  beforeAll(async () => {
    keyed = new FaultProvider('k-keyed');
    keyed.services = services;
    keyed.honourKeys = true;
    await keyed.start();
    keyedProduct = (await mappedProduct(keyed, true)).productId;
  });
  afterAll(() => keyed.stop());

  it('is reconciled by sending the same reference again: the provider answers the order it took, nothing twice', async () => {
    for (const fault of ['timeout', 'http500', 'malformed', 'no-id', 'drop'] as const) {
      keyed.addScript = [fault];
      const l = link();
      const orderId = await stack.placeOrder(keyedProduct, l, 30);
      const f = await settled(orderId, ['accepted']);
      const calls = keyed.received.filter((r) => r.action === 'add' && r.fields.link === l);
      // Two calls, one reference; the provider holds one order for this link, and it is the linked one.
      expect(calls).toHaveLength(2);
      expect(new Set(calls.map((c) => c.reference)).size).toBe(1);
      expect(calls[0]!.reference).toMatch(new RegExp(`^fwd-${orderId}-`));
      const held = [...keyed.orders.values()].filter((o) => o.link === l);
      expect(held.map((o) => String(o.id))).toEqual([f.providerOrderId]);
      const failed = stack.events.of(orderId, 'OrderForwardFailed');
      expect(failed[0]?.data).toMatchObject({ reason: 'unknown-outcome', retryAt: expect.any(String) });
      expect((await eventually(() => stack.events.of(orderId, 'OrderForwarded'), (e) => e.length === 1))[0]!.data).toMatchObject({ providerOrderId: f.providerOrderId });
    }
  });

  it('sends a new reference after a definite "no" (not enough funds), since the provider may have stored that answer', async () => {
    keyed.addScript = ['funds', 'ok'];
    const l = link();
    const orderId = await stack.placeOrder(keyedProduct, l, 30);
    await settled(orderId, ['accepted']);
    const refs = keyed.received.filter((r) => r.action === 'add' && r.fields.link === l).map((r) => r.reference);
    expect(refs).toHaveLength(2);
    expect(refs[0]).not.toBe(refs[1]);
  });

  it('goes to review after a bounded number of re-sends that never get a clear answer', async () => {
    keyed.addScript = Array.from({ length: 10 }, () => 'http500' as const);
    const l = link();
    const orderId = await stack.placeOrder(keyedProduct, l, 30);
    const f = await eventually(() => forward(orderId), (x) => x?.state === 'review', 60_000);
    expect(f.note).toMatch(/^unknown: HTTP 500/);
    // The first call and five re-sends, all with one reference.
    const calls = keyed.received.filter((r) => r.action === 'add' && r.fields.link === l);
    expect(calls).toHaveLength(6);
    expect(new Set(calls.map((c) => c.reference)).size).toBe(1);
    keyed.addScript = [];
  }, 90_000);

  it('cannot be canceled by the member (and refunded) while it waits to be re-sent: the provider may hold it', async () => {
    keyed.addScript = Array.from({ length: 10 }, () => 'http500' as const);
    const userId = `m-${randomUUID().slice(0, 8)}`;
    const orderId = await stack.placeOrder(keyedProduct, link(), 30, userId);
    await eventually(() => forward(orderId), (f) => f?.state === 'queued' && f.attempts >= 3, 30_000);
    const asked = await client(stack.fulfillment.base, userId, 'member').post<{ code: string; message: string }>(`/orders/${orderId}/cancel`);
    expect(asked.status).toBe(409);
    expect(['CANCEL_NOT_YET', 'CANCEL_NOT_PENDING']).toContain(asked.body.code);
    expect(asked.body.message).toMatch(/[가-힣]/);
    expect(await stack.orderOf(orderId)).toMatchObject({ status: 0, refundedDeci: 0 });
    await eventually(() => forward(orderId), (f) => f?.state === 'review', 60_000);
    keyed.addScript = [];
  }, 90_000);

  it('is not re-sent to a provider that did not declare support: review, as before', async () => {
    upstream.addScript = ['timeout'];
    const l = link();
    const orderId = await stack.placeOrder(productId, l, 30);
    await settled(orderId, ['review']);
    await sleep(1000);
    expect(upstream.adds().filter((a) => a.link === l)).toHaveLength(1);
    // The reference went along anyway: a provider that honours it without saying so is protected too.
    expect(upstream.received.find((r) => r.action === 'add' && r.fields.link === l)?.reference).toMatch(/^fwd-/);
  });
});

describe('an auto order', () => {
  it('has each placed run forwarded as its own order, the auto order itself never', async () => {
    const userId = `m-${randomUUID().slice(0, 8)}`;
    const l = link();
    await client(stack.catalog.base).patch(`/admin/services/${productId}`, { enableAuto: true });
    await eventually(() => stack.order.store.product(productId), (r) => r?.enableAuto === true);
    const placed = await client(stack.order.base, userId, 'member').post<{ order: { id: number } }>('/orders', { serviceId: productId, link: l, amount: 25, runs: 2, interval: 60 });
    expect([201, 202]).toContain(placed.status);
    const autoId = placed.body.order.id;
    await eventually(() => stack.orderEvents.filter((e) => e.type === 'OrderAccepted' && (e.data as { orderId: number }).orderId === autoId), (e) => e.length === 1);
    // The scheduler's part: run 1 falls due.
    const producer = new EventProducer(createKafka([infra.kafka.brokers], 'scheduler-stand-in', logger));
    await producer.connect();
    await producer.publish(Topics.scheduler, [AutoOrderRunDue.create(`order-${autoId}`, { autoOrderId: autoId, userId, run: 1, dueAt: new Date().toISOString() }, { correlationId: 'run-1' })]);
    await producer.disconnect();
    const run = await eventually(() => stack.orderEvents.filter((e) => e.type === 'AutoOrderRunPlaced' && (e.data as { autoOrderId: number }).autoOrderId === autoId), (e) => e.length === 1);
    const childId = (run[0]!.data as { childOrderId: number }).childOrderId;
    expect((await settled(childId, ['accepted'])).state).toBe('accepted');
    expect(upstream.adds().filter((a) => a.link === l)).toEqual([{ key: upstream.key, action: 'add', service: '11', link: l, quantity: '25' }]);
    expect((await stack.admin.get(`/admin/forwards/${autoId}`)).status).toBe(404);
  });
});

describe('the review queue', () => {
  it('lets an operator link the provider’s order, send again, or cancel with a refund', async () => {
    upstream.addScript = ['timeout', 'http500', 'timeout'];
    const a = await stack.placeOrder(productId, link(), 30);
    const b = await stack.placeOrder(productId, link(), 30);
    const c = await stack.placeOrder(productId, link(), 30);
    await Promise.all([a, b, c].map((id) => settled(id, ['review'])));
    const queue = await stack.admin.get<ForwardView[]>('/admin/forwards?state=review');
    expect(queue.body.map((f) => f.orderId)).toEqual(expect.arrayContaining([a, b, c]));

    const linked = await stack.admin.post<ForwardView>(`/admin/forwards/${a}/review`, { action: 'link', providerOrderId: '777' });
    expect(linked.body).toMatchObject({ state: 'accepted', providerOrderId: '777' });
    await stack.admin.post(`/admin/forwards/${b}/review`, { action: 'resend' });
    expect((await settled(b, ['accepted'])).attempts).toBe(2);
    await stack.admin.post(`/admin/forwards/${c}/review`, { action: 'cancel' });
    expect(await eventually(() => stack.orderOf(c), (o) => o.status === 5)).toMatchObject({ refundedDeci: 300, reason: '주문을 처리할 수 없어 취소되고 전액 환불되었습니다.' });

    const again = await stack.admin.post<{ code: string; message: string }>(`/admin/forwards/${a}/review`, { action: 'cancel' });
    expect([again.status, again.body.code]).toEqual([409, 'NOT_IN_REVIEW']);
    const bad = await stack.admin.post<{ code: string; message: string }>(`/admin/forwards/${a}/review`, { action: 'explode' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[가-힣]/);
  });

  it('is settled by staff too, while provider management stays the admin’s (issue 12)', async () => {
    const staff = client(stack.fulfillment.base, 'staff-1', 'staff');
    upstream.addScript = ['timeout', 'timeout'];
    const a = await stack.placeOrder(productId, link(), 20);
    const b = await stack.placeOrder(productId, link(), 20);
    await Promise.all([a, b].map((id) => settled(id, ['review'])));
    const queue = await staff.get<ForwardView[]>('/admin/forwards?state=review');
    expect(queue.status).toBe(200);
    expect(queue.body.map((f) => f.orderId)).toEqual(expect.arrayContaining([a, b]));
    expect((await staff.get<ForwardView>(`/admin/forwards/${a}`)).body).toMatchObject({ orderId: a, state: 'review' });
    const linked = await staff.post<ForwardView>(`/admin/forwards/${a}/review`, { action: 'link', providerOrderId: '4242' });
    expect([linked.status, linked.body.state, linked.body.providerOrderId]).toEqual([200, 'accepted', '4242']);
    expect((await staff.post(`/admin/forwards/${b}/review`, { action: 'cancel' })).status).toBe(200);
    expect(await eventually(() => stack.orderOf(b), (o) => o.status === 5)).toMatchObject({ refundedDeci: 200 });
    expect((await staff.get<ForwardView[]>('/admin/forwards?state=review')).body.map((f) => f.orderId)).not.toEqual(expect.arrayContaining([a]));

    const providers = (await stack.admin.get<Array<{ id: number; name: string }>>('/admin/providers')).body;
    const mappings = (await stack.admin.get<unknown[]>('/admin/mappings')).body;
    const id = providers[0]!.id;
    const refused: Array<[string, string, unknown?]> = [
      ['GET', '/admin/providers'],
      ['POST', '/admin/providers', { name: 'staff', url: upstream.url, key: 'k', currency: 'KRW', wonDeciPerUnit: 10 }],
      ['GET', `/admin/providers/${id}`],
      ['PATCH', `/admin/providers/${id}`, { name: 'renamed by staff' }],
      ['DELETE', `/admin/providers/${id}`],
      ['POST', `/admin/providers/${id}/check`],
      ['POST', `/admin/providers/${id}/import`],
      ['GET', `/admin/providers/${id}/services`],
      ['GET', '/admin/mappings'],
      ['PUT', `/admin/mappings/${productId}`, { mode: 'manual' }],
      ['DELETE', `/admin/mappings/${productId}`],
      ['GET', '/admin/notices'],
      ['POST', '/admin/notices/read'],
      ['POST', '/admin/sync/balances'],
    ];
    const as = { GET: staff.get, POST: staff.post, PUT: staff.put, PATCH: staff.patch, DELETE: staff.del } as Record<string, (path: string, body?: unknown) => Promise<{ status: number; body: unknown }>>;
    for (const [method, path, body] of refused) {
      const res = await as[method]!(path, body);
      expect([res.status, res.body], `${method} ${path}`).toEqual([403, { code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' }]);
    }
    // Nothing changed by the refused calls.
    expect((await stack.admin.get<Array<{ id: number; name: string }>>('/admin/providers')).body).toEqual(providers);
    expect((await stack.admin.get<unknown[]>('/admin/mappings')).body).toEqual(mappings);

    const member = client(stack.fulfillment.base, 'm-1', 'member');
    for (const res of [await member.get('/admin/forwards?state=review'), await member.get(`/admin/forwards/${a}`), await member.post(`/admin/forwards/${a}/review`, { action: 'cancel' })]) expect(res.status).toBe(403);
  });
});

describe('routing', () => {
  it('leaves orders of products without a provider to operators (manual)', async () => {
    const manual = await stack.product();
    const orderId = await stack.placeOrder(manual, link(), 20);
    expect((await settled(orderId, ['manual'])).providerId).toBeNull();
    const mapped = await stack.product();
    await stack.admin.put(`/admin/mappings/${mapped}`, { mode: 'manual' });
    expect((await settled(await stack.placeOrder(mapped, link(), 20), ['manual'])).state).toBe('manual');
  });

  it('puts events without the forward details (older orders) in review', async () => {
    const producer = new EventProducer(createKafka([infra.kafka.brokers], 'old-order', logger));
    await producer.connect();
    const old = OrderAccepted.create('order-900001', { orderId: 900_001, kind: 'order', userId: 'm-old', runs: 0, interval: 0 }, { correlationId: 'old-1' });
    await producer.publish(Topics.order, [old]);
    expect((await settled(900_001, ['review'])).note).toBe('missing-details');
    expect((await eventually(() => stack.events.of(900_001, 'OrderForwardFailed'), (e) => e.length === 1))[0]!.data).toMatchObject({ reason: 'missing-details' });
    // Redelivered, and copied under a new event id: the order is already known, nothing happens again.
    await producer.publish(Topics.order, [old, OrderAccepted.create('order-900001', old.data, { correlationId: 'old-1-copy' })]);
    await producer.disconnect();
    await sleep(1500);
    expect(stack.events.of(900_001, 'OrderForwardFailed')).toHaveLength(1);
    expect(await forward(900_001)).toMatchObject({ state: 'review', note: 'missing-details' });
  });

  it('takes a run of paid orders at once: new ones routed, one already known left as it is', async () => {
    const knownLink = link();
    const known = await stack.placeOrder(productId, knownLink, 30);
    const before = await settled(known, ['accepted']);
    const manual = await stack.product();
    const accepted = (orderId: number, serviceId: number, userId = 'm-run') =>
      OrderAccepted.create(`order-${orderId}`, { orderId, kind: 'order', userId, runs: 0, interval: 0, serviceId, link: link(), amount: 20 }, { correlationId: `run-${orderId}` });
    const producer = new EventProducer(createKafka([infra.kafka.brokers], 'paid-run', logger));
    await producer.connect();
    // One send: the consumer gets them in one run (a copy of the known order among them).
    await producer.publish(Topics.order, [accepted(900_101, productId), accepted(known, productId, 'm-copy'), accepted(900_102, manual), accepted(900_103, productId)]);
    await producer.disconnect();
    expect((await settled(900_101, ['accepted'])).providerId).not.toBeNull();
    expect((await settled(900_103, ['accepted'])).providerOrderId).not.toBeNull();
    expect((await settled(900_102, ['manual'])).providerId).toBeNull();
    // The copy changed nothing: still the first answer, sent once.
    expect(await forward(known)).toMatchObject({ state: 'accepted', providerOrderId: before.providerOrderId, attempts: 1 });
    expect(upstream.adds().filter((a) => a.link === knownLink)).toHaveLength(1);
  });

  it('retries a provider that refused the connection (the request never left)', async () => {
    const port = await closedPort();
    const gone = new FaultProvider('k-gone');
    gone.services = services;
    await gone.start();
    const { productId: pid, providerId } = await mappedProduct(gone);
    await gone.stop();
    await stack.admin.patch(`/admin/providers/${providerId}`, { url: `http://127.0.0.1:${port}/api/v2` });
    const orderId = await stack.placeOrder(pid, link(), 20);
    const failed = await eventually(() => stack.events.of(orderId, 'OrderForwardFailed'), (e) => e.length >= 2);
    expect(failed.map((e) => (e.data as { reason: string }).reason).slice(0, 2)).toEqual(['unreachable', 'unreachable']);
    const back = new FaultProvider('k-gone');
    back.services = services;
    await back.start(port);
    try {
      expect((await settled(orderId, ['accepted'])).state).toBe('accepted');
      expect(back.adds()).toHaveLength(1);
    } finally {
      await back.stop();
    }
  });

  it('keeps one dead provider from holding up another', async () => {
    const dead = new FaultProvider('k-dead');
    dead.services = services;
    dead.fallback = 'slow-ok';
    await dead.start();
    try {
      const deadProduct = (await mappedProduct(dead)).productId;
      const stuck = await Promise.all(Array.from({ length: 8 }, () => stack.placeOrder(deadProduct, link(), 20)));
      await eventually(() => dead.adds().length, (n) => n >= 4);
      const started = Date.now();
      const fine = await Promise.all(Array.from({ length: 5 }, () => stack.placeOrder(productId, link(), 20)));
      for (const id of fine) await settled(id, ['accepted']);
      expect(Date.now() - started).toBeLessThan(5000);
      for (const id of stuck) await settled(id, ['review', 'queued', 'claimed', 'sent']);
    } finally {
      await dead.stop();
    }
  });
});

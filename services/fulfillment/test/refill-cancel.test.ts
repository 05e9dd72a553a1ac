import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, reconcile } from '@smm/reconcile';
import { callerHeaders } from '@smm/testkit';
import { FaultProvider } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, startInfra, startStack } from './support.ts';

/**
 * Refill and cancel through fulfillment's request queue (issue 41), with the real wallet: members
 * pay from funded balances and a confirmed cancel's refund lands in the wallet's ledger, so the
 * suite ends with the cross-service reconciliation. The provider is a real API v2 server that
 * answers as scripted, forged answers included.
 */
let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;
let providerId: number;
let withBoth: number;
let withNeither: number;
const members: string[] = [];

type ErrorBody = { code: string; message: string };
type RefillBody = { refill: number; orderId: number; status: string; state: string; existing?: true };
type RequestBody = { id: string; kind: string; orderId: number; state: string; open: boolean; unclear: boolean; answer: string | null; error: string | null; attempts: number; note: string | null; status: string | null };
type Queue = { items: RequestBody[]; counts: { failed: number; open: number }; oldestFailedAt: string | null };
const link = () => `https://instagram.com/p/${randomUUID().slice(0, 8)}`;
const actions = (action: string) => upstream.received.filter((r) => r.action === action);

async function mapped(service: string): Promise<number> {
  const id = await stack.product();
  const res = await stack.admin.put<{ unitPriceDeci: number }>(`/admin/mappings/${id}`, { mode: 'provider', providerId, providerServiceId: service, rule: { kind: 'markup', percent: 0 } });
  await eventually(() => stack.order.store.product(id), (r) => r?.unitPriceDeci === res.body.unitPriceDeci);
  return id;
}

/** A funded member (10,000원) of this suite. */
async function member(): Promise<string> {
  const userId = `m-${randomUUID().slice(0, 8)}`;
  await stack.wallet!.fund(userId, 10_000);
  members.push(userId);
  return userId;
}

/** A paid order of 50 units (50원) the provider took. */
async function accepted(productId: number, userId: string) {
  const orderId = await stack.placeOrder(productId, link(), 50, userId);
  const f = await eventually(() => stack.admin.get<{ state: string; providerOrderId: string }>(`/admin/forwards/${orderId}`).then((r) => r.body), (b) => b?.state === 'accepted');
  return { orderId, providerOrderId: Number(f.providerOrderId) };
}

async function completed(productId: number, userId: string) {
  const order = await accepted(productId, userId);
  upstream.move(order.providerOrderId, 'Completed', { remains: 0 });
  await stack.fulfillment.tasks.statuses.runNow();
  await eventually(() => stack.orderOf(order.orderId), (o) => o.status === 2);
  return order;
}

const queue = (q = '') => stack.admin.get<Queue>(`/admin/requests${q}`).then((r) => r.body);
const operator = (userId = 'op-1', role: 'admin' | 'staff' = 'admin') => client(stack.fulfillment.base, userId, role);

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra, { realWallet: true });
  upstream = new FaultProvider();
  upstream.services = [
    { service: 21, name: 'both', rate: '1000', min: 10, max: 1000, refill: true, cancel: true },
    { service: 22, name: 'neither', rate: '1000', min: 10, max: 1000, refill: false, cancel: false },
  ];
  await upstream.start();
  providerId = (await stack.admin.post<{ id: number }>('/admin/providers', { name: 'rc', url: upstream.url, key: upstream.key })).body.id;
  await stack.admin.post(`/admin/providers/${providerId}/import`);
  withBoth = await mapped('21');
  withNeither = await mapped('22');
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
  await stack?.stop();
  await infra?.stop();
});

describe('refill', () => {
  it('is forwarded once: a second (and a concurrent) refill of the order answers the open one; its status is followed to the end, then a new one may be asked', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId } = await accepted(withBoth, userId);
    const early = await m.post<ErrorBody>(`/orders/${orderId}/refill`);
    expect([early.status, early.body.code]).toEqual([409, 'REFILL_NOT_COMPLETED']);
    const { providerOrderId } = { providerOrderId: Number((await stack.admin.get<{ providerOrderId: string }>(`/admin/forwards/${orderId}`)).body.providerOrderId) };
    upstream.move(providerOrderId, 'Completed', { remains: 0 });
    await stack.fulfillment.tasks.statuses.runNow();
    await eventually(() => stack.orderOf(orderId), (o) => o.status === 2);

    const before = actions('refill').length;
    const [a, b] = await Promise.all([m.post<RefillBody>(`/orders/${orderId}/refill`), m.post<RefillBody>(`/orders/${orderId}/refill`)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.refill).toBe(b.body.refill);
    const again = await m.post<RefillBody>(`/orders/${orderId}/refill`);
    expect([again.status, again.body]).toEqual([200, { refill: a.body.refill, orderId, status: 'Pending', state: 'forwarded', existing: true }]);
    expect(actions('refill').slice(before).map((r) => r.fields.order)).toEqual([String(providerOrderId)]);

    // The status sync follows the refill; Completed closes it, and the order may be refilled again.
    const providerRefill = [...upstream.refills.keys()].at(-1)!;
    upstream.refills.set(providerRefill, 'In progress');
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await m.get<RefillBody>(`/refills/${a.body.refill}`)).body).toMatchObject({ status: 'In progress', state: 'forwarded' });
    upstream.refills.set(providerRefill, 'Completed');
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await queue('?state=all&kind=refill')).items.find((r) => r.id === `refill-${a.body.refill}`)).toMatchObject({ state: 'done', open: false, status: 'Completed' });
    const next = await m.post<RefillBody>(`/orders/${orderId}/refill`);
    expect(next.status).toBe(201);
    expect(next.body.refill).not.toBe(a.body.refill);

    // Someone else's order and refill are not found, and nothing is forwarded for them.
    const other = client(stack.fulfillment.base, 'm-other', 'member');
    const count = actions('refill').length;
    expect((await other.post(`/orders/${orderId}/refill`)).status).toBe(404);
    expect((await other.get(`/refills/${a.body.refill}`)).status).toBe(404);
    expect(actions('refill').length).toBe(count);
  });

  it('with a forged or unclear answer ({"refill": -1}) is an unclear failure kept with the answer: not forwarded again by the member, retried by an operator', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId } = await completed(withBoth, userId);
    upstream.refillAnswer = { refill: -1 };
    const first = await m.post<ErrorBody>(`/orders/${orderId}/refill`);
    expect([first.status, first.body.code]).toEqual([502, 'PROVIDER_UNCLEAR']);
    expect(first.body.message).toMatch(/운영자가 확인/);
    const calls = actions('refill').length;
    const second = await m.post<RefillBody>(`/orders/${orderId}/refill`);
    expect([second.status, second.body.existing, second.body.state]).toEqual([200, true, 'failed']);
    expect(actions('refill').length).toBe(calls);

    const failed = (await queue()).items.find((r) => r.orderId === orderId)!;
    expect(failed).toMatchObject({ kind: 'refill', state: 'failed', open: true, unclear: true, answer: '{"refill":-1}', error: 'answer without a refill id' });
    // The member's own operator account may not settle it (insider); another operator (staff too) may.
    expect((await operator(userId).post<ErrorBody>(`/admin/requests/${failed.id}/resolve`, { action: 'retry' })).body.code).toBe('SELF_ACTION');
    expect((await m.post(`/admin/requests/${failed.id}/resolve`, { action: 'retry' })).status).toBe(403);
    upstream.refillAnswer = undefined;
    const retried = await operator('staff-9', 'staff').post<RequestBody>(`/admin/requests/${failed.id}/resolve`, { action: 'retry' });
    expect(retried.body).toMatchObject({ state: 'forwarded', open: true, attempts: 2, error: null });
    expect((await operator().post<ErrorBody>(`/admin/requests/${failed.id}/resolve`, { action: 'retry' })).body.code).toBe('REQUEST_NOT_FAILED');

    // A forged refill_status ({"status": 12345}) changes nothing but the kept answer.
    upstream.refillStatusAnswer = { status: 12345 };
    expect((await m.get<RefillBody>(`/refills/${second.body.refill}`)).body).toMatchObject({ status: 'Pending', state: 'forwarded' });
    expect((await queue('?state=open')).items.find((r) => r.id === failed.id)).toMatchObject({ state: 'forwarded', answer: '{"status":12345}', error: 'refill_status: answer without a readable status' });
    upstream.refillStatusAnswer = undefined;
  });

  it('refused by the provider is a failed request operators see and close with a note', async () => {
    const userId = await member();
    const { orderId } = await completed(withBoth, userId);
    upstream.refillAnswer = { error: 'Refill is disabled for this order' };
    const res = await client(stack.fulfillment.base, userId, 'member').post<ErrorBody>(`/orders/${orderId}/refill`);
    upstream.refillAnswer = undefined;
    expect([res.status, res.body.code]).toEqual([409, 'PROVIDER_REFUSED']);
    const listed = await queue('?state=failed&kind=refill');
    const failed = listed.items.find((r) => r.orderId === orderId)!;
    expect(failed).toMatchObject({ state: 'failed', open: false, unclear: false, error: 'Refill is disabled for this order', answer: '{"error":"Refill is disabled for this order"}' });
    expect(listed.counts.failed).toBeGreaterThanOrEqual(1);
    const closed = await operator().post<RequestBody>(`/admin/requests/${failed.id}/resolve`, { action: 'close', note: '공급처에 직접 문의함' });
    expect(closed.body).toMatchObject({ state: 'closed', note: '공급처에 직접 문의함' });
    expect((await queue()).items.map((r) => r.id)).not.toContain(failed.id);
    const bad = await operator().post<ErrorBody>(`/admin/requests/${failed.id}/resolve`, { action: 'refund' });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(bad.body.message).toMatch(/[가-힣]/);
    expect((await operator().get<ErrorBody>('/admin/requests?state=lost')).status).toBe(400);
  });

  it('that the provider answers 503 "not ready yet, ask again" is kept waiting (Pending) and sent again by the status sync', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId, providerOrderId } = await completed(withBoth, userId);
    upstream.refillAnswer = { error: 'Order is not ready yet, try again in a few seconds' };
    upstream.refillAnswerStatus = 503;
    const asked = await m.post<RefillBody>(`/orders/${orderId}/refill`);
    expect([asked.status, asked.body.status, asked.body.state]).toEqual([201, 'Pending', 'waiting']);
    upstream.refillAnswer = undefined;
    upstream.refillAnswerStatus = 200;
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await m.get<RefillBody>(`/refills/${asked.body.refill}`)).body).toMatchObject({ state: 'forwarded', status: 'Pending' });
    expect(actions('refill').filter((r) => r.fields.order === String(providerOrderId))).toHaveLength(2);
  });

  it('is refused for products without refill', async () => {
    const userId = await member();
    const { orderId } = await accepted(withNeither, userId);
    const res = await client(stack.fulfillment.base, userId, 'member').post<ErrorBody>(`/orders/${orderId}/refill`);
    expect([res.status, res.body.code]).toEqual([409, 'REFILL_NOT_AVAILABLE']);
    expect(res.body.message).toMatch(/[가-힣]/);
  });
});

describe('cancel', () => {
  it('of a pending order is forwarded once; a repeat says it was asked already; the full refund follows the provider’s Canceled, exactly once', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId } = await accepted(withBoth, userId);
    expect(await stack.wallet!.balanceDeci(userId)).toBe(99_500);
    const before = actions('cancel').length;
    expect((await client(stack.fulfillment.base, 'm-thief', 'member').post(`/orders/${orderId}/cancel`)).status).toBe(404);
    expect((await m.post(`/orders/${orderId}/cancel`)).body).toEqual({ orderId, cancel: 'requested' });
    const repeat = await m.post<ErrorBody>(`/orders/${orderId}/cancel`);
    expect([repeat.status, repeat.body]).toEqual([409, { code: 'CANCEL_ALREADY_REQUESTED', message: '이미 취소를 요청한 주문입니다. 공급처가 취소를 확인하면 전액 환불됩니다.' }]);
    expect(actions('cancel').length).toBe(before + 1);
    expect((await stack.orderOf(orderId)).status).toBe(0); // no money moves before the provider confirms
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 5)).toMatchObject({ refundedDeci: 500 });
    expect(await eventually(() => stack.wallet!.balanceDeci(userId), (b) => b === 100_000)).toBe(100_000);
    expect((await queue('?state=all&kind=cancel')).items.find((r) => r.orderId === orderId)).toMatchObject({ state: 'done', open: false, status: 'Canceled' });
    const after = await m.post<ErrorBody>(`/orders/${orderId}/cancel`);
    expect([after.status, after.body.code]).toEqual([409, 'ORDER_ALREADY_CANCELED']);
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await stack.wallet!.balanceDeci(userId)).toBe(100_000);
  });

  it('with an answer about another order is unclear: kept, not re-sent by the member, and no refund until the provider confirms after an operator’s retry', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId, providerOrderId } = await accepted(withBoth, userId);
    upstream.cancelAnswer = [{ order: providerOrderId + 1000, cancel: 1 }];
    const first = await m.post<ErrorBody>(`/orders/${orderId}/cancel`);
    upstream.cancelAnswer = undefined;
    expect([first.status, first.body.code]).toEqual([502, 'PROVIDER_UNCLEAR']);
    expect((await m.post<ErrorBody>(`/orders/${orderId}/cancel`)).body.code).toBe('CANCEL_ALREADY_REQUESTED');
    const failed = (await queue('?kind=cancel')).items.find((r) => r.orderId === orderId)!;
    expect(failed).toMatchObject({ state: 'failed', unclear: true, open: true, answer: `[{"order":${providerOrderId + 1000},"cancel":1}]` });
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await stack.orderOf(orderId)).status).toBe(0);
    const retried = await operator().post<RequestBody>(`/admin/requests/${failed.id}/resolve`, { action: 'retry' });
    expect(retried.body.state).toBe('forwarded');
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 5)).toMatchObject({ refundedDeci: 500 });
  });

  it('that the provider answers by starting the order instead fails visibly; no refund', async () => {
    const userId = await member();
    const { orderId, providerOrderId } = await accepted(withBoth, userId);
    upstream.cancelAnswer = [{ order: providerOrderId, cancel: 1 }]; // says yes, cancels nothing
    expect((await client(stack.fulfillment.base, userId, 'member').post(`/orders/${orderId}/cancel`)).body).toEqual({ orderId, cancel: 'requested' });
    upstream.cancelAnswer = undefined;
    upstream.move(providerOrderId, 'In progress', { remains: 20 });
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await queue('?kind=cancel')).items.find((r) => r.orderId === orderId)).toMatchObject({ state: 'failed', open: false, status: 'In progress', error: 'the provider moved the order to In progress instead of canceling it' });
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 1)).toMatchObject({ refundedDeci: 0 });
    // A retry of a cancel the provider can no longer take is refused before calling it.
    const failed = (await queue('?kind=cancel')).items.find((r) => r.orderId === orderId)!;
    expect((await operator().post<ErrorBody>(`/admin/requests/${failed.id}/resolve`, { action: 'retry' })).body.code).toBe('CANCEL_NOT_PENDING');
  });

  it('is refused once the order started, or for products without cancel', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId, providerOrderId } = await accepted(withBoth, userId);
    upstream.move(providerOrderId, 'In progress');
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await m.post<ErrorBody>(`/orders/${orderId}/cancel`)).body.code).toBe('CANCEL_NOT_PENDING');
    const plain = await accepted(withNeither, userId);
    expect((await m.post<ErrorBody>(`/orders/${plain.orderId}/cancel`)).body.code).toBe('CANCEL_NOT_AVAILABLE');
  });

  it('sent right after the order was answered, before fulfillment took it in, is acted on — never answered as an unknown order', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const orderId = await stack.placeOrder(withBoth, link(), 50, userId);
    // At once, as a reseller's script sends them after `add`: the record comes from OrderAccepted a moment later.
    const [refill, cancel] = await Promise.all([m.post<ErrorBody>(`/orders/${orderId}/refill`), m.post<{ orderId: number; cancel: string }>(`/orders/${orderId}/cancel`)]);
    // Refill's own refusal (not completed, not at the provider yet): "not available", as for any pending order.
    expect(refill.status).toBe(409);
    expect(refill.body.code).toMatch(/^REFILL_NOT_(AVAILABLE|COMPLETED)$/);
    expect(cancel.status).toBe(200);
    expect(['canceled', 'requested']).toContain(cancel.body.cancel);
    // Someone else still gets "not found", and an id no order has is not waited for.
    expect((await client(stack.fulfillment.base, 'm-thief', 'member').post<ErrorBody>(`/orders/${orderId + 1_000_000}/cancel`)).body.code).toBe('ORDER_NOT_FOUND');
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 5)).toMatchObject({ refundedDeci: 500 });
    expect(await eventually(() => stack.wallet!.balanceDeci(userId), (b) => b === 100_000)).toBe(100_000);
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await stack.wallet!.balanceDeci(userId)).toBe(100_000);
  });

  it('of a paid order whose record does not come in time is "ask again" (503 ORDER_NOT_READY), nothing done; asked again once it is here, it is canceled', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    // Fulfillment's consumer stopped (a restart, a lagging group): the paid order stays unknown here.
    await stack.fulfillment.paidOrders.current!.stop();
    const orderId = await stack.placeOrder(withBoth, link(), 50, userId);
    const early = await m.post<ErrorBody>(`/orders/${orderId}/cancel`);
    expect([early.status, early.body]).toEqual([503, { code: 'ORDER_NOT_READY', message: '주문을 접수하는 중입니다. 잠시 후 다시 시도해 주세요.' }]);
    // The answer says when to ask again (the BFF passes Retry-After on to members and resellers).
    const raw = await fetch(`${stack.fulfillment.base}/orders/${orderId}/refill`, { method: 'POST', headers: { ...callerHeaders({ to: 'fulfillment', userId, role: 'member' }), 'content-type': 'application/json' }, body: '{}' });
    expect([raw.status, raw.headers.get('retry-after'), ((await raw.json()) as ErrorBody).code]).toEqual([503, '1', 'ORDER_NOT_READY']);
    expect((await client(stack.fulfillment.base, 'm-thief', 'member').post<ErrorBody>(`/orders/${orderId}/cancel`)).body.code).toBe('ORDER_NOT_FOUND');
    expect((await stack.orderOf(orderId)).status).toBe(0);
    await stack.restartFulfillment();
    const asked = await eventually(() => client(stack.fulfillment.base, userId, 'member').post<{ cancel: string }>(`/orders/${orderId}/cancel`), (r) => r.status !== 503);
    expect(asked.status).toBe(200);
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 5)).toMatchObject({ refundedDeci: 500 });
    expect(await eventually(() => stack.wallet!.balanceDeci(userId), (b) => b === 100_000)).toBe(100_000);
  });

  it('that the provider answers "not ready yet, ask again" (its order is a moment old) is kept waiting and sent again by the status sync — not failed, no refund before its Canceled, once', async () => {
    const notReady = 'Order is not ready yet, try again in a few seconds';
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId, providerOrderId } = await accepted(withBoth, userId);
    upstream.cancelAnswer = [{ order: providerOrderId, cancel: { error: notReady } }];
    expect((await m.post(`/orders/${orderId}/cancel`)).body).toEqual({ orderId, cancel: 'requested' });
    const waiting = (await queue('?state=open&kind=cancel')).items.find((r) => r.orderId === orderId)!;
    expect(waiting).toMatchObject({ state: 'waiting', open: true, unclear: false, error: notReady });
    expect((await m.post<ErrorBody>(`/orders/${orderId}/cancel`)).body.code).toBe('CANCEL_ALREADY_REQUESTED');
    // Still not ready at the next cycle: still waiting, no refund.
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await queue('?state=open&kind=cancel')).items.find((r) => r.id === waiting.id)).toMatchObject({ state: 'waiting', attempts: 2 });
    expect((await stack.orderOf(orderId)).status).toBe(0);
    upstream.cancelAnswer = undefined;
    await stack.fulfillment.tasks.statuses.runNow(); // sent again: the provider cancels
    expect((await queue('?state=all&kind=cancel')).items.find((r) => r.id === waiting.id)).toMatchObject({ state: 'forwarded', attempts: 3 });
    await stack.fulfillment.tasks.statuses.runNow(); // its Canceled: the refund
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 5)).toMatchObject({ refundedDeci: 500 });
    expect(await eventually(() => stack.wallet!.balanceDeci(userId), (b) => b === 100_000)).toBe(100_000);
    expect((await queue('?state=all&kind=cancel')).items.find((r) => r.id === waiting.id)).toMatchObject({ state: 'done', open: false });
    expect(actions('cancel').filter((c) => c.fields.orders === String(providerOrderId))).toHaveLength(3);
  });

  it('that the provider keeps answering "not ready" fails for operators after the last attempt: slot freed, no refund, an operator may send it again', async () => {
    const userId = await member();
    const m = client(stack.fulfillment.base, userId, 'member');
    const { orderId, providerOrderId } = await accepted(withBoth, userId);
    upstream.cancelAnswer = [{ order: providerOrderId, cancel: { error: 'Order is not ready yet, try again in a few seconds' } }];
    expect((await m.post(`/orders/${orderId}/cancel`)).body).toEqual({ orderId, cancel: 'requested' });
    const id = (await queue('?state=open&kind=cancel')).items.find((r) => r.orderId === orderId)!.id;
    for (let cycle = 0; cycle < 30; cycle++) await stack.fulfillment.tasks.statuses.runNow();
    const failed = (await queue('?state=failed&kind=cancel')).items.find((r) => r.id === id)!;
    expect(failed).toMatchObject({ state: 'failed', open: false, unclear: false, attempts: 30 });
    expect(failed.error).toMatch(/not ready/);
    expect(actions('cancel').filter((c) => c.fields.orders === String(providerOrderId))).toHaveLength(30);
    expect((await stack.orderOf(orderId)).status).toBe(0);
    upstream.cancelAnswer = undefined;
    expect((await operator().post<RequestBody>(`/admin/requests/${id}/resolve`, { action: 'retry' })).body).toMatchObject({ state: 'forwarded', attempts: 31 });
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 5)).toMatchObject({ refundedDeci: 500 });
  });

  it('shows each product’s refill and cancel flags', async () => {
    const flags = await client(stack.fulfillment.base, 'x', 'member').get<Array<{ productId: number; refill: boolean; cancel: boolean }>>('/products/flags');
    expect(flags.body).toEqual(expect.arrayContaining([{ productId: withBoth, refill: true, cancel: true }, { productId: withNeither, refill: false, cancel: false }]));
  });
});

describe('money', () => {
  it('reconciles across wallet, order and fulfillment after every refill, cancel, forged answer and retry above', async () => {
    const run = () => reconcile({ url: infra.mongo.url, readPreference: 'primary', databases: { wallet: stack.wallet!.database, order: stack.order.store.connection.name, fulfillment: stack.fulfillment.connection.name } });
    // Refunds travel order → wallet through events: wait for the last to land, then read the report.
    const report = await eventually(run, (r) => r.total === 0, 20_000).catch(run);
    expect(report.total, formatReport(report).join('\n')).toBe(0);
    expect(members.length).toBeGreaterThan(5);
  });
});

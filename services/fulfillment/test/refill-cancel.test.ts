import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProvider } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, startInfra, startStack } from './support.ts';

let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;
let providerId: number;
let withBoth: number;
let withNeither: number;

type ErrorBody = { code: string; message: string };
const link = () => `https://instagram.com/p/${randomUUID().slice(0, 8)}`;

async function mapped(service: string): Promise<number> {
  const id = await stack.product();
  const res = await stack.admin.put<{ unitPriceDeci: number }>(`/admin/mappings/${id}`, { mode: 'provider', providerId, providerServiceId: service, rule: { kind: 'markup', percent: 0 } });
  await eventually(() => stack.order.store.product(id), (r) => r?.unitPriceDeci === res.body.unitPriceDeci);
  return id;
}

async function accepted(productId: number, userId: string) {
  const orderId = await stack.placeOrder(productId, link(), 50, userId);
  const f = await eventually(() => stack.admin.get<{ state: string; providerOrderId: string }>(`/admin/forwards/${orderId}`).then((r) => r.body), (b) => b?.state === 'accepted');
  return { orderId, providerOrderId: Number(f.providerOrderId) };
}

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra);
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
  it('forwards a member’s refill of a completed order and reports its status', async () => {
    const member = client(stack.fulfillment.base, 'm-refill', 'member');
    const { orderId, providerOrderId } = await accepted(withBoth, 'm-refill');
    const early = await member.post<ErrorBody>(`/orders/${orderId}/refill`);
    expect([early.status, early.body.code]).toEqual([409, 'REFILL_NOT_COMPLETED']);
    upstream.move(providerOrderId, 'Completed', { remains: 0 });
    await stack.fulfillment.tasks.statuses.runNow();
    await eventually(() => stack.orderOf(orderId), (o) => o.status === 2);
    const asked = await member.post<{ refill: number; status: string }>(`/orders/${orderId}/refill`);
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ orderId, status: 'Pending' });
    expect(upstream.received.filter((r) => r.action === 'refill').map((r) => r.fields.order)).toEqual([String(providerOrderId)]);
    const providerRefill = [...upstream.refills.keys()].at(-1)!;
    upstream.refills.set(providerRefill, 'Completed');
    expect((await member.get(`/refills/${asked.body.refill}`)).body).toEqual({ refill: asked.body.refill, orderId, status: 'Completed' });
    // Someone else's order and refill are not found.
    const other = client(stack.fulfillment.base, 'm-other', 'member');
    expect((await other.post(`/orders/${orderId}/refill`)).status).toBe(404);
    expect((await other.get(`/refills/${asked.body.refill}`)).status).toBe(404);
  });

  it('is refused for products without refill', async () => {
    const { orderId } = await accepted(withNeither, 'm-norefill');
    const res = await client(stack.fulfillment.base, 'm-norefill', 'member').post<ErrorBody>(`/orders/${orderId}/refill`);
    expect([res.status, res.body.code]).toEqual([409, 'REFILL_NOT_AVAILABLE']);
    expect(res.body.message).toMatch(/[가-힣]/);
  });
});

describe('cancel', () => {
  it('of a pending order is forwarded; the full refund follows the provider’s Canceled', async () => {
    const member = client(stack.fulfillment.base, 'm-cancel', 'member');
    const { orderId } = await accepted(withBoth, 'm-cancel');
    expect((await member.post(`/orders/${orderId}/cancel`)).body).toEqual({ orderId, cancel: 'requested' });
    expect((await member.post<ErrorBody>(`/orders/${orderId}/cancel`)).body.code).toBe('CANCEL_ALREADY_REQUESTED');
    expect((await stack.orderOf(orderId)).status).toBe(0); // no money moves before the provider confirms
    await stack.fulfillment.tasks.statuses.runNow();
    expect(await eventually(() => stack.orderOf(orderId), (o) => o.status === 5)).toMatchObject({ refundedDeci: 500 });
  });

  it('is refused once the order started, or for products without cancel', async () => {
    const member = client(stack.fulfillment.base, 'm-late', 'member');
    const { orderId, providerOrderId } = await accepted(withBoth, 'm-late');
    upstream.move(providerOrderId, 'In progress');
    await stack.fulfillment.tasks.statuses.runNow();
    expect((await member.post<ErrorBody>(`/orders/${orderId}/cancel`)).body.code).toBe('CANCEL_NOT_PENDING');
    const plain = await accepted(withNeither, 'm-late');
    expect((await member.post<ErrorBody>(`/orders/${plain.orderId}/cancel`)).body.code).toBe('CANCEL_NOT_AVAILABLE');
  });

  it('shows each product’s refill and cancel flags', async () => {
    const flags = await client(stack.fulfillment.base, 'x', 'member').get<Array<{ productId: number; refill: boolean; cancel: boolean }>>('/products/flags');
    expect(flags.body).toEqual(expect.arrayContaining([{ productId: withBoth, refill: true, cancel: true }, { productId: withNeither, refill: false, cancel: false }]));
  });
});

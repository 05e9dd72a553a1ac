import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditTargetType } from '@smm/contracts';
import { auditRecordsInOutbox } from '@smm/platform';
import { FaultProvider } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, startInfra, startStack } from './support.ts';

/** Issue 12: operators' changes in fulfillment leave exactly one audit record each, never with a key. */
let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra, { providerTimeoutMs: 1000 });
  upstream = new FaultProvider('audit-secret-key-4242');
  upstream.services = [{ service: 11, name: 'Likes', rate: '1000', min: 10, max: 10_000, refill: true, cancel: true }];
  await upstream.start();
}, 120_000);
afterAll(async () => {
  await upstream?.stop();
  await stack?.stop();
  await infra?.stop();
});

const auditOf = (id: number, type: AuditTargetType) => auditRecordsInOutbox(stack.fulfillment.connection, String(id), type);
const actor = { userId: 'admin-1', role: 'admin' };

describe('audit records of fulfillment', () => {
  it('provider: create, edit with a new key (recorded as replaced, never the key), delete', async () => {
    const created = await stack.admin.post<{ id: number }>('/admin/providers', { name: '감사 공급처', url: upstream.url, key: 'first-key-1111', currency: 'KRW', wonDeciPerUnit: 10 });
    const id = created.body.id;
    expect((await stack.admin.patch(`/admin/providers/${id}`, { name: '감사 공급처 2', key: 'second-key-2222' })).status).toBe(200);
    expect((await stack.admin.del(`/admin/providers/${id}`)).status).toBe(204);
    const records = await auditOf(id, 'provider');
    expect(records).toEqual([
      { actor, service: 'fulfillment', action: 'fulfillment.provider.create', target: { type: 'provider', id: String(id) }, before: null, after: { name: '감사 공급처', url: upstream.url, currency: 'KRW', wonDeciPerUnit: 10, lowBalanceThreshold: expect.any(String) } },
      { actor, service: 'fulfillment', action: 'fulfillment.provider.update', target: { type: 'provider', id: String(id) }, before: { name: '감사 공급처' }, after: { name: '감사 공급처 2', keyReplaced: true } },
      expect.objectContaining({ action: 'fulfillment.provider.delete', before: expect.objectContaining({ name: '감사 공급처 2' }), after: null }),
    ]);
    const text = JSON.stringify(records);
    for (const secret of ['first-key-1111', 'second-key-2222', '1111', '2222']) expect(text).not.toContain(secret);
  });

  it('mapping a product, and resolving an order in review (by an admin, by staff)', async () => {
    const p = await stack.admin.post<{ id: number }>('/admin/providers', { name: `p-${upstream.port}`, url: upstream.url, key: upstream.key, currency: 'KRW', wonDeciPerUnit: 10 });
    await stack.admin.post(`/admin/providers/${p.body.id}/import`);
    const productId = await stack.product();
    expect((await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'manual' })).status).toBe(200);
    expect((await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '11', rule: { kind: 'markup', percent: 0 } })).status).toBe(200);
    const mapped = await auditOf(productId, 'product');
    expect(mapped.map((r) => r.action)).toEqual(['fulfillment.mapping.set', 'fulfillment.mapping.set']);
    expect(mapped[0]).toMatchObject({ before: null, after: { mode: 'manual', providerId: null } });
    expect(mapped[1]).toMatchObject({ before: { mode: 'manual', providerId: null }, after: { mode: 'provider', providerId: p.body.id, providerServiceId: '11', unitPriceDeci: 10 } });

    await eventually(() => stack.order.store.product(productId), (r) => r?.unitPriceDeci === 10);
    upstream.addScript = ['timeout'];
    const orderId = await stack.placeOrder(productId, `https://instagram.com/p/${randomUUID().slice(0, 8)}`, 30);
    await eventually(() => stack.admin.get<{ state: string }>(`/admin/forwards/${orderId}`), (r) => r.body?.state === 'review', 30_000);
    expect(await auditOf(orderId, 'order')).toEqual([]);
    expect((await stack.admin.post(`/admin/forwards/${orderId}/review`, { action: 'link', providerOrderId: '9001' })).status).toBe(200);
    expect((await stack.admin.post(`/admin/forwards/${orderId}/review`, { action: 'cancel' })).status).toBe(409);
    expect(await auditOf(orderId, 'order')).toEqual([
      expect.objectContaining({ actor, action: 'fulfillment.review.resolve', before: expect.objectContaining({ state: 'review', providerOrderId: null }), after: expect.objectContaining({ state: 'accepted', providerOrderId: '9001', decision: 'link' }) }),
    ]);

    // Staff settle the queue too (issue 12): the record names them as staff, not as an admin.
    upstream.addScript = ['timeout'];
    const second = await stack.placeOrder(productId, `https://instagram.com/p/${randomUUID().slice(0, 8)}`, 30);
    await eventually(() => stack.admin.get<{ state: string }>(`/admin/forwards/${second}`), (r) => r.body?.state === 'review', 30_000);
    expect((await client(stack.fulfillment.base, 'staff-7', 'staff').post(`/admin/forwards/${second}/review`, { action: 'cancel' })).status).toBe(200);
    expect(await auditOf(second, 'order')).toEqual([
      expect.objectContaining({ actor: { userId: 'staff-7', role: 'staff' }, action: 'fulfillment.review.resolve', before: expect.objectContaining({ state: 'review' }), after: expect.objectContaining({ state: 'failed', decision: 'cancel' }) }),
    ]);
  });
});

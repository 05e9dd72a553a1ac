import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(() => h.fulfillment.reset());

describe('/api/admin/fulfillment', () => {
  it('relays operators’ provider, mapping and review calls to fulfillment, naming the operator', async () => {
    h.fulfillment.on('POST /admin/providers', { status: 201, body: { id: 3, key: '****7777' } });
    h.fulfillment.on('PUT /admin/mappings/12', { body: { productId: 12, mode: 'manual' } });
    h.fulfillment.on('POST /admin/forwards/40/review', { body: { orderId: 40, state: 'queued' } });
    h.fulfillment.on('GET /admin/forwards', { body: [] });
    const token = h.keys.admin();
    const created = await call(h.url, 'POST', '/api/admin/fulfillment/providers', { token, body: { name: 'p', url: 'https://up.example/api/v2', key: 'k' } });
    expect([created.status, created.body]).toEqual([201, { id: 3, key: '****7777' }]);
    expect(h.fulfillment.calls('POST /admin/providers')[0]).toMatchObject({ body: { name: 'p', url: 'https://up.example/api/v2', key: 'k' }, caller: { role: 'admin' } });
    expect((await call(h.url, 'PUT', '/api/admin/fulfillment/mappings/12', { token, body: { mode: 'manual' } })).body).toEqual({ productId: 12, mode: 'manual' });
    expect((await call(h.url, 'POST', '/api/admin/fulfillment/forwards/40/review', { token, body: { action: 'resend' } })).body).toMatchObject({ state: 'queued' });
    await call(h.url, 'GET', '/api/admin/fulfillment/forwards?state=review&limit=20', { token });
    expect(h.fulfillment.calls('GET /admin/forwards')[0]!.query.toString()).toBe('state=review&limit=20');
  });

  it('refuses members, bad ids and bad filters before reaching fulfillment', async () => {
    const member = await call(h.url, 'GET', '/api/admin/fulfillment/providers', { token: h.keys.member() });
    expect(member.status).toBe(403);
    expect((await call(h.url, 'GET', '/api/admin/fulfillment/providers/abc', { token: h.keys.admin() })).status).toBe(404);
    const badState = await call<{ code: string }>(h.url, 'GET', '/api/admin/fulfillment/forwards?state=lost', { token: h.keys.admin() });
    expect([badState.status, badState.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await call(h.url, 'POST', '/api/admin/fulfillment/sync/everything', { token: h.keys.admin() })).status).toBe(404);
    expect(h.fulfillment.requests).toEqual([]);
  });

  it('passes fulfillment’s Korean refusals through as they are', async () => {
    h.fulfillment.on('PUT /admin/mappings/5', { status: 400, body: { code: 'BELOW_COST', message: '판매 단가(2원)가 공급처 원가(3원)보다 낮습니다.' } });
    const res = await call(h.url, 'PUT', '/api/admin/fulfillment/mappings/5', { token: h.keys.admin(), body: { mode: 'provider' } });
    expect([res.status, res.body]).toEqual([400, { code: 'BELOW_COST', message: '판매 단가(2원)가 공급처 원가(3원)보다 낮습니다.' }]);
  });
});

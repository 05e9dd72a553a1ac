import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';
import { orderViewBody } from './support/service-bodies.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A port nothing listens on: connections to it are refused, as to a stopped service. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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

  it('lets staff list and settle the review queue (issue 12), naming them as staff', async () => {
    h.fulfillment.on('GET /admin/forwards', { body: [{ orderId: 41, state: 'review' }] });
    h.fulfillment.on('GET /admin/forwards/41', { body: { orderId: 41, state: 'review' } });
    h.fulfillment.on('POST /admin/forwards/41/review', { body: { orderId: 41, state: 'accepted', providerOrderId: '9001' } });
    const token = h.keys.staff();
    const queue = await call(h.url, 'GET', '/api/admin/fulfillment/forwards?state=review&limit=200', { token });
    expect([queue.status, queue.body]).toEqual([200, [{ orderId: 41, state: 'review' }]]);
    expect((await call(h.url, 'GET', '/api/admin/fulfillment/forwards/41', { token })).body).toEqual({ orderId: 41, state: 'review' });
    const linked = await call(h.url, 'POST', '/api/admin/fulfillment/forwards/41/review', { token, body: { action: 'link', providerOrderId: '9001' } });
    expect([linked.status, linked.body]).toEqual([200, { orderId: 41, state: 'accepted', providerOrderId: '9001' }]);
    expect(h.fulfillment.calls('GET /admin/forwards')[0]!.query.toString()).toBe('state=review&limit=200');
    expect(h.fulfillment.calls('POST /admin/forwards/41/review')[0]).toMatchObject({ body: { action: 'link', providerOrderId: '9001' }, caller: { userId: 'staff-1', role: 'staff' } });
  });

  it('refuses staff every provider, mapping, notice and sync route before reaching fulfillment', async () => {
    const token = h.keys.staff();
    const refused: Array<[string, string]> = [
      ['GET', '/providers'],
      ['POST', '/providers'],
      ['GET', '/providers/3'],
      ['PATCH', '/providers/3'],
      ['DELETE', '/providers/3'],
      ['POST', '/providers/3/check'],
      ['POST', '/providers/3/import'],
      ['GET', '/providers/3/services'],
      ['GET', '/mappings'],
      ['PUT', '/mappings/12'],
      ['DELETE', '/mappings/12'],
      ['GET', '/notices'],
      ['POST', '/notices/read'],
      ['POST', '/sync/balances'],
    ];
    for (const [method, path] of refused) {
      const res = await call(h.url, method, `/api/admin/fulfillment${path}`, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect([res.status, res.body], `${method} ${path}`).toEqual([403, { code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' }]);
    }
    const member = await call(h.url, 'GET', '/api/admin/fulfillment/forwards?state=review', { token: h.keys.member() });
    expect(member.status).toBe(403);
    expect(h.fulfillment.requests).toEqual([]);
  });

  it('shows staff the review and failed counts on the dashboard, but not provider balances or notices', async () => {
    h.wallet.on('GET /admin/dashboard', { body: { days: [], pendingTopUps: 2 } });
    h.order.on('GET /admin/dashboard', { body: { byStatus: {} } });
    h.fulfillment.on('GET /admin/forwards', (req) => ({ body: req.query.get('state') === 'review' ? [{ orderId: 1 }, { orderId: 2 }] : [{ orderId: 3 }] }));
    h.fulfillment.on('GET /admin/providers', { body: [{ id: 1, name: 'p', currency: 'KRW', balance: '10', balanceLow: false, lastError: null, url: 'https://x' }] });
    h.fulfillment.on('GET /admin/notices', { body: { unread: 4, items: [] } });
    const staff = await call<{ fulfillment: unknown; deadLetters: unknown }>(h.url, 'GET', '/api/admin/dashboard', { token: h.keys.staff() });
    expect(staff.status).toBe(200);
    expect(staff.body.fulfillment).toEqual({ review: 2, failed: 1, notices: null, providers: null });
    expect(staff.body.deadLetters).toBeNull();
    expect([...h.fulfillment.calls('GET /admin/providers'), ...h.fulfillment.calls('GET /admin/notices')]).toEqual([]);
    const admin = await call<{ fulfillment: unknown }>(h.url, 'GET', '/api/admin/dashboard', { token: h.keys.admin() });
    expect(admin.body.fulfillment).toEqual({ review: 2, failed: 1, notices: 4, providers: [{ id: 1, name: 'p', currency: 'KRW', balance: '10', balanceLow: false, lastError: null }] });
  });

  it('passes fulfillment’s Korean refusals through as they are', async () => {
    h.fulfillment.on('PUT /admin/mappings/5', { status: 400, body: { code: 'BELOW_COST', message: '판매 단가(2원)가 공급처 원가(3원)보다 낮습니다.' } });
    const res = await call(h.url, 'PUT', '/api/admin/fulfillment/mappings/5', { token: h.keys.admin(), body: { mode: 'provider' } });
    expect([res.status, res.body]).toEqual([400, { code: 'BELOW_COST', message: '판매 단가(2원)가 공급처 원가(3원)보다 낮습니다.' }]);
  });

  it('relays the refill and cancel request queue to admin and staff, checking ids and filters first (issue 41)', async () => {
    h.fulfillment.on('GET /admin/requests', { body: { items: [], counts: { failed: 0, open: 0 }, oldestFailedAt: null } });
    h.fulfillment.on('POST /admin/requests/refill-12/resolve', { body: { id: 'refill-12', state: 'forwarded' } });
    const staff = h.keys.staff();
    expect((await call(h.url, 'GET', '/api/admin/fulfillment/requests?state=failed&kind=cancel&limit=20', { token: staff })).status).toBe(200);
    expect(h.fulfillment.calls('GET /admin/requests')[0]!.query.toString()).toBe('state=failed&kind=cancel&limit=20');
    const retried = await call(h.url, 'POST', '/api/admin/fulfillment/requests/refill-12/resolve', { token: staff, body: { action: 'retry' } });
    expect([retried.status, retried.body]).toEqual([200, { id: 'refill-12', state: 'forwarded' }]);
    expect(h.fulfillment.calls('POST /admin/requests/refill-12/resolve')[0]).toMatchObject({ body: { action: 'retry' }, caller: { role: 'staff' } });
    const before = h.fulfillment.requests.length;
    expect((await call(h.url, 'GET', '/api/admin/fulfillment/requests?state=lost', { token: staff })).status).toBe(400);
    expect((await call(h.url, 'POST', '/api/admin/fulfillment/requests/drop-1/resolve', { token: staff, body: {} })).status).toBe(404);
    expect((await call(h.url, 'GET', '/api/admin/fulfillment/requests', { token: h.keys.member() })).status).toBe(403);
    expect(h.fulfillment.requests.length).toBe(before);
  });
});

describe('the orders screen while fulfillment is down', () => {
  it('still lists the orders, marked forwardingUnavailable; the provider filter answers an empty page saying so, never a 503', async () => {
    const down = await startHarness({ fulfillmentUrl: `http://127.0.0.1:${await closedPort()}` });
    try {
      down.order.on('GET /admin/orders/search', { body: { items: [orderViewBody({ id: 7 })], page: 1, pageSize: 20, hasNext: false } });
      down.auth.on('POST /admin/members/login-ids', { body: { items: [{ userId: 'member-1', loginId: 'kim' }] } });
      const token = down.keys.staff();
      const list = await call<{ items: Array<{ id: number; loginId: string; forwarding: unknown }>; forwardingUnavailable?: boolean }>(down.url, 'GET', '/api/admin/orders/search', { token });
      expect(list.status).toBe(200);
      expect(list.body.items).toMatchObject([{ id: 7, loginId: 'kim', forwarding: null }]);
      expect(list.body.forwardingUnavailable).toBe(true);
      const byProvider = await call(down.url, 'GET', '/api/admin/orders/search?providerId=3', { token });
      expect([byProvider.status, byProvider.body]).toEqual([200, { items: [], page: 1, pageSize: 20, hasNext: false, forwardingUnavailable: true }]);
    } finally {
      await down.stop();
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(() => h.wallet.reset());

const run = {
  startedAt: '2026-12-06T04:04:05.000Z',
  finishedAt: '2026-12-06T04:04:06.000Z',
  durationMs: 812,
  total: 1,
  byRule: { 'debit-without-order': 1 },
  discrepancies: [{ rule: 'debit-without-order', detail: 'debit order-99 of 1000 deci-won names no order', userId: 'u1', reference: 'order-99' }],
  counts: { ledgerEntries: 3, orders: 0 },
  databases: { wallet: 'wallet', order: 'order', fulfillment: 'fulfillment', auth: 'auth' },
  ranBy: 'staff-1',
};

describe('/api/admin/reconcile', () => {
  it("shows operators the wallet's latest run and lets staff run it, naming them to the wallet", async () => {
    h.wallet.on('GET /admin/reconcile/latest', { body: { latest: run, running: null } });
    h.wallet.on('POST /admin/reconcile', { body: { latest: run, running: null } });
    const latest = await call(h.url, 'GET', '/api/admin/reconcile', { token: h.keys.admin() });
    expect([latest.status, latest.body]).toEqual([200, { latest: run, running: null }]);
    const ran = await call(h.url, 'POST', '/api/admin/reconcile', { token: h.keys.staff(), body: {} });
    expect([ran.status, ran.body]).toEqual([200, { latest: run, running: null }]);
    expect(h.wallet.calls('POST /admin/reconcile')[0]).toMatchObject({ caller: { role: 'staff' } });
  });

  it('refuses members before reaching the wallet, and passes on what the wallet could not do', async () => {
    expect((await call(h.url, 'GET', '/api/admin/reconcile', { token: h.keys.member() })).status).toBe(403);
    expect((await call(h.url, 'POST', '/api/admin/reconcile', { token: h.keys.member(), body: {} })).status).toBe(403);
    expect((await call(h.url, 'POST', '/api/admin/reconcile', { body: {} })).status).toBe(401);
    expect(h.wallet.requests).toEqual([]);
    h.wallet.on('POST /admin/reconcile', { status: 503, body: { code: 'RECONCILE_FAILED', message: '정합성 점검을 실행하지 못했습니다. 잠시 후 다시 시도해 주세요.' } });
    const refused = await call(h.url, 'POST', '/api/admin/reconcile', { token: h.keys.admin(), body: {} });
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([503, 'RECONCILE_FAILED']);
    h.wallet.on('GET /admin/reconcile/latest', { body: { latest: { total: 'many' }, running: null } });
    expect((await call(h.url, 'GET', '/api/admin/reconcile', { token: h.keys.admin() })).status).toBe(502);
  });
});

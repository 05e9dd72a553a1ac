import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, client, replicated, startHarness, startInfra } from './support.ts';

/** The console's dashboard (issue 12): paid orders per status; refused payments are not orders. */
let infra: Awaited<ReturnType<typeof startInfra>>;
let h: Harness;

beforeAll(async () => {
  infra = await startInfra();
  h = await startHarness(infra);
  await h.stand.product({ serviceId: 1, text: '틱톡 좋아요', platformId: 3, min: 10, max: 1000, unitPriceDeci: 25, enableAuto: true });
  await replicated(h, 1);
});
afterAll(async () => {
  await h?.stop();
  await infra?.stop();
});

const counts = async () => (await client(h.base, 'staff-1', 'staff').get<{ byStatus: Record<string, number> }>('/admin/dashboard')).body.byStatus;

describe('orders by status', () => {
  it('counts paid orders per status as operators move them, and leaves refused payments out', async () => {
    expect(await counts()).toEqual({ 0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 });
    const userId = `m-${randomUUID().slice(0, 8)}`;
    h.stand.balances.set(userId, 1_000_000);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const placed = await client(h.base, userId).post<{ order: { id: number } }>('/orders', { serviceId: 1, link: 'creator', amount: 10 });
      expect(placed.status).toBe(201);
      ids.push(placed.body.order.id);
    }
    expect((await client(h.base, `poor-${randomUUID().slice(0, 6)}`).post('/orders', { serviceId: 1, link: 'x', amount: 10 })).status).toBe(402);
    expect((await client(h.base, 'op-1', 'admin').patch(`/admin/orders/${ids[0]}`, { status: 1 })).status).toBe(200);
    expect(await counts()).toEqual({ 0: 2, 1: 1, 2: 0, 3: 0, 4: 0, 5: 0 });
  });

  it('is for operators only', async () => {
    expect((await client(h.base, 'm-1').get('/admin/dashboard')).status).toBe(403);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { client, orderSuite } from './support.ts';

/** The console's dashboard (issue 12): paid orders per status; refused payments are not orders. */
const suite = orderSuite();

const counts = async () => (await client(suite.h.base, 'staff-1', 'staff').get<{ byStatus: Record<string, number> }>('/admin/dashboard')).body.byStatus;

describe('orders by status', () => {
  it('counts paid orders per status as operators move them, and leaves refused payments out', async () => {
    expect(await counts()).toEqual({ 0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 });
    const userId = `m-${randomUUID().slice(0, 8)}`;
    suite.h.stand.balances.set(userId, 1_000_000);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const placed = await client(suite.h.base, userId).post<{ order: { id: number } }>('/orders', { serviceId: 1, link: 'creator', amount: 10 });
      expect(placed.status).toBe(201);
      ids.push(placed.body.order.id);
    }
    expect((await client(suite.h.base, `poor-${randomUUID().slice(0, 6)}`).post('/orders', { serviceId: 1, link: 'x', amount: 10 })).status).toBe(402);
    expect((await client(suite.h.base, 'op-1', 'admin').patch(`/admin/orders/${ids[0]}`, { status: 1 })).status).toBe(200);
    expect(await counts()).toEqual({ 0: 2, 1: 1, 2: 0, 3: 0, 4: 0, 5: 0 });
  });

  it('is for operators only', async () => {
    expect((await client(suite.h.base, 'm-1').get('/admin/dashboard')).status).toBe(403);
  });
});

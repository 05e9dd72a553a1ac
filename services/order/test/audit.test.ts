import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditRecordsInOutbox } from '@smm/platform';
import { client, orderSuite } from './support.ts';

/** Issue 12: an operator's change of an order leaves exactly one audit record, written with it. */
const suite = orderSuite();

async function paidOrder() {
  const userId = `m-${randomUUID().slice(0, 8)}`;
  suite.h.stand.balances.set(userId, 1_000_000);
  const res = await client(suite.h.base, userId).post<{ order: { id: number } }>('/orders', { serviceId: 1, link: 'creator', amount: 100 });
  expect(res.status).toBe(201);
  return res.body.order.id;
}
const auditOf = (id: number) => auditRecordsInOutbox(suite.h.order.store.connection, String(id));

describe('audit records of order', () => {
  it('a status change records the changed fields only; setting the start count alone is its own action; a refused change records nothing', async () => {
    const id = await paidOrder();
    const staff = client(suite.h.base, 'staff-9', 'staff');
    expect((await staff.patch(`/admin/orders/${id}`, { status: 1, startCount: 1200 })).status).toBe(200);
    expect((await staff.patch(`/admin/orders/${id}`, { remains: 40 })).status).toBe(200);
    expect((await staff.patch(`/admin/orders/${id}`, { status: 3, remains: 101 })).status).toBe(400);
    const records = await auditOf(id);
    expect(records).toEqual([
      { actor: { userId: 'staff-9', role: 'staff' }, service: 'order', action: 'order.status.change', target: { type: 'order', id: String(id) }, before: { status: 0, startCount: null }, after: { status: 1, startCount: 1200 } },
      { actor: { userId: 'staff-9', role: 'staff' }, service: 'order', action: 'order.progress.set', target: { type: 'order', id: String(id) }, before: { remains: 100 }, after: { remains: 40 } },
    ]);
  });

  it('a cancel by an admin keeps the reason', async () => {
    const id = await paidOrder();
    expect((await client(suite.h.base, 'admin-9', 'admin').patch(`/admin/orders/${id}`, { status: 5, reason: '링크 오류' })).status).toBe(200);
    expect(await auditOf(id)).toEqual([
      expect.objectContaining({ actor: { userId: 'admin-9', role: 'admin' }, action: 'order.status.change', before: { status: 0, statusReason: null }, after: { status: 5, statusReason: '링크 오류' } }),
    ]);
  });
});

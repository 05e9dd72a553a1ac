import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditRecordsInOutbox } from '@smm/platform';
import { client, orderSuite } from './support.ts';

/**
 * Issue 39 through order's own HTTP route (the one the console's PATCH and its bulk change both
 * reach): staff move orders along but a change that refunds is an admin's, no operator changes
 * their own order, and a refund's audit record names the member it benefits.
 */
const suite = orderSuite();

type View = { id: number; status: number | null; remains: number };

async function paidOrder(userId = `m-${randomUUID().slice(0, 8)}`) {
  suite.h.stand.balances.set(userId, (suite.h.stand.balances.get(userId) ?? 0) + 1_000_000);
  const res = await client(suite.h.base, userId).post<{ order: View }>('/orders', { serviceId: 1, link: 'creator', amount: 100 });
  expect(res.status).toBe(201);
  return { userId, id: res.body.order.id };
}
const statusOf = async (id: number, userId: string) => (await client(suite.h.base, userId).get<View>(`/orders/${id}`)).body.status;

describe('order changes by operators (issue 39)', () => {
  it('staff may move an order along but not cancel or partially complete it (refunds): 403, nothing changed', async () => {
    const { userId, id } = await paidOrder();
    const staff = client(suite.h.base, 'staff-39', 'staff');
    expect((await staff.patch(`/admin/orders/${id}`, { status: 1 })).status).toBe(200);
    for (const patch of [{ status: 5 }, { status: 3, remains: 40 }]) {
      expect(await staff.patch(`/admin/orders/${id}`, patch)).toEqual({
        status: 403,
        body: { code: 'STAFF_REFUND_ADMIN_ONLY', message: '환불이 따르는 변경(부분 완료, 취소)은 관리자만 할 수 있습니다.' },
      });
    }
    expect(await statusOf(id, userId)).toBe(1);
    expect(suite.h.stand.of(id, 'RefundRequested')).toEqual([]);
    const admin = client(suite.h.base, 'admin-39', 'admin');
    expect((await admin.patch(`/admin/orders/${id}`, { status: 5 })).status).toBe(200);
    const records = await auditRecordsInOutbox(suite.h.order.store.connection, String(id));
    expect(records.at(-1)).toMatchObject({ action: 'order.status.change', after: { status: 5 }, beneficiaryId: userId });
    expect(records[0]!.beneficiaryId).toBeUndefined(); // moving it along refunded nothing
  });

  it('no operator changes their own order, admins included', async () => {
    const { userId, id } = await paidOrder(`op-${randomUUID().slice(0, 8)}`);
    for (const role of ['admin', 'staff'] as const) {
      expect(await client(suite.h.base, userId, role).patch(`/admin/orders/${id}`, { status: 5 })).toEqual({
        status: 403,
        body: { code: 'SELF_ACTION', message: '본인 계정의 주문은 직접 변경할 수 없습니다. 다른 운영자에게 요청해 주세요.' },
      });
    }
    expect(await statusOf(id, userId)).toBe(0);
  });
});

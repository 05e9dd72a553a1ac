import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, asAdmin } from './support/client.ts';
import { type Member, member, order, orderServiceUp, pointDeciOf, product, requestTopUp } from './support/money.ts';

/**
 * Issue 39 through the BFF against the running services: no operator acts on their own account,
 * one rule for staff order changes whichever route they take, money actions name their
 * beneficiary in the audit log, and a member has one open top-up request.
 */
type ErrorBody = { code: string; message: string };
let admin: string;
let staffMember: Member;
let staff: string;

beforeAll(async () => {
  admin = await asAdmin();
  staffMember = await member();
  expect((await api('PUT', `/admin/members/${staffMember.userId}/role`, { token: admin, body: { role: 'staff' } })).status).toBe(200);
  staff = (await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: staffMember.id, password: staffMember.password } })).body.accessToken;
});

describe('no operator acts on their own account', () => {
  it("a staff member's own top-up request cannot be approved by them, nor their own restriction changed", async () => {
    const asked = await requestTopUp({ ...staffMember, token: staff }, { name: '스태프본인', point: 50_000, feeType: 'none' });
    expect(asked.status).toBe(201);
    const approve = await api<ErrorBody>('POST', `/admin/top-ups/${String(asked.body.id)}/approve`, { token: staff });
    expect(approve).toMatchObject({ status: 403, body: { code: 'SELF_ACTION', message: expect.stringContaining('본인 계정') } });
    const restrict = await api<ErrorBody>('PUT', `/admin/members/${staffMember.userId}/restriction`, { token: staff, body: { level: 'warning', reason: '본인' } });
    expect(restrict).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    // Promotion ended the member's own sessions (a token whose role no longer matches is refused).
    expect(await pointDeciOf({ ...staffMember, token: staff })).toBe(0);
    // Another operator may: the admin rejects it, and the audit log names whom it concerned.
    expect((await api('POST', `/admin/top-ups/${String(asked.body.id)}/reject`, { token: admin, body: { reason: '테스트' } })).status).toBe(200);
    const log = await eventually(
      () => api<{ items: Array<{ action: string; beneficiary: { loginId: string | null } | null }> }>('GET', `/admin/audit?beneficiary=${staffMember.id}`, { token: admin }),
      (res) => res.body.items.some((i) => i.action === 'wallet.topup.reject'),
      20_000,
    );
    expect(log.body.items.find((i) => i.action === 'wallet.topup.reject')!.beneficiary).toMatchObject({ loginId: staffMember.id });
  });
});

describe.skipIf(!orderServiceUp())('one rule for staff order changes', () => {
  it('staff cannot cancel with a full refund, neither by PATCH nor by the bulk change; both may move an order along', async () => {
    const m = await member(20_000);
    const p = await product({ min: 10, max: 1000, point: 10 }, m);
    const placed = (await order(m, { serviceId: p.id, link: 'https://x.example/duties', amount: 100 })).body.order as { id: number };
    const before = await pointDeciOf(m);
    const patch = await api<ErrorBody>('PATCH', `/admin/orders/${placed.id}`, { token: staff, body: { status: 5 } });
    expect(patch).toMatchObject({ status: 403, body: { code: 'STAFF_REFUND_ADMIN_ONLY', message: '환불이 따르는 변경(부분 완료, 취소)은 관리자만 할 수 있습니다.' } });
    const bulk = await api<{ results: Array<{ id: number; ok: boolean; code?: string }> }>('POST', '/admin/orders/bulk', { token: staff, body: { ids: [placed.id], status: 5 } });
    expect(bulk.body.results).toEqual([expect.objectContaining({ id: placed.id, ok: false, code: 'STAFF_REFUND_ADMIN_ONLY' })]);
    expect((await api('PATCH', `/admin/orders/${placed.id}`, { token: staff, body: { status: 1 } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await pointDeciOf(m)).toBe(before);
  });
});

describe('decoy top-up requests', () => {
  it('a member with an open request is told in Korean to finish it first', async () => {
    const m = await member();
    expect((await requestTopUp(m, { name: '김민수', point: 10_000, feeType: 'none' })).status).toBe(201);
    expect(await requestTopUp(m, { name: '이영희', point: 30_000, feeType: 'none' })).toMatchObject({
      status: 409,
      body: { code: 'TOPUP_OPEN_LIMIT', message: '입금 대기 중인 충전 신청이 이미 1건 있습니다. 입금을 마치시거나 신청이 만료된 뒤 다시 신청해 주세요.' },
    });
  });
});

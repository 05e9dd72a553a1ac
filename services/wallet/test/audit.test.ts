import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { auditRecordsInOutbox } from '@smm/platform';
import { client, walletSuite } from './support.ts';

/** Issue 12: every operator action in wallet leaves exactly one audit record, written with the change. */
const suite = walletSuite();

const auditOf = (targetId: string) => auditRecordsInOutbox(suite.wallet.store.connection, targetId);

async function newMember() {
  const userId = await suite.member();
  return { userId, http: client(suite.wallet.base, userId) };
}
const staff = () => client(suite.wallet.base, 'staff-7', 'staff');
const admin = () => client(suite.wallet.base, 'admin-7', 'admin');

describe('audit records of wallet', () => {
  it('approval and receipt marking: one record each with the status and mark before and after; refusals record nothing', async () => {
    const m = await newMember();
    const asked = await m.http.post<{ id: number }>('/top-ups', { name: '감사입금', point: 10_000, feeType: 'cash', feeValue: { phone: '01012345678' } });
    const id = String(asked.body.id);
    expect((await staff().post(`/admin/top-ups/${id}/receipt-issued`)).status).toBe(409);
    expect((await staff().post(`/admin/top-ups/${id}/approve`)).status).toBe(200);
    expect((await staff().post(`/admin/top-ups/${id}/approve`)).status).toBe(409);
    expect((await staff().post(`/admin/top-ups/${id}/receipt-issued`)).status).toBe(200);
    const records = await auditOf(id);
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual({
      actor: { userId: 'staff-7', role: 'staff' },
      service: 'wallet',
      action: 'wallet.topup.approve',
      target: { type: 'topup', id },
      before: { status: 0 },
      after: { status: 1 },
      beneficiaryId: m.userId,
    });
    expect(records[1]).toMatchObject({ action: 'wallet.receipt.issue', beneficiaryId: m.userId, before: { receiptIssuedAt: null }, after: { receiptIssuedAt: expect.stringMatching(/^\d{4}-/) } });
  });

  it('a rejection keeps its reason; a member (not an operator) leaves no record of their own request', async () => {
    const m = await newMember();
    const asked = await m.http.post<{ id: number }>('/top-ups', { name: '감사거절', point: 5_000, feeType: 'none', feeValue: null });
    const id = String(asked.body.id);
    expect(await auditOf(id)).toEqual([]);
    expect((await admin().post(`/admin/top-ups/${id}/reject`, { reason: '입금자명 불일치' })).status).toBe(200);
    expect(await auditOf(id)).toEqual([expect.objectContaining({ actor: { userId: 'admin-7', role: 'admin' }, action: 'wallet.topup.reject', before: { status: 0 }, after: { status: 2, reason: '입금자명 불일치' } })]);
  });

  it('a deposit entered by hand and attached to a member: two records; an adjustment: the balance before and after with the reason', async () => {
    const m = await newMember();
    const entered = await staff().post<{ id: string; status: string }>('/admin/deposits', { depositorName: `감사${randomUUID().slice(0, 4)}`, amount: 12_345 });
    expect(entered.body.status).toBe('unmatched');
    expect((await staff().post(`/admin/deposits/${entered.body.id}/attach`, { userId: m.userId })).status).toBe(200);
    const records = await auditOf(entered.body.id);
    expect(records.map((r) => r.action)).toEqual(['wallet.deposit.enter', 'wallet.deposit.attach']);
    expect(records[0]).toMatchObject({ before: null, after: { amountDeci: 123_450, status: 'unmatched', topUpId: null, userId: null } });
    expect(records[1]).toMatchObject({ before: { status: 'unmatched', topUpId: null, userId: null }, after: { status: 'attached', userId: m.userId }, beneficiaryId: m.userId });
    expect(records[0]!.beneficiaryId).toBeUndefined(); // entered unmatched: it benefits no one yet

    expect((await admin().post(`/admin/accounts/${m.userId}/adjustments`, { amount: 100, reason: '보상' })).status).toBe(201);
    expect((await admin().post(`/admin/accounts/${m.userId}/adjustments`, { amount: -1_000_000, reason: '회수' })).status).toBe(409);
    expect(await auditOf(m.userId)).toEqual([
      expect.objectContaining({ action: 'wallet.balance.adjust', target: { type: 'member', id: m.userId }, before: { balanceDeci: 123_450 }, after: { balanceDeci: 124_450, reason: '보상' }, beneficiaryId: m.userId }),
    ]);
  });
});

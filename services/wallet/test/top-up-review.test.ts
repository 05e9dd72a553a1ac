import { describe, expect, it } from 'vitest';

import { messages } from '../src/domain/messages.ts';
import { balanceOf, client, walletSuite } from './support.ts';

/** Operators' review of top-ups (issue 12): staff run the queue, rejections carry a reason, receipts are marked issued once. */
const suite = walletSuite();

type AdminTopUp = { id: number; status: number; rejectReason: string | null; receiptIssuedAt: string | null; receiptType: string };

async function newMember() {
  const userId = await suite.member();
  return { userId, http: client(suite.wallet.base, userId) };
}

const staff = () => client(suite.wallet.base, 'staff-1', 'staff');
const cashReceipt = { name: '김입금', point: 10_000, feeType: 'cash', feeValue: { phone: '01012345678' } };

describe('top-up review by operators', () => {
  it('staff approve a request: the balance moves once', async () => {
    const m = await newMember();
    const asked = await m.http.post<{ id: number }>('/top-ups', cashReceipt);
    const approved = await staff().post<AdminTopUp>(`/admin/top-ups/${asked.body.id}/approve`);
    expect(approved).toMatchObject({ status: 200, body: { status: 1 } });
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(100_000);
    expect((await staff().post(`/admin/top-ups/${asked.body.id}/approve`)).status).toBe(409);
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(100_000);
  });

  it('a rejection keeps its reason; a reason over 200 characters is refused and changes nothing', async () => {
    const m = await newMember();
    const asked = await m.http.post<{ id: number }>('/top-ups', { ...cashReceipt, name: '이입금' });
    const tooLong = await staff().post(`/admin/top-ups/${asked.body.id}/reject`, { reason: '가'.repeat(201) });
    expect(tooLong).toMatchObject({ status: 400, body: { code: 'REASON_TOO_LONG', message: messages.rejectReasonTooLong } });
    const rejected = await staff().post<AdminTopUp>(`/admin/top-ups/${asked.body.id}/reject`, { reason: '  입금 확인 불가  ' });
    expect(rejected).toMatchObject({ status: 200, body: { status: 2, rejectReason: '입금 확인 불가' } });
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(0);
  });

  it('marks the receipt of an approved request issued exactly once, and never for a pending one or one without receipt', async () => {
    const m = await newMember();
    const asked = await m.http.post<{ id: number }>('/top-ups', { ...cashReceipt, name: '박입금' });
    expect(await staff().post(`/admin/top-ups/${asked.body.id}/receipt-issued`)).toMatchObject({ status: 409, body: { code: 'RECEIPT_NOT_ISSUABLE' } });
    await staff().post(`/admin/top-ups/${asked.body.id}/approve`);
    const marked = await staff().post<AdminTopUp>(`/admin/top-ups/${asked.body.id}/receipt-issued`);
    expect(marked.status).toBe(200);
    expect(Date.parse(marked.body.receiptIssuedAt ?? '')).toBeGreaterThan(0);
    expect((await staff().post(`/admin/top-ups/${asked.body.id}/receipt-issued`)).status).toBe(409);

    const plain = await m.http.post<{ id: number }>('/top-ups', { name: '박입금', point: 5000, feeType: 'none', feeValue: null });
    await staff().post(`/admin/top-ups/${plain.body.id}/approve`);
    expect((await staff().post(`/admin/top-ups/${plain.body.id}/receipt-issued`)).status).toBe(409);
    expect((await staff().post('/admin/top-ups/999999/receipt-issued')).status).toBe(404);
  });

  it('members are refused (403)', async () => {
    const m = await newMember();
    const asked = await m.http.post<{ id: number }>('/top-ups', { ...cashReceipt, name: '최입금' });
    expect((await m.http.post(`/admin/top-ups/${asked.body.id}/approve`)).status).toBe(403);
    expect((await m.http.post(`/admin/top-ups/${asked.body.id}/receipt-issued`)).status).toBe(403);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { checkLedger } from '../src/ledger-check.ts';
import { balanceOf, bankNotice, client, eventually, walletSuite } from './support.ts';

/**
 * Separation of duties (issue 39), through the wallet's own HTTP routes: no operator approves,
 * rejects, attaches or adjusts for their own account, and staff approve only up to
 * STAFF_APPROVAL_LIMIT_WON (1,000,000 won unless the admin sets it). Each refusal is a 403 with a
 * Korean message and changes nothing.
 */
const suite = walletSuite();

type TopUp = { id: number; status: number };
type Deposit = { id: string; status: string; userId: string | null };
type ErrorBody = { code: string; message: string };

/** A member who is also an operator: the credential names them with an operator's role. */
async function insider(role: 'staff' | 'admin') {
  const userId = await suite.member();
  return { userId, asMember: client(suite.wallet.base, userId), asOperator: client(suite.wallet.base, userId, role) };
}
const otherStaff = () => client(suite.wallet.base, 'staff-other', 'staff');
const otherAdmin = () => client(suite.wallet.base, 'admin-other', 'admin');
const statusOf = async (userId: string, id: number) =>
  (await otherAdmin().get<{ items: TopUp[] }>(`/admin/top-ups?userId=${userId}&pageSize=100`)).body.items.find((t) => t.id === id)?.status;
const notify = async (depositorName: string, amount: number) => (await bankNotice<Deposit>(suite.wallet.base, { transactionId: `TX-${randomUUID()}`, depositorName, amount })).body;

describe('no operator acts on their own account', () => {
  it('a staff member cannot approve or reject their own 5,000,000-won request; an admin approves it', async () => {
    const me = await insider('staff');
    const asked = await me.asMember.post<TopUp>('/top-ups', { name: '내부자', point: 5_000_000, feeType: 'none', feeValue: null });
    expect(asked.status).toBe(201);
    for (const decision of ['approve', 'reject'] as const) {
      const refused = await me.asOperator.post<ErrorBody>(`/admin/top-ups/${asked.body.id}/${decision}`, { reason: '본인' });
      expect(refused).toMatchObject({ status: 403, body: { code: 'SELF_ACTION', message: expect.stringContaining('본인 계정') } });
    }
    expect(await statusOf(me.userId, asked.body.id)).toBe(0);
    expect(await balanceOf(suite.wallet.base, me.userId)).toBe(0);
    // Another staff member is over the limit; an admin may.
    expect(await otherStaff().post<ErrorBody>(`/admin/top-ups/${asked.body.id}/approve`)).toMatchObject({
      status: 403,
      body: { code: 'STAFF_LIMIT', message: '스태프 승인 한도 1,000,000원을 넘는 금액입니다. 관리자가 처리해야 합니다.' },
    });
    expect((await otherAdmin().post(`/admin/top-ups/${asked.body.id}/approve`)).status).toBe(200);
    expect(await balanceOf(suite.wallet.base, me.userId)).toBe(50_000_000);
  });

  it('an admin cannot approve their own request either', async () => {
    const me = await insider('admin');
    const asked = await me.asMember.post<TopUp>('/top-ups', { name: '관리자본인', point: 10_000, feeType: 'none', feeValue: null });
    expect(await me.asOperator.post(`/admin/top-ups/${asked.body.id}/approve`)).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    expect(await statusOf(me.userId, asked.body.id)).toBe(0);
  });

  it("a customer's unmatched 70,000-won deposit cannot be attached to the operator's own account or own request", async () => {
    const me = await insider('staff');
    const deposit = await notify(`고객${randomUUID().slice(0, 4)}`, 70_000);
    expect(deposit.status).toBe('unmatched');
    const path = `/admin/deposits/${encodeURIComponent(deposit.id)}/attach`;
    expect(await me.asOperator.post<ErrorBody>(path, { userId: me.userId })).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    const own = await me.asMember.post<TopUp>('/top-ups', { name: '내요청', point: 70_000, feeType: 'none', feeValue: null });
    expect(await me.asOperator.post<ErrorBody>(path, { topUpId: own.body.id })).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    const open = await otherStaff().get<{ items: Deposit[] }>('/admin/deposits?status=open&pageSize=100');
    expect(open.body.items.find((d) => d.id === deposit.id)).toMatchObject({ status: 'unmatched', userId: null });
    expect(await balanceOf(suite.wallet.base, me.userId)).toBe(0);
    expect(await statusOf(me.userId, own.body.id)).toBe(0);
  });

  it('a deposit an operator enters by hand does not approve their own request, and records nothing', async () => {
    const me = await insider('staff');
    const name = `수기${randomUUID().slice(0, 4)}`;
    const own = await me.asMember.post<TopUp>('/top-ups', { name, point: 20_000, feeType: 'none', feeValue: null });
    const entered = await me.asOperator.post<ErrorBody>('/admin/deposits', { depositorName: name, amount: 20_000 });
    expect(entered).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    const all = await otherStaff().get<{ items: Array<Deposit & { depositorName: string }> }>('/admin/deposits?pageSize=100');
    expect(all.body.items.filter((d) => d.depositorName === name)).toEqual([]);
    expect(await statusOf(me.userId, own.body.id)).toBe(0);
  });

  it('an admin cannot adjust their own balance', async () => {
    const me = await insider('admin');
    expect(await me.asOperator.post<ErrorBody>(`/admin/accounts/${me.userId}/adjustments`, { amount: 5_000, reason: '본인 보상' })).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    expect(await balanceOf(suite.wallet.base, me.userId)).toBe(0);
    expect((await otherAdmin().get<{ items: unknown[] }>(`/admin/accounts/${me.userId}/adjustments`)).body.items).toEqual([]);
  });
});

describe('staff approve up to the admin-set limit', () => {
  it('staff attach a deposit over the limit only after the admin raises STAFF_APPROVAL_LIMIT_WON', async () => {
    const m = await suite.member();
    const name = `한도${randomUUID().slice(0, 4)}`;
    const asked = await client(suite.wallet.base, m).post<TopUp>('/top-ups', { name, point: 1_500_000, feeType: 'none', feeValue: null });
    const deposit = await notify(`${name}다른`, 1_500_000);
    const path = `/admin/deposits/${encodeURIComponent(deposit.id)}/attach`;
    expect(await otherStaff().post<ErrorBody>(path, { topUpId: asked.body.id })).toMatchObject({ status: 403, body: { code: 'STAFF_LIMIT' } });
    expect(await otherStaff().post<ErrorBody>(path, { userId: m })).toMatchObject({ status: 403, body: { code: 'STAFF_LIMIT' } });
    expect(await balanceOf(suite.wallet.base, m)).toBe(0);

    await suite.publisher.publish(Topics.catalog, [suite.publisher.setting('STAFF_APPROVAL_LIMIT_WON', '2000000')]);
    await eventually(() => suite.wallet.store.settings.get('STAFF_APPROVAL_LIMIT_WON'), (v) => v === '2000000', 20_000);
    expect(await otherStaff().post<Deposit>(path, { topUpId: asked.body.id })).toMatchObject({ status: 200, body: { status: 'attached', userId: m } });
    expect(await balanceOf(suite.wallet.base, m)).toBe(15_000_000);
    expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
  });
});

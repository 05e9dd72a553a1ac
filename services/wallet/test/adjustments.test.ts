import { describe, expect, it } from 'vitest';

import { checkLedger } from '../src/ledger-check.ts';
import { balanceOf, client, eventually, fund, walletSuite } from './support.ts';

/** Balance adjustments (issue 12): an entry of their own kind with a reason, admins only, never below zero. */
const suite = walletSuite({ collector: 'wallet-adjust-collector' });

const newMember = () => suite.member();
const admin = () => client(suite.wallet.base, 'admin-1', 'admin');
type Ledger = { items: Array<{ deltaDeci: number; balanceAfterDeci: number; source: string; referenceId: string }> };

describe('balance adjustments', () => {
  it('adds and takes points as ledger entries of source adjustment, keeps the reason and publishes PointAdjusted', async () => {
    const userId = await newMember();
    await fund(suite.wallet.base, userId, 5_000);
    const plus = await admin().post<{ id: string; amountDeci: number; balanceAfterDeci: number }>(`/admin/accounts/${userId}/adjustments`, { amount: 1234.5, reason: '이벤트 보상' });
    expect(plus).toMatchObject({ status: 201, body: { amountDeci: 12_345, balanceAfterDeci: 62_345 } });
    const minus = await admin().post(`/admin/accounts/${userId}/adjustments`, { amount: -345.5, reason: '중복 충전 회수' });
    expect(minus).toMatchObject({ status: 201, body: { amountDeci: -3_455, balanceAfterDeci: 58_890 } });
    expect(await balanceOf(suite.wallet.base, userId)).toBe(58_890);
    const ledger = await admin().get<Ledger>(`/admin/accounts/${userId}/ledger`);
    expect(ledger.body.items.slice(0, 2).map((e) => [e.source, e.deltaDeci])).toEqual([['adjustment', -3_455], ['adjustment', 12_345]]);
    const list = await admin().get<{ items: Array<{ reason: string }> }>(`/admin/accounts/${userId}/adjustments`);
    expect(list.body.items.map((a) => a.reason)).toEqual(['중복 충전 회수', '이벤트 보상']);
    await eventually(() => Promise.resolve(suite.received.of('PointAdjusted', (d) => d.userId === userId).length), (n) => n === 2);
    expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
  });

  it('never takes more than the balance, and refuses staff, a missing reason, zero or a bad amount — changing nothing', async () => {
    const userId = await newMember();
    await fund(suite.wallet.base, userId, 5_000);
    expect(await admin().post(`/admin/accounts/${userId}/adjustments`, { amount: -5_000.1, reason: '회수' })).toMatchObject({ status: 409, body: { code: 'BALANCE_BELOW_ZERO' } });
    expect((await client(suite.wallet.base, 'staff-1', 'staff').post(`/admin/accounts/${userId}/adjustments`, { amount: 100, reason: '보상' })).status).toBe(403);
    expect(await admin().post(`/admin/accounts/${userId}/adjustments`, { amount: 100 })).toMatchObject({ status: 400, body: { code: 'REASON_REQUIRED' } });
    for (const amount of [0, 0.05, '100', 100_000_000, null]) {
      expect((await admin().post(`/admin/accounts/${userId}/adjustments`, { amount, reason: '사유' })).body).toMatchObject({ code: 'AMOUNT_INVALID' });
    }
    expect((await admin().post('/admin/accounts/nobody/adjustments', { amount: 100, reason: '사유' })).status).toBe(404);
    expect(await balanceOf(suite.wallet.base, userId)).toBe(50_000);
    expect(await admin().post(`/admin/accounts/${userId}/adjustments`, { amount: -5_000, reason: '전액 회수' })).toMatchObject({ status: 201, body: { balanceAfterDeci: 0 } });
  });
});

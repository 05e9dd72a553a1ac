import { randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { accountOpened, balanceOf, client, eventually, fund, walletSuite } from './support.ts';

/** The console's dashboard figures (issue 12): today's sales, refunds and approved top-ups from the ledger, exact. */
const suite = walletSuite();

type Summary = { days: Array<{ date: string; salesDeci: number; refundsDeci: number; topUpsDeci: number; topUpCount: number }>; pendingTopUps: number };
const operator = (role: 'admin' | 'staff' = 'staff') => client(suite.wallet.base, `${role}-1`, role);
const summary = async () => (await operator().get<Summary>('/admin/dashboard?days=7')).body;
const today = (s: Summary) => s.days.at(-1)!;

describe('dashboard figures', () => {
  it('counts an approved top-up, an order debit and its refund on today, and the pending top-ups', async () => {
    const before = await summary();
    expect(before.days).toHaveLength(7);
    expect(today(before).date).toBe(new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10));

    const userId = `member-${randomUUID().slice(0, 8)}`;
    await suite.publisher.publish(Topics.auth, [suite.publisher.registered(userId)]);
    await accountOpened(suite.wallet.base, userId);
    await fund(suite.wallet.base, userId, 10_000);
    const orderId = randomInt(1_000_000, 2_000_000_000);
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, orderId, 12_345)]);
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 100_000 - 12_345);
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(userId, orderId, `order-${orderId}-partial`, 2_345)]);
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 100_000 - 10_000);
    const pending = await client(suite.wallet.base, userId).post('/top-ups', { name: '대기중', point: 5_000, feeType: 'none', feeValue: null });
    expect(pending.status).toBe(201);

    const after = await summary();
    expect(today(after).salesDeci - today(before).salesDeci).toBe(12_345);
    expect(today(after).refundsDeci - today(before).refundsDeci).toBe(2_345);
    expect(today(after).topUpsDeci - today(before).topUpsDeci).toBe(100_000);
    expect(today(after).topUpCount - today(before).topUpCount).toBe(1);
    expect(after.pendingTopUps - before.pendingTopUps).toBe(1);
    expect(after.days.slice(0, 6)).toEqual(before.days.slice(0, 6));
  });

  it('is for operators only and refuses a bad period', async () => {
    expect((await client(suite.wallet.base, 'member-x').get('/admin/dashboard')).status).toBe(403);
    expect((await operator('admin').get('/admin/dashboard?days=0')).body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await operator('admin').get('/admin/dashboard?days=abc')).status).toBe(400);
  });
});

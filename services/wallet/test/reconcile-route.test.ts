import { randomInt, randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import type { ReconcileStatusBody } from '@smm/contracts/http';
import { balanceOf, client, eventually, fund, walletSuite } from './support.ts';

// The console's reconciliation, hosted by the wallet (src/http/reconcile-routes.ts): a real wallet
// debits an order; the order service's database (seeded here as order writes it) first lacks the
// order, then holds it — the run finds the debit without its order, then nothing, and keeps the
// latest run for the dashboard.
const tag = randomUUID().slice(0, 8);
const orderDb = `order_${tag}`;
process.env.RECONCILE_DATABASES = `order=${orderDb},fulfillment=fulfillment_${tag},auth=auth_${tag}`;
const suite = walletSuite();

const operator = () => client(suite.wallet.base, 'staff-1', 'staff');

describe('reconciliation route', () => {
  it('is for operators, and has no run to show before the first', async () => {
    expect((await client(suite.wallet.base, 'member-x').post('/admin/reconcile', {})).status).toBe(403);
    expect((await client(suite.wallet.base, 'member-x').get('/admin/reconcile/latest')).status).toBe(403);
    const latest = await operator().get<ReconcileStatusBody>('/admin/reconcile/latest');
    expect(latest.body).toEqual({ latest: null, running: null });
  });

  it("finds a debit whose order is not in order's database, and nothing once it is", async () => {
    const userId = await suite.member();
    await fund(suite.wallet.base, userId, 10_000);
    const orderId = randomInt(1_000_000, 2_000_000_000);
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, orderId, 12_345)]);
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 100_000 - 12_345);

    const first = await operator().post<ReconcileStatusBody>('/admin/reconcile', {});
    expect(first.status).toBe(200);
    const run = first.body.latest!;
    expect(run.discrepancies.filter((d) => d.userId === userId)).toEqual([
      { rule: 'debit-without-order', userId, reference: `order-${orderId}`, detail: expect.stringContaining('names no order') as string },
    ]);
    expect(run.databases).toMatchObject({ wallet: suite.wallet.database, order: orderDb });
    expect(run.ranBy).toBe('staff-1');
    expect((await operator().get<ReconcileStatusBody>('/admin/reconcile/latest')).body.latest).toEqual(run);

    const mongo = await MongoClient.connect(suite.infra.mongo.url);
    try {
      await mongo.db(orderDb).collection('orders').insertOne({ _id: orderId, userId, chargeDeci: 12_345, payment: 'paid', status: 0, refundedDeci: 0, autoOrderId: null } as never);
    } finally {
      await mongo.close();
    }
    const second = await operator().post<ReconcileStatusBody>('/admin/reconcile', {});
    expect(second.body.latest!.discrepancies.filter((d) => d.userId === userId)).toEqual([]);
    expect(second.body.latest!.counts).toMatchObject({ orders: 1 });
    expect(second.body.latest!.startedAt > run.startedAt).toBe(true);
  });
});

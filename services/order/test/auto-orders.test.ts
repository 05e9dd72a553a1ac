import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { storedOrders } from '../src/store/models.ts';
import { type ErrorBody, type Harness, client, eventually, replicated, sleep, startHarness, startInfra } from './support.ts';

let infra: Awaited<ReturnType<typeof startInfra>>;
let h: Harness;

beforeAll(async () => {
  infra = await startInfra();
  h = await startHarness(infra);
  await h.stand.product({ serviceId: 1, text: '인스타그램 팔로워', platformId: 1, min: 10, max: 1000, unitPriceDeci: 25, enableAuto: true });
  await replicated(h, 1);
});

afterAll(async () => {
  await h?.stop();
  await infra?.stop();
});

type AutoView = { id: number; kind: string; status: number | null; completed: number; runs: number; interval: number; amount: number; totalQuantity: number; point: number; pointDeci: number; chargeDeci: number; payment: string; serviceId: number; link: string };
type OrderView = { id: number; autoOrderId: number | null; run: number | null; amount: number; pointDeci: number; status: number };

async function paidAuto(runs: number, amount = 100) {
  const userId = `m-${randomUUID().slice(0, 8)}`;
  const api = client(h.base, userId);
  h.stand.balances.set(userId, 1_000_000);
  const res = await api.post<{ outcome: string; order: AutoView }>('/orders', { serviceId: 1, link: 'myname', amount, runs, interval: 60 });
  expect(res.status).toBe(201);
  return { userId, api, auto: res.body.order };
}

const fire = (id: number, userId: string, ...runs: number[]) => h.stand.publish(Topics.scheduler, ...runs.map((run) => h.stand.runDue(id, userId, run)));
const autoOf = async (api: ReturnType<typeof client>, id: number) => (await api.get<AutoView>(`/orders/${id}`)).body;

describe('auto orders', () => {
  it('are charged in full up front and accepted active, with runs and interval in OrderAccepted', async () => {
    const { userId, auto } = await paidAuto(3);
    expect(auto).toMatchObject({ kind: 'auto', status: 0, completed: 0, runs: 3, interval: 60, amount: 100, totalQuantity: 300, pointDeci: 7500, chargeDeci: 7500, payment: 'paid' });
    expect(h.stand.balances.get(userId)).toBe(1_000_000 - 7500);
    const events = await eventually(() => h.stand.of(auto.id), (e) => e.length >= 2);
    expect(events[0]).toMatchObject({ type: 'OrderPlaced', data: { kind: 'auto', runs: 3, interval: 60, amount: 100, chargeDeci: 7500 } });
    expect(events[1]).toMatchObject({ type: 'OrderAccepted', data: { orderId: auto.id, kind: 'auto', userId, runs: 3, interval: 60, serviceId: auto.serviceId, link: auto.link, amount: 100 } });
  });

  it('place one paid child order per due run, ignore duplicates and out-of-order runs, and complete after the last', async () => {
    const { userId, api, auto } = await paidAuto(3);
    await fire(auto.id, userId, 1, 1, 3); // duplicate run 1 (another event id), run 3 out of order
    await eventually(() => autoOf(api, auto.id), (a) => a.completed === 1);
    await sleep(500);
    expect((await autoOf(api, auto.id)).completed).toBe(1);
    const replay = h.stand.runDue(auto.id, userId, 2);
    await h.stand.publish(Topics.scheduler, replay, replay); // same event twice
    await eventually(() => autoOf(api, auto.id), (a) => a.completed === 2);
    await fire(auto.id, userId, 3);
    const done = await eventually(() => autoOf(api, auto.id), (a) => a.status === 1);
    expect(done).toMatchObject({ completed: 3, status: 1, pointDeci: 7500 });
    await fire(auto.id, userId, 4, 3); // after completion: nothing
    await sleep(500);

    const children = await storedOrders(h.order.store.connection).orders.find({ autoOrderId: auto.id }).sort({ run: 1 }).lean();
    expect(children.map((c) => [c.run, c.amount, c.chargeDeci, c.status, c.payment])).toEqual([
      [1, 100, 2500, 0, 'paid'],
      [2, 100, 2500, 0, 'paid'],
      [3, 100, 2500, 0, 'paid'],
    ]);
    const types = h.stand.of(auto.id).map((e) => e.type);
    expect(types).toEqual(['OrderPlaced', 'OrderAccepted', 'AutoOrderRunPlaced', 'AutoOrderRunPlaced', 'AutoOrderRunPlaced', 'AutoOrderCompleted']);
    expect(h.stand.of(auto.id, 'AutoOrderRunPlaced').map((e) => e.data)).toEqual(
      children.map((c) => ({ autoOrderId: auto.id, userId, run: c.run, runs: 3, childOrderId: c._id, serviceId: c.serviceId, link: c.link, amount: 100 })),
    );
    // Children show in the order history with their auto order, newest first.
    const history = await api.get<{ items: OrderView[] }>('/orders');
    expect(history.body.items.map((o) => [o.autoOrderId, o.run])).toEqual([
      [auto.id, 3],
      [auto.id, 2],
      [auto.id, 1],
    ]);
    expect((await api.post<ErrorBody>(`/auto-orders/${auto.id}/cancel`, {})).body).toEqual({ code: 'AUTO_ORDER_NOT_ACTIVE', message: '진행 중인 자동 주문만 취소할 수 있습니다.' });
  });

  it('ignore runs of an unpaid auto order', async () => {
    const userId = `m-${randomUUID().slice(0, 8)}`;
    const api = client(h.base, userId);
    h.stand.hold.add(userId);
    const res = await api.post<{ order: AutoView }>('/orders?waitMs=0', { serviceId: 1, link: 'x', amount: 10, runs: 2, interval: 60 });
    await fire(res.body.order.id, userId, 1);
    await sleep(700);
    expect((await autoOf(api, res.body.order.id)).completed).toBe(0);
    expect(await storedOrders(h.order.store.connection).orders.countDocuments({ autoOrderId: res.body.order.id })).toBe(0);
  });

  it('cancel refunds exactly the runs not yet placed, once, and later runs place nothing', async () => {
    const { userId, api, auto } = await paidAuto(5, 37); // 37 × 2.5 won = 92.5 won per run
    await fire(auto.id, userId, 1, 2);
    await eventually(() => autoOf(api, auto.id), (a) => a.completed === 2);
    const other = client(h.base, 'someone-else');
    expect((await other.post<ErrorBody>(`/auto-orders/${auto.id}/cancel`, {})).status).toBe(404);

    const res = await api.post<{ autoOrder: AutoView; refund: number; refundDeci: number }>(`/auto-orders/${auto.id}/cancel`, {}, { 'x-correlation-id': 'corr-cancel-1' });
    expect(res.status).toBe(200);
    expect(res.body.refundDeci).toBe(925 * 3);
    expect(res.body.refund).toBe(277.5);
    expect(res.body.autoOrder).toMatchObject({ status: 2, completed: 2, pointDeci: 925 * 2, point: 185, chargeDeci: 925 * 5 });
    expect((await api.post<ErrorBody>(`/auto-orders/${auto.id}/cancel`, {})).status).toBe(409);

    await fire(auto.id, userId, 3);
    await sleep(700);
    expect((await autoOf(api, auto.id)).completed).toBe(2);
    const events = await eventually(() => h.stand.of(auto.id), (e) => e.some((x) => x.type === 'RefundRequested'));
    expect(events.map((e) => e.type)).toEqual(['OrderPlaced', 'OrderAccepted', 'AutoOrderRunPlaced', 'AutoOrderRunPlaced', 'AutoOrderCanceled', 'RefundRequested']);
    expect(events[4]).toMatchObject({ correlationId: 'corr-cancel-1', data: { autoOrderId: auto.id, userId, runsDone: 2, runs: 5, refundDeci: 2775 } });
    expect(events[5]!.data).toEqual({ refundId: `auto-${auto.id}-canceled`, userId, orderId: auto.id, amountDeci: 2775, reason: 'auto-canceled' });
  });

  it('serialize a cancel racing due runs: the refund always matches the runs placed', async () => {
    for (let round = 0; round < 3; round++) {
      const { userId, api, auto } = await paidAuto(4, 10);
      await fire(auto.id, userId, 1);
      await eventually(() => autoOf(api, auto.id), (a) => a.completed === 1);
      const [cancel] = await Promise.all([api.post<{ refundDeci: number; autoOrder: AutoView }>(`/auto-orders/${auto.id}/cancel`, {}), fire(auto.id, userId, 2, 3)]);
      await sleep(800);
      const final = await autoOf(api, auto.id);
      const children = await storedOrders(h.order.store.connection).orders.countDocuments({ autoOrderId: auto.id });
      expect(cancel.body.autoOrder.completed).toBe(final.completed);
      expect(children).toBe(final.completed);
      expect(cancel.body.refundDeci).toBe(250 * (4 - final.completed));
      expect(final.status).toBe(2);
    }
  });

  it('histories: status filters (1 includes partial), newest first, paging', async () => {
    const { userId, api, auto: first } = await paidAuto(2, 10);
    const second = (await api.post<{ order: AutoView }>('/orders', { serviceId: 1, link: 'x', amount: 10, runs: 2, interval: 60 })).body.order;
    const third = (await api.post<{ order: AutoView }>('/orders', { serviceId: 1, link: 'x', amount: 10, runs: 3, interval: 90 })).body.order;
    await fire(first.id, userId, 1, 2);
    await fire(second.id, userId, 1, 2);
    await eventually(() => autoOf(api, second.id), (a) => a.status === 1);
    await eventually(() => autoOf(api, first.id), (a) => a.status === 1);
    await api.post(`/auto-orders/${third.id}/cancel`, {});
    // Second run of `second` partially failed: the auto order becomes partial, shown as completed.
    const child = await storedOrders(h.order.store.connection).orders.findOne({ autoOrderId: second.id, run: 2 }).lean();
    const admin = client(h.base, 'op', 'admin');
    expect((await admin.patch(`/admin/orders/${child!._id}`, { status: 3, remains: 4 })).status).toBe(200);
    expect((await autoOf(api, second.id)).status).toBe(3);

    const all = await api.get<{ items: AutoView[]; hasNext: boolean }>('/auto-orders');
    expect(all.body.items.map((a) => a.id)).toEqual([third.id, second.id, first.id]);
    expect(all.body.items[0]).toMatchObject({ linkUrl: 'https://www.instagram.com/x', totalQuantity: 30, interval: 90, runs: 3, completed: 0, status: 2, pointDeci: 0 });
    expect(all.body.items[1]).toMatchObject({ pointDeci: 500 - 100, point: 40 });
    const completed = await api.get<{ items: AutoView[] }>('/auto-orders?status=1');
    expect(completed.body.items.map((a) => [a.id, a.status])).toEqual([
      [second.id, 3],
      [first.id, 1],
    ]);
    expect((await api.get<{ items: AutoView[] }>('/auto-orders?status=2')).body.items.map((a) => a.id)).toEqual([third.id]);
    expect((await api.get<{ items: AutoView[] }>('/auto-orders?status=0')).body.items).toEqual([]);
    const paged = await api.get<{ items: AutoView[]; page: number; pageSize: number; hasNext: boolean }>('/auto-orders?page=2&pageSize=2');
    expect(paged.body).toMatchObject({ page: 2, pageSize: 2, hasNext: false });
    expect(paged.body.items.map((a) => a.id)).toEqual([first.id]);
    expect((await api.get<{ hasNext: boolean }>('/auto-orders?pageSize=2')).body.hasNext).toBe(true);
    expect((await api.get('/auto-orders?status=7')).status).toBe(400);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PointDebitRejected, PointDebited, Topics } from '@smm/contracts';
import { placementIdPrefix } from '@smm/contracts/http';
import { callerHeaders, forgedCallerHeaders } from '@smm/testkit';
import { storedOrders } from '../src/store/models.ts';
import { type ErrorBody, type Harness, client, eventually, replicated, sleep, startHarness, startInfra } from './support.ts';

let infra: Awaited<ReturnType<typeof startInfra>>;
let h: Harness;

beforeAll(async () => {
  infra = await startInfra();
  h = await startHarness(infra);
  await h.stand.product({ serviceId: 1, text: '인스타그램 좋아요', platformId: 1, min: 10, max: 1000, unitPriceDeci: 25, enableAuto: true });
  await h.stand.product({ serviceId: 2, text: '유튜브 조회수', platformId: 2, min: 100, max: 5000, unitPriceDeci: 3, enableAuto: false });
  await h.stand.product({ serviceId: 3, text: '숨김 서비스', visible: false });
  await h.stand.product({ serviceId: 4, text: '읽기 전용', isReadOnly: true });
  await h.stand.product({ serviceId: 5, text: '삭제될 서비스' });
  await h.stand.removeProduct(5);
  await replicated(h, 4);
  await eventually(() => h.order.store.product(5), (p) => p === null);
});

afterAll(async () => {
  await h?.stop();
  await infra?.stop();
});

type Placed = { outcome: string; order: { id: number; status: number | null; payment: string; pointDeci: number; point: number; amount: number; kind: string; linkUrl: string | null; serviceText: string } };

const member = () => {
  const userId = `m-${randomUUID().slice(0, 8)}`;
  return { userId, api: client(h.base, userId) };
};

/** A member with 10,000 points places an order (no wait) whose OrderPlaced the stand holds unanswered. */
async function placedUnanswered(amount: number) {
  const { userId, api } = member();
  h.stand.balances.set(userId, 10_000);
  h.stand.hold.add(userId);
  const res = await api.post<Placed>('/orders?waitMs=0', { serviceId: 1, link: 'https://a', amount });
  const id = res.body.order.id;
  const placed = await eventually(() => h.stand.held.get(id), (e) => e !== undefined);
  return { userId, api, id, placed };
}

describe('POST /orders validation (spec §5, in order)', () => {
  const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
    ['no product', { link: 'x', amount: 5 }, 400, 'SERVICE_REQUIRED', '서비스를 선택해 주세요.'],
    ['unknown product', { serviceId: 999, link: '', amount: 0 }, 400, 'SERVICE_REQUIRED', '서비스를 선택해 주세요.'],
    ['hidden product', { serviceId: 3, link: 'x', amount: 50 }, 400, 'SERVICE_REQUIRED', '서비스를 선택해 주세요.'],
    ['removed product', { serviceId: 5, link: 'x', amount: 50 }, 400, 'SERVICE_REQUIRED', '서비스를 선택해 주세요.'],
    ['read-only product', { serviceId: 4, link: '', amount: 0 }, 403, 'SERVICE_READ_ONLY', '현재 주문할 수 없는 서비스입니다.'],
    ['empty link (before the amount)', { serviceId: 1, link: '  ', amount: 1 }, 400, 'LINK_REQUIRED', '링크를 입력해 주세요.'],
    ['amount below min', { serviceId: 1, link: 'https://a', amount: 9, runs: 1 }, 400, 'AMOUNT_BELOW_MIN', '최소 주문 수량보다 적습니다. (최소 10)'],
    ['amount above max', { serviceId: 2, link: 'https://a', amount: 5001 }, 400, 'AMOUNT_ABOVE_MAX', '최대 주문 수량을 초과했습니다. (최대 5,000)'],
    ['amount not a number', { serviceId: 1, link: 'https://a', amount: 'many' }, 400, 'AMOUNT_INVALID', '주문 수량을 숫자로 입력해 주세요.'],
    ['auto on a product without auto', { serviceId: 2, link: 'https://a', amount: 100, runs: 2, interval: 60 }, 400, 'AUTO_NOT_SUPPORTED', '자동 주문을 지원하지 않는 서비스입니다.'],
    ['runs 1', { serviceId: 1, link: 'https://a', amount: 10, runs: 1, interval: 30 }, 400, 'RUNS_TOO_FEW', '자동 주문 횟수는 2회 이상이어야 합니다.'],
    ['interval only (runs 0)', { serviceId: 1, link: 'https://a', amount: 10, interval: 60 }, 400, 'RUNS_TOO_FEW', '자동 주문 횟수는 2회 이상이어야 합니다.'],
    ['runs not integer', { serviceId: 1, link: 'https://a', amount: 10, runs: 2.5, interval: 30 }, 400, 'RUNS_NOT_INTEGER', '자동 주문 횟수는 정수로 입력해 주세요.'],
    ['interval below 60', { serviceId: 1, link: 'https://a', amount: 10, runs: 3, interval: 59 }, 400, 'INTERVAL_TOO_SHORT', '자동 주문 간격은 60분 이상이어야 합니다.'],
    ['interval missing', { serviceId: 1, link: 'https://a', amount: 10, runs: 3 }, 400, 'INTERVAL_TOO_SHORT', '자동 주문 간격은 60분 이상이어야 합니다.'],
    ['interval not integer', { serviceId: 1, link: 'https://a', amount: 10, runs: 3, interval: 60.5 }, 400, 'INTERVAL_NOT_INTEGER', '자동 주문 간격은 분 단위 정수로 입력해 주세요.'],
    ['runs above 1,000', { serviceId: 1, link: 'https://a', amount: 10, runs: 1001, interval: 60 }, 400, 'RUNS_TOO_MANY', '자동 주문 횟수는 최대 1,000회까지 가능합니다.'],
    ['interval of 1e9 minutes', { serviceId: 1, link: 'https://a', amount: 10, runs: 3, interval: 1e9 }, 400, 'INTERVAL_TOO_LONG', '자동 주문 간격은 최대 43,200분(30일)까지 가능합니다.'],
  ];
  it.each(cases)('%s', async (_name, body, status, code, message) => {
    const { api } = member();
    const res = await api.post<ErrorBody>('/orders?waitMs=0', body);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ code, message });
  });

  it('refuses everything with 503 while the service check is on, and orders again once it is off', async () => {
    const { api } = member();
    await h.stand.setting('ENABLE_SERVICE_CHECK', 'true');
    await eventually(() => h.order.store.setting('ENABLE_SERVICE_CHECK'), (v) => v === 'true');
    const res = await api.post<ErrorBody>('/orders?waitMs=0', { serviceId: 1, link: 'https://a', amount: 10 });
    expect(res).toEqual({ status: 503, body: { code: 'SERVICE_CHECK', message: '서비스 점검 중에는 주문할 수 없습니다.' } });
    await h.stand.setting('ENABLE_SERVICE_CHECK', 'false');
    await eventually(() => h.order.store.setting('ENABLE_SERVICE_CHECK'), (v) => v === 'false');
    expect((await api.post('/orders?waitMs=0', { serviceId: 1, link: 'https://a', amount: 10 })).status).toBe(202);
  });

  it('stores nothing and emits nothing for a refused order', async () => {
    const { userId, api } = member();
    await api.post('/orders?waitMs=0', { serviceId: 1, link: '', amount: 10 });
    expect(await storedOrders(h.order.store.connection).orders.countDocuments({ userId })).toBe(0);
    await sleep(300);
    expect(h.stand.orderEvents.filter((e) => (e.data as { userId?: string }).userId === userId)).toEqual([]);
  });

  it('follows the product as the catalogue changes it (price, max)', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 1_000_000);
    await h.stand.product({ serviceId: 6, min: 1, max: 100, unitPriceDeci: 10 });
    await replicated(h, 6);
    await h.stand.product({ serviceId: 6, min: 1, max: 200, unitPriceDeci: 15 });
    await replicated(h, 6, (p) => p?.unitPriceDeci === 15);
    const res = await api.post<Placed>('/orders', { serviceId: 6, link: 'https://a', amount: 150 });
    expect(res.status).toBe(201);
    expect(res.body.order.pointDeci).toBe(2250);
  });

  it('charges the price the member was shown, or places nothing (409 PRICE_CHANGED) when the catalogue changed it', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 1_000_000);
    await h.stand.product({ serviceId: 8, min: 1, max: 100, unitPriceDeci: 50 });
    await replicated(h, 8);
    // The screen still shows 5원 after a repricing to 2.8원: not charged at another price than shown.
    await h.stand.product({ serviceId: 8, min: 1, max: 100, unitPriceDeci: 28 });
    await replicated(h, 8, (p) => p?.unitPriceDeci === 28);
    const stale = await api.post<ErrorBody>('/orders', { serviceId: 8, link: 'https://a', amount: 100, unitPriceDeci: 50 });
    expect(stale).toEqual({ status: 409, body: { code: 'PRICE_CHANGED', message: '가격이 변경되었습니다. 확인 후 다시 주문해 주세요.' } });
    expect(await storedOrders(h.order.store.connection).orders.countDocuments({ userId })).toBe(0);
    expect(await api.post<ErrorBody>('/orders', { serviceId: 8, link: 'https://a', amount: 100, unitPriceDeci: 'x' })).toMatchObject({ status: 400, body: { code: 'PRICE_INVALID' } });
    // Shown the new price: placed and charged at it.
    const fresh = await api.post<Placed>('/orders', { serviceId: 8, link: 'https://a', amount: 100, unitPriceDeci: 28 });
    expect(fresh.status).toBe(201);
    expect(fresh.body.order.pointDeci).toBe(2800);
    await sleep(300);
    expect(h.stand.orderEvents.filter((e) => (e.data as { userId?: string }).userId === userId).map((e) => (e.data as { chargeDeci?: number }).chargeDeci).filter(Boolean)).toEqual([2800]);
  });

  it('reads the product number as a decimal only: "0x7" is no product', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 1_000_000);
    await h.stand.product({ serviceId: 7, min: 1, max: 100, unitPriceDeci: 10 });
    await replicated(h, 7);
    expect(await api.post<ErrorBody>('/orders', { serviceId: '0x7', link: 'https://a', amount: 10 })).toMatchObject({ status: 400, body: { code: 'SERVICE_REQUIRED' } });
    expect((await api.post('/orders', { serviceId: '7', link: 'https://a', amount: 10 })).status).toBe(201);
  });

  it('answers 401 without a member and 400 for a bad waitMs', async () => {
    const res = await fetch(`${h.base}/orders`, { method: 'POST', headers: { 'content-type': 'application/json', ...callerHeaders({ to: 'order', role: 'service' }) }, body: '{}' });
    expect(res.status).toBe(401);
    const { api } = member();
    expect((await api.post('/orders?waitMs=30001', { serviceId: 1, link: 'a', amount: 10 })).status).toBe(400);
  });
});

describe('who may call', () => {
  it('refuses calls without a valid credential for the order service: identity headers, expired, wrongly signed, unsigned, another audience', async () => {
    const orders = await storedOrders(h.order.store.connection).orders.countDocuments();
    for (const [name, headers] of Object.entries(forgedCallerHeaders('order'))) {
      const place = await fetch(`${h.base}/orders`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ serviceId: 1, link: 'https://a', amount: 10 }) });
      const change = await fetch(`${h.base}/admin/orders/1`, { method: 'PATCH', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ status: 3 }) });
      expect({ name, place: place.status, change: change.status }).toEqual({ name, place: 401, change: 401 });
    }
    expect(await storedOrders(h.order.store.connection).orders.countDocuments()).toBe(orders);
  });
});

describe("an Idempotency-Key kept with the order (the BFF's key and request hash)", () => {
  const body = (key: string, hash = 'hash-a') => ({ serviceId: 1, link: 'https://a', amount: 10, request: { key, hash } });
  const placedOf = (userId: string) => h.stand.orderEvents.filter((e) => e.type === 'OrderPlaced' && (e.data as { userId: string }).userId === userId);

  it('answers a retry while the first still waits with the same order, paid once', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 10_000);
    h.stand.hold.add(userId);
    const first = api.post<Placed>('/orders?waitMs=5000', body('retry-1'));
    const held = await eventually(() => [...h.stand.held.values()].find((e) => (e.data as { userId: string }).userId === userId), (e) => e !== undefined);
    const second = api.post<Placed>('/orders?waitMs=5000', body('retry-1'));
    await sleep(300); // the retry reads the order and waits on it too
    await h.stand.answer(held!);
    const [a, b] = await Promise.all([first, second]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.order.id).toBe(a.body.order.id);
    expect(b.body.order).toMatchObject({ payment: 'paid', status: 0 });
    expect(await storedOrders(h.order.store.connection).orders.countDocuments({ userId })).toBe(1);
    expect(placedOf(userId)).toHaveLength(1);
  });

  it('answers a retry after the answer was lost with the stored outcome, refuses the key for another request, and frees it when the order is given up', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 10_000);
    const paid = await api.post<Placed>('/orders', body('lost-1'));
    expect(paid.status).toBe(201);
    const again = await api.post<Placed>('/orders', body('lost-1'));
    expect(again).toMatchObject({ status: 201, body: { outcome: 'accepted', order: { id: paid.body.order.id, payment: 'paid' } } });
    expect(await api.post<ErrorBody>('/orders', body('lost-1', 'hash-b'))).toEqual({ status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED', message: '이미 다른 요청에 사용된 Idempotency-Key입니다.' } });

    const poor = member();
    h.stand.balances.set(poor.userId, 1);
    const refused = await poor.api.post<ErrorBody & { orderId: number }>('/orders', body('lost-2'));
    expect(refused.status).toBe(402);
    expect(await poor.api.post<ErrorBody & { orderId: number }>('/orders', body('lost-2'))).toMatchObject({ status: 402, body: { code: 'INSUFFICIENT_POINTS', orderId: refused.body.orderId } });

    h.stand.hold.add(userId);
    const gaveUp = await api.post<ErrorBody & { orderId: number }>('/orders?waitMs=300', body('lost-3'));
    expect(gaveUp.status).toBe(503);
    h.stand.hold.delete(userId);
    const anew = await api.post<Placed>('/orders', body('lost-3'));
    expect(anew.status).toBe(201);
    expect(anew.body.order.id).not.toBe(gaveUp.body.orderId);
    expect(await storedOrders(h.order.store.connection).orders.countDocuments({ userId })).toBe(3);
    expect(placedOf(userId)).toHaveLength(3);
  });

  it('lets a key go after 24 hours: the same request then places a new order', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 10_000);
    const first = await api.post<Placed>('/orders', body('day-old'));
    await storedOrders(h.order.store.connection).orders.updateOne({ _id: first.body.order.id }, { $set: { createdAt: new Date(Date.now() - 25 * 3_600_000) } });
    const later = await api.post<Placed>('/orders', body('day-old'));
    expect(later.status).toBe(201);
    expect(later.body.order.id).not.toBe(first.body.order.id);
    expect((await api.post<Placed>('/orders', body('day-old'))).body.order.id).toBe(later.body.order.id);
  });

  it('places one order for requests with one key that arrive together (the unique key decides)', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 10_000);
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.post<Placed>('/orders?waitMs=5000', body('together-1'))));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.order.id)).size).toBe(1);
    expect(await storedOrders(h.order.store.connection).orders.countDocuments({ userId })).toBe(1);
    expect(h.stand.balances.get(userId)).toBe(10_000 - 250);
  });
});

describe('the order saga with the wallet', () => {
  it('accepts a paid one-off order: 201, status 0 pending, OrderPlaced then OrderAccepted', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 10_000);
    const res = await api.post<Placed>('/orders', { serviceId: 1, link: 'https://instagram.com/p/1', amount: 100 }, { 'x-correlation-id': 'corr-accept-1' });
    expect(res.status).toBe(201);
    expect(res.body.outcome).toBe('accepted');
    expect(res.body.order).toMatchObject({ kind: 'order', status: 0, payment: 'paid', pointDeci: 2500, point: 250, amount: 100, serviceText: '인스타그램 좋아요' });
    const id = res.body.order.id;
    expect(h.stand.balances.get(userId)).toBe(7_500);
    const events = await eventually(() => h.stand.of(id), (e) => e.length >= 2);
    expect(events.map((e) => e.type)).toEqual(['OrderPlaced', 'OrderAccepted']);
    expect(events[0]).toMatchObject({ correlationId: 'corr-accept-1', data: { orderId: id, kind: 'order', userId, serviceId: 1, amount: 100, runs: 0, interval: 0, chargeDeci: 2500 } });
    expect(events[1]).toMatchObject({ correlationId: 'corr-accept-1', data: { orderId: id, kind: 'order', userId, runs: 0, interval: 0, serviceId: 1, link: 'https://instagram.com/p/1', amount: 100 } });
    expect((await api.get<{ status: number }>(`/orders/${id}`)).body.status).toBe(0);
  });

  it('rejects an order the balance does not cover: 402 with the order id, kept as rejected, OrderRejected', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 2_499);
    const res = await api.post<ErrorBody & { orderId: number }>('/orders', { serviceId: 1, link: 'https://a', amount: 100 });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.', orderId: expect.any(Number) });
    const id = res.body.orderId;
    const events = await eventually(() => h.stand.of(id), (e) => e.length >= 2);
    expect(events.map((e) => e.type)).toEqual(['OrderPlaced', 'OrderRejected']);
    expect(events[1]!.data).toEqual({ orderId: id, kind: 'order', userId, reason: 'INSUFFICIENT_POINTS' });
    expect((await api.get<{ payment: string; status: null }>(`/orders/${id}`)).body).toMatchObject({ payment: 'rejected', status: null });
    expect((await api.get<{ items: unknown[] }>('/orders')).body.items).toEqual([]); // only paid orders are history
  });

  it('gives the order up when the wallet does not answer in time (503, nothing charged), and refunds a debit that still comes, once', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 10_000);
    h.stand.hold.add(userId);
    const started = Date.now();
    const res = await api.post<ErrorBody & { orderId: number }>('/orders?waitMs=400', { serviceId: 1, link: 'https://a', amount: 10 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 'PAYMENT_TIMEOUT', message: expect.stringContaining('잠시 후 다시 시도해 주세요') as string, orderId: expect.any(Number) as number });
    const id = res.body.orderId;
    expect((await api.get<{ status: null; payment: string }>(`/orders/${id}`)).body).toMatchObject({ status: null, payment: 'rejected' });
    const rejected = await eventually(() => h.stand.of(id, 'OrderRejected'), (e) => e.length >= 1);
    expect(rejected[0]!.data).toEqual({ orderId: id, kind: 'order', userId, reason: 'PAYMENT_TIMEOUT' });

    // The wallet debits it after all: the money goes back, once, whatever is redelivered.
    const placed = await eventually(() => h.stand.held.get(id), (e) => e !== undefined);
    const debit = await h.stand.answer(placed!);
    await h.stand.publish(Topics.wallet, debit);
    await h.stand.publish(Topics.wallet, PointDebited.create(debit.aggregateId, debit.data as never, { correlationId: 'copy' }));
    const refunds = await eventually(() => h.stand.of(id, 'RefundRequested'), (e) => e.length >= 1);
    await sleep(1000);
    expect(h.stand.of(id, 'RefundRequested')).toHaveLength(1);
    expect(refunds[0]!.data).toEqual({ refundId: `order-${id}-unpaid`, userId, orderId: id, amountDeci: 250, reason: 'canceled' });
    expect(h.stand.of(id, 'OrderAccepted')).toEqual([]);
    expect((await api.get<{ payment: string; refundedDeci: number }>(`/orders/${id}`)).body).toMatchObject({ payment: 'rejected', refundedDeci: 250 });
  });

  it('refunds a debit whose order was given up between the decision and the write of its answer (no OrderAccepted)', async () => {
    const { userId, api, id, placed } = await placedUnanswered(10);
    // The member's wait ends right after the payment handler found the order awaiting payment (in
    // what this process remembers of the orders it placed, or in a read).
    const repository = h.order.store.repository;
    const read = repository.paymentFacts.bind(repository);
    const spy = vi.spyOn(repository, 'paymentFacts').mockImplementation(async (refs, options) => {
      const facts = await read(refs, options);
      if (refs.some((r) => r.id === id) && facts.get(`order:${id}`)?.payment === 'awaiting') {
        await storedOrders(h.order.store.connection).orders.updateOne({ _id: id, payment: 'awaiting' }, { $set: { payment: 'rejected', abandoned: true } });
      }
      return facts;
    });
    try {
      await h.stand.answer(placed!); // the debit, delivered once
      const refunds = await eventually(() => h.stand.of(id, 'RefundRequested'), (e) => e.length >= 1);
      expect(refunds[0]!.data).toEqual({ refundId: `order-${id}-unpaid`, userId, orderId: id, amountDeci: 250, reason: 'canceled' });
      await sleep(500);
      expect(h.stand.of(id).map((e) => e.type)).toEqual(['OrderPlaced', 'RefundRequested']);
      expect((await api.get<{ payment: string; refundedDeci: number }>(`/orders/${id}`)).body).toMatchObject({ payment: 'rejected', refundedDeci: 250 });
    } finally {
      spy.mockRestore();
    }
  });

  it('answers a placement no one else can ask about as soon as the debit is decided, before the write; one under an Idempotency-Key only after it', async () => {
    // The order service's payment writes are held while `gate` is closed.
    const repository = h.order.store.repository;
    const write = repository.settle.bind(repository);
    let open!: () => void;
    let gate = Promise.resolve();
    const close = () => (gate = new Promise<void>((resolve) => (open = resolve)));
    const spy = vi.spyOn(repository, 'settle').mockImplementation(async (...args) => {
      await gate;
      return write(...args);
    });
    try {
      const { userId, api } = member();
      h.stand.balances.set(userId, 10_000);
      const order = { serviceId: 1, link: 'https://a', amount: 10 };
      // No key, and the placement id the BFF chose for one call (a held write holds up the consumer: one at a time).
      for (const request of [undefined, { key: `${placementIdPrefix}early-1`, hash: 'placement-id' }]) {
        close();
        const answer = await api.post<Placed>('/orders?waitMs=5000', { ...order, ...(request ? { request } : {}) });
        // Answered while the write is held, so before it.
        expect(answer).toMatchObject({ status: 201, body: { outcome: 'accepted', order: { status: 0, payment: 'paid' } } });
        const id = answer.body.order.id;
        expect(await storedOrders(h.order.store.connection).orders.findOne({ _id: id }, { payment: 1 }).lean()).toEqual({ _id: id, payment: 'awaiting' });
        // A read of the order waits for the write: the member reads what it was told.
        const read = api.get<{ payment: string }>(`/orders/${id}`);
        const list = api.get<{ items: Array<{ id: number }> }>('/orders');
        expect(await Promise.race([read.then(() => 'answered'), sleep(500).then(() => 'waiting')])).toBe('waiting');
        open();
        expect((await read).body.payment).toBe('paid');
        expect((await list).body.items.map((o) => o.id)).toContain(id);
      }

      // Under the client's Idempotency-Key (a retry under it could give the order up) the answer waits for the write.
      close();
      const keyed = api.post<Placed>('/orders?waitMs=5000', { ...order, request: { key: 'early-keyed', hash: 'h' } });
      expect(await Promise.race([keyed.then(() => 'answered'), sleep(700).then(() => 'waiting')])).toBe('waiting');
      open();
      const answer = await keyed;
      expect(answer).toMatchObject({ status: 201, body: { outcome: 'accepted', order: { status: 0, payment: 'paid' } } });
      expect((await api.get<{ payment: string }>(`/orders/${answer.body.order.id}`)).body.payment).toBe('paid');
      expect(h.stand.balances.get(userId)).toBe(10_000 - 3 * 250);
    } finally {
      open();
      spy.mockRestore();
    }
  });

  it('changes nothing on a debit for an order another replica settled while this one remembers it awaiting payment', async () => {
    const { api, id, placed } = await placedUnanswered(10);
    // Another replica applied a refusal: this process placed the order and still remembers it awaiting.
    await storedOrders(h.order.store.connection).orders.updateOne({ _id: id, payment: 'awaiting' }, { $set: { payment: 'rejected' } });
    await h.stand.answer(placed!);
    await sleep(1000);
    expect(h.stand.of(id).map((e) => e.type)).toEqual(['OrderPlaced']);
    expect((await api.get<{ status: number | null; payment: string }>(`/orders/${id}`)).body).toMatchObject({ status: null, payment: 'rejected' });
  });

  it('answers the outcome another replica applied while this one waited', async () => {
    const { userId, api } = member();
    h.stand.hold.add(userId);
    const pending = api.post<Placed>('/orders?waitMs=1500', { serviceId: 1, link: 'https://a', amount: 10 });
    const id = await eventually(() => [...h.stand.held.values()].find((e) => (e.data as { userId: string }).userId === userId), (e) => e !== undefined).then((e) => (e!.data as { orderId: number }).orderId);
    // Another replica's consumer committed the payment: this process was never notified.
    await storedOrders(h.order.store.connection).orders.updateOne({ _id: id }, { $set: { payment: 'paid', status: 0, paidAt: new Date() } });
    const res = await pending;
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({ id, status: 0, payment: 'paid' });
    expect(h.stand.of(id, 'OrderRejected')).toEqual([]);
  });

  it('changes nothing on a duplicate, a replayed or a contradicting answer', async () => {
    const { userId, api, id, placed } = await placedUnanswered(40);
    const origin = { correlationId: placed!.correlationId, causationId: placed!.eventId };
    const debited = PointDebited.create(`account-${userId}`, { userId, kind: 'order', orderId: id, amountDeci: 1000, balanceAfterDeci: 9000 }, origin);
    await h.stand.publish(Topics.wallet, debited, debited);
    await h.stand.publish(Topics.wallet, debited);
    const rejected = PointDebitRejected.create(`account-${userId}`, { userId, kind: 'order', orderId: id, amountDeci: 1000, balanceDeci: 0, reason: 'INSUFFICIENT_POINTS' }, origin);
    await h.stand.publish(Topics.wallet, rejected);
    // A forged answer for another member or amount is ignored, too.
    await h.stand.publish(Topics.wallet, PointDebitRejected.create(`account-x`, { userId: 'x', kind: 'order', orderId: id, amountDeci: 1000, balanceDeci: 0, reason: 'NO_ACCOUNT' }, origin));
    await eventually(() => h.stand.of(id), (e) => e.length >= 2);
    await sleep(1000);
    expect(h.stand.of(id).map((e) => e.type)).toEqual(['OrderPlaced', 'OrderAccepted']);
    expect((await api.get<{ status: number; payment: string }>(`/orders/${id}`)).body).toMatchObject({ status: 0, payment: 'paid' });
  });

  it('stores profile names as typed and links them under the platform address', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 100_000);
    const insta = await api.post<Placed>('/orders', { serviceId: 1, link: '@my.profile', amount: 10 });
    expect(insta.body.order).toMatchObject({ link: '@my.profile', linkUrl: 'https://www.instagram.com/my.profile' });
    const yt = await api.post<Placed>('/orders', { serviceId: 2, link: '채널', amount: 100 });
    expect(yt.body.order.linkUrl).toBe('https://www.youtube.com/@%EC%B1%84%EB%84%90');
    const url = await api.post<Placed>('/orders', { serviceId: 1, link: 'https://www.instagram.com/p/abc', amount: 10 });
    expect(url.body.order.linkUrl).toBe('https://www.instagram.com/p/abc');
  });

  it('gives orders and auto orders ids from one sequence', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 1_000_000);
    const a = await api.post<Placed>('/orders', { serviceId: 1, link: 'https://a', amount: 10 });
    const b = await api.post<Placed>('/orders', { serviceId: 1, link: 'https://a', amount: 10, runs: 2, interval: 60 });
    const c = await api.post<Placed>('/orders', { serviceId: 1, link: 'https://a', amount: 10 });
    expect(b.body.order.kind).toBe('auto');
    expect(a.body.order.id).toBeLessThan(b.body.order.id);
    expect(b.body.order.id).toBeLessThan(c.body.order.id);
    expect((await api.get<{ kind: string }>(`/orders/${b.body.order.id}`)).body.kind).toBe('auto');
    const many = await api.get<{ items: Array<{ id: number; kind: string }> }>(`/orders?ids=${a.body.order.id},${b.body.order.id},999999`);
    expect(many.body.items.map((o) => [o.id, o.kind])).toEqual([
      [a.body.order.id, 'order'],
      [b.body.order.id, 'auto'],
    ]);
  });

  it('shows an order only to its owner (404 for others) and to operators', async () => {
    const owner = member();
    h.stand.balances.set(owner.userId, 10_000);
    const id = (await owner.api.post<Placed>('/orders', { serviceId: 1, link: 'https://a', amount: 10 })).body.order.id;
    const other = member();
    expect(await other.api.get(`/orders/${id}`)).toEqual({ status: 404, body: { code: 'ORDER_NOT_FOUND', message: '주문을 찾을 수 없습니다.' } });
    expect((await other.api.get<{ items: unknown[] }>(`/orders?ids=${id}`)).body.items).toEqual([]);
    expect((await other.api.get(`/orders?userId=${owner.userId}`)).status).toBe(403);
    expect((await client(h.base, 'op', 'admin').get(`/orders/${id}`)).status).toBe(200);
  });

  it('answers many concurrent orders each exactly once (shared transactions), and a replay of their answers changes nothing', async () => {
    const { userId, api } = member();
    h.stand.balances.set(userId, 60 * 250 - 250); // one order too many: the last debit is refused
    const answers = await Promise.all(Array.from({ length: 60 }, () => api.post<Placed & { orderId?: number }>('/orders', { serviceId: 1, link: 'https://a', amount: 10 })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(59);
    expect(statuses.filter((s) => s === 402)).toHaveLength(1);
    const ids = answers.map((a) => a.body.order?.id ?? a.body.orderId!);
    expect(new Set(ids).size).toBe(60);
    await eventually(() => ids.map((id) => h.stand.of(id).length), (n) => n.every((x) => x >= 2));
    const mine = h.stand.replies.filter((r) => (r.data as { userId: string }).userId === userId);
    await h.stand.publish(Topics.wallet, ...mine); // the whole batch again
    await h.stand.publish(Topics.wallet, mine[0]!); // and one alone (the one-by-one path)
    await sleep(1000);
    for (const id of ids) expect(h.stand.of(id).map((e) => e.type)).toHaveLength(2);
    expect((await api.get<{ items: unknown[] }>('/orders?pageSize=100')).body.items).toHaveLength(59);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, asAdmin, setSettings } from './support/client.ts';
import { type Member, balanceBecomes, member, order, orderServiceUp, pointDeciOf, product } from './support/money.ts';

type Order = { id: number; kind: string; status: number; payment: string; pointDeci: number; point: number; amount: number; remains: number; startCount: number | null; autoOrderId: number | null; link: string; linkUrl: string };
type Auto = { id: number; status: number; completed: number; runs: number; pointDeci: number; amount: number; interval: number; totalQuantity: number };
type Page<T> = { items: T[]; page: number; pageSize: number; hasNext: boolean };

const history = async (m: Member, query = '') => (await api<Page<Order>>('GET', `/service/order-history${query}`, { token: m.token })).body;
const autoHistory = async (m: Member, query = '') => (await api<Page<Auto>>('GET', `/service/auto-order-history${query}`, { token: m.token })).body;

describe.runIf(orderServiceUp())('orders (spec §5 order, the saga through order and wallet)', () => {
  let rich: Member;
  let p: Awaited<ReturnType<typeof product>>;
  let noAuto: Awaited<ReturnType<typeof product>>;
  let readOnly: Awaited<ReturnType<typeof product>>;
  beforeAll(async () => {
    rich = await member(100_000);
    p = await product({ min: 10, max: 1000, point: 2.5, enableAuto: true }, rich);
    noAuto = await product({ min: 10, max: 1000, point: 1, enableAuto: false }, rich);
    readOnly = await product({ isReadOnly: true });
  });

  it('refuses guests before anything is stored', async () => {
    const res = await api('POST', '/service/order', { body: { serviceId: p.id, link: 'x', amount: 10 } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('GUEST_NOT_ALLOWED');
    expect((await api('GET', '/service/order-history')).body.code).toBe('GUEST_NOT_ALLOWED');
    expect((await api('GET', '/service/order-history', { token: 'expired.or.bad' })).body.code).toBe('TOKEN_INVALID');
  });

  it('checks every rule in the spec order with its Korean message and takes nothing', async () => {
    const before = await pointDeciOf(rich);
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ link: 'x', amount: 10 }, 400, 'SERVICE_REQUIRED', '서비스를 선택해 주세요.'],
      [{ serviceId: 987654321, link: 'x', amount: 10 }, 400, 'SERVICE_REQUIRED', '서비스를 선택해 주세요.'],
      [{ serviceId: p.id, link: '  ', amount: 1 }, 400, 'LINK_REQUIRED', '링크를 입력해 주세요.'],
      [{ serviceId: p.id, link: 'x', amount: 9 }, 400, 'AMOUNT_BELOW_MIN', '최소 주문 수량보다 적습니다. (최소 10)'],
      [{ serviceId: p.id, link: 'x', amount: 1001 }, 400, 'AMOUNT_ABOVE_MAX', '최대 주문 수량을 초과했습니다. (최대 1,000)'],
      [{ serviceId: p.id, link: 'x', amount: 10, runs: 1, interval: 60 }, 400, 'RUNS_TOO_FEW', '자동 주문 횟수는 2회 이상이어야 합니다.'],
      [{ serviceId: p.id, link: 'x', amount: 10, runs: 2.5, interval: 60 }, 400, 'RUNS_NOT_INTEGER', '자동 주문 횟수는 정수로 입력해 주세요.'],
      [{ serviceId: p.id, link: 'x', amount: 10, runs: 2, interval: 59 }, 400, 'INTERVAL_TOO_SHORT', '자동 주문 간격은 60분 이상이어야 합니다.'],
      [{ serviceId: p.id, link: 'x', amount: 10, runs: 2, interval: 60.5 }, 400, 'INTERVAL_NOT_INTEGER', '자동 주문 간격은 분 단위 정수로 입력해 주세요.'],
      [{ serviceId: p.id, link: 'x', amount: 10, runs: 0, interval: 60 }, 400, 'RUNS_TOO_FEW', '자동 주문 횟수는 2회 이상이어야 합니다.'],
      [{ serviceId: noAuto.id, link: 'x', amount: 10, runs: 2, interval: 60 }, 400, 'AUTO_NOT_SUPPORTED', '자동 주문을 지원하지 않는 서비스입니다.'],
      [{ serviceId: readOnly.id, link: 'x', amount: 10 }, 403, 'SERVICE_READ_ONLY', '현재 주문할 수 없는 서비스입니다.'],
    ];
    for (const [body, status, code, message] of cases) {
      const res = await order(rich, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body, JSON.stringify(body)).toMatchObject({ code, message });
    }
    expect((await order(rich, { serviceId: { x: 1 }, link: 'x', amount: 10 })).body.code).toBe('VALIDATION_FAILED');
    expect(await pointDeciOf(rich)).toBe(before);
  });

  it('refuses every order with 503 SERVICE_CHECK while the service check is on', async () => {
    await setSettings({ ENABLE_SERVICE_CHECK: 'true' });
    try {
      const res = await eventually(() => order(rich, { serviceId: p.id, link: 'x', amount: 10 }), (r) => r.status === 503, 20_000);
      expect(res.body).toEqual({ code: 'SERVICE_CHECK', message: '서비스 점검 중에는 주문할 수 없습니다.' });
    } finally {
      await setSettings({ ENABLE_SERVICE_CHECK: 'false' });
    }
    await eventually(() => order(rich, { serviceId: p.id, link: 'x', amount: 0 }), (r) => r.body.code === 'AMOUNT_BELOW_MIN', 20_000);
  });

  it('top-up → approval → order accepted → balance, history and ledger agree', async () => {
    const m = await member(10_000);
    const placed = await order(m, { serviceId: p.id, link: 'my_profile', amount: 100 });
    expect(placed.status).toBe(201);
    expect(placed.body.outcome).toBe('accepted');
    expect(placed.body.order).toMatchObject({ kind: 'order', status: 0, payment: 'paid', point: 250, pointDeci: 2500, amount: 100, link: 'my_profile', linkUrl: 'https://www.instagram.com/my_profile' });
    expect(await pointDeciOf(m)).toBe(97_500);
    const list = await history(m);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: (placed.body.order as Order).id, serviceId: p.id, point: 250, pointDeci: 2500, amount: 100, status: 0, startCount: null, autoOrderId: null });
    const ledger = await api<Page<{ deltaDeci: number; balanceAfterDeci: number; kind: string }>>('GET', `/admin/accounts/${m.userId}/ledger`, { token: await asAdmin() });
    expect(ledger.body.items.map((e) => [e.deltaDeci, e.balanceAfterDeci])).toEqual([[-2500, 97_500], [100_000, 100_000]]);
  });

  it('charges the web order the unit price its screen showed, or places nothing (409 PRICE_CHANGED) after a repricing', async () => {
    const m = await member(10_000);
    const repriced = await product({ min: 10, max: 1000, point: 5 }, m);
    const shown = repriced.unitPriceDeci; // 50: what the order screen read before the repricing
    const patched = await api('PATCH', `/admin/services/${repriced.id}`, { token: await asAdmin(), body: { point: 2.8 } });
    expect(patched.status).toBe(200);
    // Until order's replica has the new price, the old price is still the one charged (a member
    // without points gets 402 then): wait for the replica with that member, so nothing is bought.
    const broke = await member();
    await eventually(() => order(broke, { serviceId: repriced.id, link: 'https://x.example/price', amount: 100, unitPriceDeci: shown }), (r) => r.status === 409, 20_000);
    // Then the old price shown is refused and nothing is taken.
    const refused = await order(m, { serviceId: repriced.id, link: 'https://x.example/price', amount: 100, unitPriceDeci: shown });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'PRICE_CHANGED', message: '가격이 변경되었습니다. 확인 후 다시 주문해 주세요.' });
    expect(await pointDeciOf(m)).toBe(100_000);
    expect((await history(m)).items).toEqual([]);
    // The screen re-reads the catalogue and shows 2.8원: the order is placed at that price.
    const services = await api<Array<{ id: number; unitPriceDeci: number }>>('GET', '/service/services', { token: m.token });
    const now = services.body.find((s) => s.id === repriced.id)!.unitPriceDeci;
    expect(now).toBe(28);
    const placed = await order(m, { serviceId: repriced.id, link: 'https://x.example/price', amount: 100, unitPriceDeci: now });
    expect(placed.status).toBe(201);
    expect(placed.body.order).toMatchObject({ pointDeci: 2800, payment: 'paid' });
    expect(await pointDeciOf(m)).toBe(100_000 - 2800);
  });

  it('answers 402 INSUFFICIENT_POINTS when the balance does not cover the price, and takes nothing', async () => {
    const m = await member(5_000);
    const res = await order(m, { serviceId: p.id, link: 'https://x.example/a', amount: 1000, runs: 3, interval: 60 }); // 7,500 won
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.', orderId: expect.any(Number) });
    expect(await pointDeciOf(m)).toBe(50_000);
    expect((await history(m)).items).toEqual([]);
    const broke = await member();
    const refused = await order(broke, { serviceId: p.id, link: 'https://x.example/b', amount: 10 });
    expect(refused.status).toBe(402);
    const patch = await api('PATCH', `/admin/orders/${String(refused.body.orderId)}`, { token: await asAdmin(), body: { status: 1 } });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('ORDER_NOT_PAID');
  });

  it('places a web order once for 20 concurrent requests with one Idempotency-Key, charging once', async () => {
    const m = await member(10_000);
    const headers = { 'idempotency-key': `web-${m.userId}` };
    const body = { serviceId: p.id, link: 'https://x.example/idem', amount: 100 }; // 250 won
    const answers = await Promise.all(Array.from({ length: 20 }, () => api<{ outcome: string; order: Order }>('POST', '/service/order', { token: m.token, headers, body })));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 201));
    expect(new Set(answers.map((a) => a.body.order.id)).size).toBe(1);
    expect(answers[0]!.body.order).toMatchObject({ payment: 'paid', status: 0, pointDeci: 2500 });
    expect(await pointDeciOf(m)).toBe(100_000 - 2500);
    expect((await history(m)).items.map((o) => o.id)).toEqual([answers[0]!.body.order.id]);
  });

  it('fires an auto order into child orders, one per run, and completes it', async () => {
    const m = await member(10_000);
    const placed = await order(m, { serviceId: p.id, link: 'https://x.example/auto', amount: 10, runs: 3, interval: 60 });
    expect(placed.status).toBe(201);
    const auto = placed.body.order as Auto;
    expect(auto).toMatchObject({ kind: 'auto', runs: 3, interval: 60, amount: 10, totalQuantity: 30, pointDeci: 750 });
    expect(await pointDeciOf(m)).toBe(99_250);
    const done = await eventually(() => autoHistory(m), (page) => page.items[0]?.status === 1, 30_000);
    expect(done.items[0]).toMatchObject({ id: auto.id, completed: 3, runs: 3, status: 1, point: 75 });
    const children = (await history(m)).items;
    expect(children).toHaveLength(3);
    expect(children.every((c) => c.autoOrderId === auto.id && c.amount === 10 && c.status === 0)).toBe(true);
    expect((await autoHistory(m, '?status=1')).items.map((a) => a.id)).toEqual([auto.id]);
    expect((await autoHistory(m, '?status=0')).items).toEqual([]);
    // runs were paid up front: the children cost nothing more
    expect(await pointDeciOf(m)).toBe(99_250);
    const late = await api('POST', `/service/auto-order/${auto.id}/cancel`, { token: m.token });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'AUTO_ORDER_NOT_ACTIVE', message: '진행 중인 자동 주문만 취소할 수 있습니다.' });
  });

  it('cancels an active auto order and refunds the runs not placed', async () => {
    const m = await member(10_000);
    const other = await member();
    // 600 "minutes" × 30 ms = 18 s between runs: the first run fires at once, the rest wait
    const placed = await order(m, { serviceId: p.id, link: 'https://x.example/c', amount: 20, runs: 5, interval: 600 });
    const auto = placed.body.order as Auto;
    expect(await pointDeciOf(m)).toBe(100_000 - 2500);
    await eventually(() => autoHistory(m), (page) => page.items[0]?.completed === 1, 20_000);
    expect((await api('POST', `/service/auto-order/${auto.id}/cancel`, { token: other.token })).status).toBe(404);
    const cancel = await api<{ autoOrder: Auto; refund: number; refundDeci: number }>('POST', `/service/auto-order/${auto.id}/cancel`, { token: m.token });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ refund: 200, refundDeci: 2000, autoOrder: { id: auto.id, status: 2, completed: 1 } });
    await balanceBecomes(m, 100_000 - 500);
    expect((await autoHistory(m, '?status=2')).items[0]).toMatchObject({ id: auto.id, status: 2, point: 50, pointDeci: 500 });
    expect((await api('POST', `/service/auto-order/${auto.id}/cancel`, { token: m.token })).body.code).toBe('AUTO_ORDER_NOT_ACTIVE');
    expect((await api('POST', '/service/auto-order/abc/cancel', { token: m.token })).status).toBe(404);
  });

  it('lets operators move orders: partial refunds the remains, canceled refunds all, final statuses stay', async () => {
    const m = await member(10_000);
    const admin = await asAdmin();
    const a = (await order(m, { serviceId: p.id, link: 'https://x.example/p', amount: 100 })).body.order as Order; // 250 won
    const b = (await order(m, { serviceId: p.id, link: 'https://x.example/q', amount: 200 })).body.order as Order; // 500 won
    expect(await pointDeciOf(m)).toBe(100_000 - 7500);
    expect((await api('PATCH', `/admin/orders/${a.id}`, { token: m.token, body: { status: 1 } })).status).toBe(403);

    const started = await api('PATCH', `/admin/orders/${a.id}`, { token: admin, body: { status: 1, startCount: 1500 } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ id: a.id, status: 1, startCount: 1500 });
    const partial = await api('PATCH', `/admin/orders/${a.id}`, { token: admin, body: { status: 3, remains: 40 } });
    expect(partial.body).toMatchObject({ status: 3, remains: 40 });
    await balanceBecomes(m, 100_000 - 7500 + 1000); // 40 × 2.5 won back
    const final = await api('PATCH', `/admin/orders/${a.id}`, { token: admin, body: { status: 2 } });
    expect(final.status).toBe(409);
    expect(final.body.code).toBe('ORDER_STATUS_FINAL');

    expect((await api('PATCH', `/admin/orders/${b.id}`, { token: admin, body: { status: 5 } })).body).toMatchObject({ status: 5 });
    await balanceBecomes(m, 100_000 - 7500 + 1000 + 5000);
    expect((await api('PATCH', `/admin/orders/${b.id}`, { token: admin, body: { status: 1 } })).body.code).toBe('ORDER_STATUS_FINAL');

    const mine = await history(m);
    expect(mine.items.map((o) => [o.id, o.status])).toEqual([[b.id, 5], [a.id, 3]]);
    expect((await history(m, '?status=3')).items.map((o) => o.id)).toEqual([a.id]);
    const listed = await api<Page<Order>>('GET', `/admin/orders?userId=${m.userId}`, { token: admin });
    expect(listed.body.items.map((o) => o.id)).toEqual([b.id, a.id]);
    expect((await api('GET', '/admin/orders?status=9', { token: admin })).status).toBe(400);
    expect((await api('PATCH', '/admin/orders/999999999', { token: admin, body: { status: 1 } })).status).toBe(404);
    const ledger = await api<Page<{ deltaDeci: number }>>('GET', `/admin/accounts/${m.userId}/ledger`, { token: admin });
    expect(ledger.body.items.map((e) => e.deltaDeci)).toEqual([5000, 1000, -5000, -2500, 100_000]);
  });
});

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, reconcile } from '@smm/reconcile';
import { type Answer, api, asAdmin, stack } from './support/client.ts';
import { type Member, ledgerCheck, member, orderServiceUp, pointDeciOf, product } from './support/money.ts';

type Result = { index: number; status: 'placed' | 'refused' | 'not_placed'; orderId?: number; chargeDeci?: number; code?: string; message?: string };
type MassAnswer = { results: Result[]; placed: number; chargedDeci: number; code?: string };
type Line = { serviceId: number; link: string; amount: number; unitPriceDeci: number };

/** A mass order as the web page sends it; `key` null sends none. */
const massOrder = (m: Member, lines: unknown, key: string | null = randomUUID()) =>
  api<MassAnswer>('POST', '/service/mass-order', { token: m.token, body: { lines }, headers: key === null ? {} : { 'idempotency-key': key } });

const historyOf = async (m: Member) =>
  (await api<{ items: Array<{ id: number; link: string; pointDeci: number }> }>('GET', '/service/order-history?pageSize=100', { token: m.token })).body.items;

/** The member's ledger: every entry, and the sum that must equal the balance. */
async function ledgerOf(m: Member) {
  const res = await api<{ items: Array<{ deltaDeci: number; balanceAfterDeci: number; referenceId: string }> }>('GET', `/admin/accounts/${m.userId}/ledger?pageSize=100`, { token: await asAdmin() });
  return res.body.items;
}

/**
 * The cross-service reconciliation (`npm run reconcile`) over the devstack, narrowed to this file's
 * members: other files of the shared devstack leave findings of their own on purpose (forged events).
 */
async function reconcileMembers(members: Member[]): Promise<string[]> {
  const report = await reconcile({ url: stack().mongoUrl, readPreference: 'primary' });
  const ours = new Set(members.map((m) => m.userId));
  expect(report.total, formatReport(report).join('\n')).toBe(report.discrepancies.length); // none left out of the list
  return report.discrepancies.filter((d) => d.userId !== undefined && ours.has(d.userId)).map((d) => `${d.rule}: ${d.detail}`);
}

describe.runIf(orderServiceUp())('mass order (대량 주문, issue 40)', () => {
  let p: Awaited<ReturnType<typeof product>>;
  let redis: Redis | undefined;
  const members: Member[] = [];
  const line = (link: string, amount: number): Line => ({ serviceId: p.id, link, amount, unitPriceDeci: p.unitPriceDeci });

  beforeAll(async () => {
    const probe = await member();
    members.push(probe);
    p = await product({ min: 10, max: 1000, point: 2.5 }, probe); // 1,000 units = 2,500 won
    const url = stack().redisUrl;
    if (url) redis = new Redis(url.startsWith('redis://') ? url : `redis://${url}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
  });
  afterAll(() => redis?.disconnect());

  it('refuses a guest, a missing key, an empty or over-long paste and duplicate lines, and places nothing', async () => {
    const m = await member();
    members.push(m);
    expect((await api('POST', '/service/mass-order', { body: { lines: [line('a', 10)] }, headers: { 'idempotency-key': 'k1' } })).body).toMatchObject({ code: 'GUEST_NOT_ALLOWED' });
    expect((await massOrder(m, [line('a', 10)], null)).body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED', message: '대량 주문에는 Idempotency-Key 헤더가 필요합니다.' });
    const empty = await massOrder(m, []);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ message: '주문할 줄을 입력해 주세요.' });
    const tooMany = await massOrder(m, Array.from({ length: 101 }, (_, i) => line(`u${i}`, 10)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ message: '한 번에 최대 100줄까지 주문할 수 있습니다.' });
    const twice = await massOrder(m, [line('a', 10), line('b', 10), line('a', 20)]);
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'DUPLICATE_LINES', message: '3번째 줄: 1번째 줄과 같은 서비스·링크입니다. 한 줄로 합쳐 주세요.' });
    expect(await historyOf(m)).toEqual([]);
  });

  it('places each line as its own order; when the balance runs out the rest is refused with the reason and nothing is charged for it', async () => {
    const m = await member(5_000);
    members.push(m);
    const lines = [line('https://x.example/a', 1000), line('https://x.example/b', 5), line('https://x.example/c', 1000), line('https://x.example/d', 1000), line('https://x.example/e', 10)];
    const res = await massOrder(m, lines);
    expect(res.status).toBe(200);
    const [a, b, c, d, e] = res.body.results;
    expect(a).toMatchObject({ index: 0, status: 'placed', chargeDeci: 25_000, orderId: expect.any(Number) });
    expect(b).toMatchObject({ index: 1, status: 'refused', code: 'AMOUNT_BELOW_MIN', message: '최소 주문 수량보다 적습니다. (최소 10)' });
    expect(c).toMatchObject({ index: 2, status: 'placed', chargeDeci: 25_000 });
    expect(d).toMatchObject({ index: 3, status: 'refused', code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.' });
    expect(e).toMatchObject({ index: 4, status: 'not_placed', code: 'INSUFFICIENT_POINTS', message: '앞선 줄에서 포인트가 부족하여 주문하지 않았습니다. 차감된 포인트는 없습니다.' });
    expect(res.body).toMatchObject({ placed: 2, chargedDeci: 50_000 });
    expect(await pointDeciOf(m)).toBe(0);
    const orders = await historyOf(m);
    expect(orders.map((o) => o.id).sort()).toEqual([a!.orderId, c!.orderId].sort());
    const ledger = await ledgerOf(m);
    expect(ledger.map((x) => x.deltaDeci).sort((x, y) => x - y)).toEqual([-25_000, -25_000, 50_000]);
    expect(ledger.reduce((sum, x) => sum + x.deltaDeci, 0)).toBe(0);
  });

  it('places every line once under a double press, a dropped connection and a BFF that forgot its answer', async () => {
    const m = await member(10_000); // 100,000 deci: 4 lines of 25,000
    members.push(m);
    const lines = [line('https://x.example/1', 1000), line('https://x.example/2', 1000), line('https://x.example/3', 1000)];
    const key = randomUUID();
    // Two presses at once: one batch runs, the other waits for its answer.
    const [first, second] = await Promise.all([massOrder(m, lines, key), massOrder(m, lines, key)]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect([first.headers.get('idempotent-replayed'), second.headers.get('idempotent-replayed')]).toContain('true');
    const ids = first.body.results.map((r) => r.orderId);
    expect(first.body.placed).toBe(3);

    // A connection that drops mid-request: the batch still finishes once, the resend gets its answer.
    const dropKey = randomUUID();
    const dropLines = [line('https://x.example/4', 1000)];
    const abort = new AbortController();
    const dropped = fetch(`${stack().bffUrl}/api/service/mass-order`, {
      method: 'POST',
      signal: abort.signal,
      headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json', 'idempotency-key': dropKey },
      body: JSON.stringify({ lines: dropLines }),
    }).catch(() => null);
    abort.abort();
    await dropped;
    let resent: Answer<MassAnswer>;
    do resent = await massOrder(m, dropLines, dropKey);
    while (resent.status === 409 && resent.body.code === 'IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(resent.status).toBe(200);
    expect(resent.body.placed).toBe(1);

    // The same key with another paste is refused and places nothing.
    const reused = await massOrder(m, [line('https://x.example/9', 10)], key);
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });

    // A BFF that crashed before remembering the answer: each line's own key at the order service
    // answers with the order already placed — no second charge.
    expect(redis, 'the devstack printed no Redis address').toBeDefined();
    if (redis) {
      await redis.connect();
      expect(await redis.del(`bff:idem:${m.userId}:${key}`)).toBe(1);
      const again = await massOrder(m, lines, key);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(again.body.results.map((r) => r.orderId)).toEqual(ids);
    }

    expect((await historyOf(m)).length).toBe(4);
    expect(await pointDeciOf(m)).toBe(0);
    const ledger = await ledgerOf(m);
    expect(ledger).toHaveLength(5);
    expect(new Set(ledger.map((x) => x.referenceId)).size).toBe(5);
    expect(ledger.reduce((sum, x) => sum + x.deltaDeci, 0)).toBe(0);
  });

  it('ends with the ledger check and the cross-service reconciliation clean', async () => {
    const check = await ledgerCheck();
    expect(check.code, check.output).toBe(0);
    expect(await reconcileMembers(members)).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, client, replicated, startHarness, startInfra } from './support.ts';

let infra: Awaited<ReturnType<typeof startInfra>>;
let h: Harness;

beforeAll(async () => {
  infra = await startInfra();
  h = await startHarness(infra);
  await h.stand.product({ serviceId: 1, text: '인스타그램 좋아요', platformId: 1, min: 10, max: 1000, unitPriceDeci: 25 });
  await replicated(h, 1);
});

afterAll(async () => {
  await h?.stop();
  await infra?.stop();
});

/** `order_saga_duration_seconds_count{outcome}` as /metrics serves it (0 before the first observation). */
async function sagaCount(outcome: 'paid' | 'rejected'): Promise<number> {
  const text = await (await fetch(`${h.base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`order_saga_duration_seconds_count{outcome="${outcome}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('saga latency at /metrics', () => {
  it('observes each order once, from OrderPlaced to the applied wallet answer, by outcome', async () => {
    const before = { paid: await sagaCount('paid'), rejected: await sagaCount('rejected') };
    const rich = `m-${randomUUID().slice(0, 8)}`;
    const poor = `m-${randomUUID().slice(0, 8)}`;
    h.stand.balances.set(rich, 100_000);
    const paid = await client(h.base, rich).post<{ outcome: string }>('/orders?waitMs=10000', { serviceId: 1, link: 'https://a.example/p', amount: 10 });
    const rejected = await client(h.base, poor).post<{ code: string }>('/orders?waitMs=10000', { serviceId: 1, link: 'https://a.example/p', amount: 10 });
    expect([paid.body.outcome, rejected.body.code]).toEqual(['accepted', 'INSUFFICIENT_POINTS']);
    expect({ paid: await sagaCount('paid'), rejected: await sagaCount('rejected') }).toEqual({ paid: before.paid + 1, rejected: before.rejected + 1 });
    const text = await (await fetch(`${h.base}/metrics`)).text();
    expect(text).toContain('# TYPE order_saga_duration_seconds histogram');
  }, 60_000);
});

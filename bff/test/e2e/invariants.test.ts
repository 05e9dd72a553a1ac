import { Kafka, type Message, logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { ChargeStatus, Topics } from '@smm/contracts';
import { api, asAdmin, devstackKafkaSasl, stack } from './support/client.ts';
import { type Member, apiKeyOf, balanceBecomes, fund, keyed, ledgerCheck, member, order, orderServiceUp, pointDeciOf, product, requestTopUp, sleep } from './support/money.ts';

type Page<T> = { items: T[]; hasNext: boolean };
type Order = { id: number; status: number; payment: string; pointDeci: number; autoOrderId: number | null };

async function all<T>(path: string, token: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const res = await api<Page<T>>('GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}&pageSize=100`, { token });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...res.body.items);
    if (!res.body.hasNext) return items;
  }
}

/** Everything a member can see of their money, for before/after comparisons. */
async function snapshot(m: Member) {
  const admin = await asAdmin();
  return {
    pointDeci: await pointDeciOf(m),
    orders: await all<Order>('/service/order-history', m.token),
    autos: await all<Record<string, unknown>>('/service/auto-order-history', m.token),
    topUps: await all<Record<string, unknown>>('/service/point-history', m.token),
    ledger: await all<Record<string, unknown>>(`/admin/accounts/${m.userId}/ledger`, admin),
    rejected: await all<Order>(`/admin/orders?userId=${m.userId}&payment=rejected`, admin),
  };
}

const kafka = () => new Kafka({ brokers: stack().kafkaBrokers.split(','), clientId: 'bff-e2e-replay', sasl: devstackKafkaSasl(), logLevel: logLevel.NOTHING });

/** Waits until every consumer group of the services has committed up to the end of what it reads. */
async function consumersCaughtUp(client: Kafka, topics: string[]): Promise<void> {
  const admin = client.admin();
  await admin.connect();
  try {
    await eventually(
      async () => {
        const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => !g.startsWith('bff-e2e'));
        const behind: string[] = [];
        for (const topic of topics) {
          const ends = await admin.fetchTopicOffsets(topic);
          for (const groupId of groups) {
            const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
            for (const p of committed!.partitions) {
              const end = Number(ends.find((e) => e.partition === p.partition)?.high ?? 0);
              if (Number(p.offset) >= 0 && Number(p.offset) < end) behind.push(`${groupId} ${topic}/${p.partition} ${p.offset}<${end}`);
            }
          }
        }
        return behind;
      },
      (behind) => behind.length === 0,
      90_000,
    );
  } finally {
    await admin.disconnect();
  }
}

describe.runIf(orderServiceUp())('money invariants', () => {
  it('200 concurrent orders against a balance that covers exactly 50: 50 paid, 150 refused, balance 0, ledger consistent', async () => {
    const m = await member(15_000);
    const p = await product({ min: 10, max: 1000, point: 2.5 }, m); // 120 × 2.5 = 300 won, 50 × 300 = 15,000
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => order(m, { serviceId: p.id, link: `https://x.example/burst/${i}`, amount: 120 })));
    const statuses = answers.map((a) => a.status);
    const count = (s: number) => statuses.filter((x) => x === s).length;
    console.log(`200 concurrent orders answered in ${Date.now() - started} ms: ${[201, 402, 503].map((s) => `${s}×${count(s)}`).join(' ')}`);
    // 503 PAYMENT_TIMEOUT: the wallet did not answer within the wait and the order was given up (a
    // debit that still came is refunded). 503 SERVICE_TIMEOUT: the BFF stopped waiting; the order
    // is judged by where it ends, like every other.
    const odd = answers.find((a) => ![201, 402].includes(a.status) && !['SERVICE_TIMEOUT', 'PAYMENT_TIMEOUT'].includes(String(a.body.code)));
    expect(odd, JSON.stringify(odd?.body)).toBeUndefined();
    expect(count(201)).toBeLessThanOrEqual(50);
    const givenUp = answers.filter((a) => a.body.code === 'PAYMENT_TIMEOUT').length;
    const admin = await asAdmin();
    const everyOrder = async () => {
      const [paid, rejected, awaiting] = await Promise.all([
        all<Order>(`/admin/orders?userId=${m.userId}&payment=paid`, admin),
        all<Order>(`/admin/orders?userId=${m.userId}&payment=rejected`, admin),
        all<Order>(`/admin/orders?userId=${m.userId}&payment=awaiting`, admin),
      ]);
      return { paid: paid.length, rejected: rejected.length, awaiting: awaiting.length };
    };
    const settled = await eventually(everyOrder, (n) => n.awaiting === 0 && n.paid + n.rejected === 200, 90_000);
    console.log(`all 200 settled ${Date.now() - started} ms after the burst began`);
    // Every order answered 201 is paid; without given-up orders the balance buys exactly 50.
    expect(settled.paid).toBeGreaterThanOrEqual(count(201));
    if (givenUp === 0) expect(settled).toEqual({ paid: 50, rejected: 150, awaiting: 0 });
    expect(await all<Order>('/service/order-history', m.token)).toHaveLength(settled.paid);
    const balance = 150_000 - 3000 * settled.paid;
    await balanceBecomes(m, balance, 30_000); // refunds of given-up orders may still be in flight
    const ledger = await all<{ deltaDeci: number; balanceAfterDeci: number; referenceId: string }>(`/admin/accounts/${m.userId}/ledger`, admin);
    const refunds = ledger.filter((e) => e.referenceId.endsWith('-unpaid'));
    expect(refunds.length).toBeLessThanOrEqual(givenUp);
    expect(ledger).toHaveLength(1 + settled.paid + 2 * refunds.length);
    expect(ledger.reduce((sum, e) => sum + e.deltaDeci, 0)).toBe(balance);
    expect(new Set(ledger.map((e) => e.referenceId)).size).toBe(ledger.length);
    expect(ledger[0]!.balanceAfterDeci).toBe(balance);
    const check = await ledgerCheck();
    expect(check.code, check.output).toBe(0);
  }, 180_000);

  it('replaying every topic from the start into the consumers changes nothing', async () => {
    // some history of every kind first: top-ups approved, rejected and pending, orders paid and
    // refused, an auto order completed and one cancelled, operator refunds, API orders
    const m = await member(20_000);
    const p = await product({ min: 10, max: 1000, point: 2.5, enableAuto: true }, m);
    const a = (await order(m, { serviceId: p.id, link: 'https://x.example/r1', amount: 100 })).body.order as Order;
    await order(m, { serviceId: p.id, link: 'https://x.example/r2', amount: 10, runs: 2, interval: 60 });
    const cancelled = (await order(m, { serviceId: p.id, link: 'https://x.example/r3', amount: 10, runs: 4, interval: 6000 })).body.order as Order;
    const admin = await asAdmin();
    await api('PATCH', `/admin/orders/${a.id}`, { token: admin, body: { status: 3, remains: 30 } });
    await eventually(() => all<{ completed: number; id: number }>('/service/auto-order-history', m.token), (autos) => autos.find((x) => x.id === cancelled.id)?.completed === 1, 20_000);
    await api('POST', `/service/auto-order/${cancelled.id}/cancel`, { token: m.token });
    const rejectedTopUp = await requestTopUp(m, { name: '거절', point: 5000, feeType: 'none' });
    await api('POST', `/admin/top-ups/${String(rejectedTopUp.body.id)}/reject`, { token: admin });
    await requestTopUp(m, { name: '대기', point: 5000, feeType: 'none' });
    await keyed('POST', '/order', await apiKeyOf(m), { body: { serviceId: p.id, link: 'https://x.example/api', amount: 10 } });
    const poor = await member();
    await order(poor, { serviceId: p.id, link: 'x', amount: 10 });
    const other = await member(5_000);
    await fund(other, 5_000);

    const client = kafka();
    const topics = Object.values(Topics);
    await consumersCaughtUp(client, topics);
    await sleep(2000); // auto order runs and refunds in flight
    await consumersCaughtUp(client, topics);
    const members = [m, poor, other];
    // Pending top-ups expire on the clock (TOPUP_EXPIRY_SECONDS is 20 s here): let them, so the
    // snapshots differ only by what the replay did, never by a request expiring in between.
    const pendingTopUps = async () => (await Promise.all(members.map((x) => all<{ status: number }>('/service/point-history', x.token)))).flat().filter((t) => t.status === ChargeStatus.values.PENDING).length;
    await eventually(pendingTopUps, (n) => n === 0, 90_000);
    await consumersCaughtUp(client, topics);
    const before = await Promise.all(members.map(snapshot));

    // a copy of every event ever published, in order, produced again
    const copies = new Map<string, Message[]>();
    const consumer = client.consumer({ groupId: `bff-e2e-replay-${Date.now()}` });
    const admin_ = client.admin();
    await admin_.connect();
    const ends = new Map<string, number>();
    for (const topic of topics) ends.set(topic, (await admin_.fetchTopicOffsets(topic)).reduce((n, p) => n + Number(p.high), 0));
    await admin_.disconnect();
    let seen = 0;
    const total = [...ends.values()].reduce((n, v) => n + v, 0);
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        if (message.value === null) return;
        const list = copies.get(topic) ?? [];
        list.push({ key: message.key, value: message.value, headers: message.headers });
        copies.set(topic, list);
        seen++;
      },
    });
    await eventually(() => seen, (n) => n >= total, 60_000);
    await consumer.disconnect();
    const producer = client.producer();
    await producer.connect();
    for (const [topic, messages] of copies) {
      for (let i = 0; i < messages.length; i += 500) await producer.send({ topic, messages: messages.slice(i, i + 500) });
    }
    await producer.disconnect();
    expect(seen).toBeGreaterThan(50);

    await consumersCaughtUp(client, topics);
    await sleep(3000); // anything a replay might wrongly cause (runs, refunds) has time to show
    await consumersCaughtUp(client, topics);
    const after = await Promise.all(members.map(snapshot));
    expect(after).toEqual(before);
    const check = await ledgerCheck();
    expect(check.code, check.output).toBe(0);
    await balanceBecomes(m, before[0]!.pointDeci);
  }, 240_000);
});

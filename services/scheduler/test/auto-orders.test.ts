import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderAccepted } from '@smm/contracts';
import { callerHeaders, forgedCallerHeaders } from '@smm/testkit';
import {
  type Scheduler,
  collectSchedulerEvents,
  eventually,
  intervalMs,
  kafkaOf,
  runsOf,
  sleep,
  startInfra,
  startScheduler,
  upstream,
} from './support.ts';

let infra: Awaited<ReturnType<typeof startInfra>>;
let scheduler: Scheduler;
let order: Awaited<ReturnType<typeof upstream>>;
let out: Awaited<ReturnType<typeof collectSchedulerEvents>>;

beforeAll(async () => {
  infra = await startInfra();
  // A poll interval far longer than any test: runs must fire on their own timers (wake-up on a new
  // schedule, sleep until the soonest due time), not by luck of the next poll.
  scheduler = await startScheduler(infra, { pollMs: 60_000 });
  order = await upstream(infra);
  out = await collectSchedulerEvents(kafkaOf(infra));
});

afterAll(async () => {
  await out?.stop();
  await order?.stop();
  await scheduler?.close();
  await infra?.stop();
});

type Pending = { items: Array<Record<string, unknown>> };
const pending = async (query = '') =>
  (await (await fetch(`${scheduler.base}/schedules${query}`, { headers: callerHeaders({ to: 'scheduler', userId: 'admin-1', role: 'admin' }) })).json()) as Pending;

describe('auto-order runs on scheduler.events.v1', () => {
  it('fires runs 1, 2 and 3 of an accepted auto order, once each, in order, one interval apart', async () => {
    const accepted = order.autoAccepted(101, 3, 60);
    await order.publishOrder(accepted);

    await eventually(() => runsOf(out.received, 101).length, (n) => n >= 3, 20_000);
    await sleep(intervalMs(60) * 1.5); // long enough for a 4th run or a duplicate to show
    expect(runsOf(out.received, 101)).toEqual([1, 2, 3]);

    const fired = out.received.filter((r) => r.event.aggregateId === 'order-101');
    for (const [i, { event }] of fired.entries()) {
      expect(event).toMatchObject({ type: 'AutoOrderRunDue', correlationId: 'corr-101', causationId: accepted.eventId, data: { autoOrderId: 101, userId: 'member-1', run: i + 1 } });
    }
    // Due times sit on the grid: acceptance, then one interval each.
    const dueAt = fired.map(({ event }) => Date.parse((event.data as { dueAt: string }).dueAt));
    expect(dueAt[0]).toBeLessThanOrEqual(Date.parse(accepted.occurredAt));
    expect(dueAt[1]! - dueAt[0]!).toBe(intervalMs(60));
    expect(dueAt[2]! - dueAt[1]!).toBe(intervalMs(60));
    // No run was published before it was due…
    // …and each went out soon after it was due, not at the next minute-long poll.
    for (const [i, r] of fired.entries()) {
      expect(r.at).toBeGreaterThanOrEqual(dueAt[i]!);
      expect(r.at - dueAt[i]!).toBeLessThan(3000);
    }
    expect((await pending('?kind=auto')).items.find((s) => s.autoOrderId === 101)).toBeUndefined();
  });

  it('schedules nothing for a one-off order', async () => {
    await order.publishOrder(OrderAccepted.create('order-102', { orderId: 102, kind: 'order', userId: 'member-1', runs: 0, interval: 0 }, { correlationId: 'c-102' }));
    await order.publishOrder(order.autoAccepted(103, 2, 60)); // a later auto order on the same topic proves 102 was read
    await eventually(() => runsOf(out.received, 103).length, (n) => n >= 1, 20_000);
    expect(runsOf(out.received, 102)).toEqual([]);
    expect(await scheduler.schedules.find(102)).toBeNull();
  });

  it('keeps one schedule however often OrderAccepted arrives (redelivery, or a re-announcement)', async () => {
    const accepted = order.autoAccepted(104, 2, 60);
    await order.publishOrder(accepted, accepted);
    await order.publishOrder(accepted, order.autoAccepted(104, 2, 60));
    await eventually(() => runsOf(out.received, 104).length, (n) => n >= 2, 20_000);
    await order.publishOrder(accepted); // replayed after the schedule ran out
    await sleep(intervalMs(60) * 1.5);
    expect(runsOf(out.received, 104)).toEqual([1, 2]);
    expect((await scheduler.schedules.find(104))?.schedule).toMatchObject({ state: 'exhausted', nextRun: 3 });
  });

  it('stops firing once the auto order is cancelled', async () => {
    await order.publishOrder(order.autoAccepted(105, 5, 100));
    await eventually(() => runsOf(out.received, 105).length, (n) => n >= 1, 20_000);
    await order.publishOrder(order.canceled(105, 1, 5));
    await eventually(() => scheduler.schedules.find(105), (s) => s?.schedule.state === 'canceled', 20_000);
    const firedBeforeCancel = runsOf(out.received, 105);
    await sleep(intervalMs(100) * 2.5);
    expect(runsOf(out.received, 105)).toEqual(firedBeforeCancel);
    expect(firedBeforeCancel.length).toBeLessThan(5);
    expect(firedBeforeCancel[0]).toBe(1);
  });

  it('ignores an OrderAccepted replayed after the cancellation', async () => {
    const accepted = order.autoAccepted(106, 4, 100);
    await order.publishOrder(accepted);
    await eventually(() => runsOf(out.received, 106).length, (n) => n >= 1, 20_000);
    await order.publishOrder(order.canceled(106, 1, 4), order.autoAccepted(106, 4, 100));
    await eventually(() => scheduler.schedules.find(106), (s) => s?.schedule.state === 'canceled', 20_000);
    await sleep(intervalMs(100) * 1.5);
    expect(runsOf(out.received, 106)).toEqual([1]);
  });
});

describe('an auto order the scheduler cannot run', () => {
  it('goes to the dead-letter topic with the reason, and schedules nothing', async () => {
    const dead: Array<{ reason: string; value: string }> = [];
    const reader = kafkaOf(infra).consumer({ groupId: `dlq-reader-${scheduler.database}`, sessionTimeout: 6000 });
    await reader.connect();
    await reader.subscribe({ topics: [`dlq.scheduler-${scheduler.database}.v1`], fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void dead.push({ reason: String(message.headers?.['dlq-reason']), value: String(message.value) }) });
    try {
      await order.publishOrder(OrderAccepted.create('order-107', { orderId: 107, kind: 'auto', userId: 'member-1', runs: 0, interval: 60 }, { correlationId: 'c-107' }));
      const letters = await eventually(() => dead, (d) => d.some((l) => l.value.includes('"orderId":107')), 20_000);
      expect(letters.find((l) => l.value.includes('"orderId":107'))?.reason).toContain('RUNS_INVALID');
      expect(await scheduler.schedules.find(107)).toBeNull();
    } finally {
      await reader.disconnect();
    }
  });
});

describe('GET /schedules', () => {
  it('lists pending items soonest first, for operators only', async () => {
    await order.publishOrder(order.autoAccepted(201, 3, 10_000), order.autoAccepted(202, 3, 20_000));
    const expiresAt = new Date(Date.now() + 3_600_000);
    await order.publishWallet(order.topUpRequested(301, expiresAt));
    const list = await eventually(() => pending(), (p) => p.items.length >= 3, 20_000);
    const auto201 = list.items.find((i) => i.autoOrderId === 201);
    expect(auto201).toMatchObject({ kind: 'auto', userId: 'member-1', run: 2, runs: 3, intervalMinutes: 10_000 });
    expect(typeof auto201?.dueAt).toBe('string');
    expect(list.items.find((i) => i.topUpId === 301)).toEqual({ kind: 'topup', topUpId: 301, userId: 'member-1', dueAt: expiresAt.toISOString() });
    const dues = list.items.map((i) => String(i.dueAt));
    expect(dues).toEqual([...dues].sort());

    expect((await pending('?kind=topup')).items.map((i) => i.kind)).toEqual(['topup']);
    expect((await pending('?kind=auto&limit=1')).items).toHaveLength(1);

    const member = await fetch(`${scheduler.base}/schedules`, { headers: callerHeaders({ to: 'scheduler', userId: 'm', role: 'member' }) });
    expect(member.status).toBe(403);
    expect(await member.json()).toEqual({ code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' });
    const bad = await fetch(`${scheduler.base}/schedules?kind=weekly`, { headers: callerHeaders({ to: 'scheduler', userId: 'admin-1', role: 'admin' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: '예약 종류는 auto 또는 topup 중 하나로 입력해 주세요.' });
    const badLimit = await fetch(`${scheduler.base}/schedules?limit=0`, { headers: callerHeaders({ to: 'scheduler', userId: 'admin-1', role: 'admin' }) });
    expect(badLimit.status).toBe(400);
  });

  it('refuses calls without a valid credential for the scheduler: identity headers, expired, wrongly signed, unsigned, another audience', async () => {
    for (const [name, headers] of Object.entries(forgedCallerHeaders('scheduler'))) {
      const res = await fetch(`${scheduler.base}/schedules`, { headers });
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
    }
  });

  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${scheduler.base}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${scheduler.base}/readyz`)).json()).toEqual({ status: 'ready', checks: { mongo: 'ok', kafka: 'ok' } });
  });
});

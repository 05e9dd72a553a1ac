import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutoOrderRunDue, type EventEnvelope } from '@smm/contracts';
import { type Connection, connectMongo, outboxModel } from '@smm/platform';
import { fireDueRuns } from '../src/poller/fire-due-runs.ts';
import { AutoSchedules } from '../src/store/auto-schedule.model.ts';
import { outboxProgress } from '../src/store/outbox-progress.ts';
import {
  type Received,
  collectSchedulerEvents,
  eventually,
  intervalMs,
  kafkaOf,
  logger,
  minuteMs,
  runsOf,
  sleep,
  startInfra,
  startScheduler,
  upstream,
} from './support.ts';

let infra: Awaited<ReturnType<typeof startInfra>>;
let order: Awaited<ReturnType<typeof upstream>>;
let out: Awaited<ReturnType<typeof collectSchedulerEvents>>;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  infra = await startInfra();
  // Create the topic before the reader subscribes: a throwaway scheduler does it as every start does.
  const first = await startScheduler(infra);
  await first.close();
  order = await upstream(infra);
  out = await collectSchedulerEvents(kafkaOf(infra));
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await out?.stop();
  await order?.stop();
  await infra?.stop();
});

const dueTimes = (received: readonly Received[], autoOrderId: number) =>
  received
    .filter((r) => r.event.type === 'AutoOrderRunDue' && (r.event.data as { autoOrderId: number }).autoOrderId === autoOrderId)
    .map((r) => Date.parse((r.event.data as { dueAt: string }).dueAt));

describe('a scheduler that was down', () => {
  it('fires every run that fell due meanwhile on restart — in order, once each, none skipped — then carries on', async () => {
    const database = `scheduler_${randomUUID().slice(0, 8)}`;
    const groupId = `scheduler-${database}`;
    const runs = 12;
    const before = await startScheduler(infra, { database, groupId });
    await order.publishOrder(order.autoAccepted(501, runs, 60));
    await eventually(() => runsOf(out.received, 501).length, (n) => n >= 1, 20_000);
    await before.close(); // takes a few seconds: the consumer waits for its fetch to end
    const firedBeforeStop = runsOf(out.received, 501).length;

    // Several runs fall due while nobody runs (not counting on a slow stop to make them: it is quick).
    await sleep(intervalMs(60) * 3.5);
    expect(runsOf(out.received, 501)).toHaveLength(firedBeforeStop);

    const restartedAt = Date.now();
    const after = await startScheduler(infra, { database, groupId });
    try {
      await eventually(() => runsOf(out.received, 501).length, (n) => n >= runs, 30_000);
      await sleep(intervalMs(60) * 1.5);
    } finally {
      await after.close();
    }

    expect(runsOf(out.received, 501)).toEqual(Array.from({ length: runs }, (_, i) => i + 1));
    const fired = out.received.filter((r) => r.event.aggregateId === 'order-501');
    const due = dueTimes(out.received, 501);
    for (let i = 1; i < due.length; i++) expect(due[i]! - due[i - 1]!).toBe(intervalMs(60));
    // Runs that fell due while it was down: several, all sent by the restarted instance, together.
    const missed = fired.filter((_, i) => i >= firedBeforeStop && due[i]! < restartedAt);
    expect(missed.length).toBeGreaterThanOrEqual(3);
    for (const r of missed) expect(r.at).toBeGreaterThanOrEqual(restartedAt);
    expect(missed.at(-1)!.at - missed[0]!.at).toBeLessThan(intervalMs(60));
    // The rest went out on time, none early.
    for (const [i, r] of fired.entries()) expect(r.at).toBeGreaterThanOrEqual(due[i]!);
    expect(missed.length + firedBeforeStop).toBeLessThan(runs);
  });
});

describe('two scheduler instances over one database', () => {
  it('fire each run exactly once, in order, between them', async () => {
    const database = `scheduler_${randomUUID().slice(0, 8)}`;
    const groupId = `scheduler-${database}`;
    // Polling every 20 ms, both instances go for every due run.
    const a = await startScheduler(infra, { database, groupId, pollMs: 20 });
    closers.push(() => a.close());
    const b = await startScheduler(infra, { database, groupId, pollMs: 20 });
    closers.push(() => b.close());
    // This deployment reads the order topic from the beginning, so it also starts (and catches up)
    // the schedules of earlier tests; only its own auto orders below are asserted.

    const ids = [601, 602, 603, 604, 605, 606];
    await order.publishOrder(...ids.map((id) => order.autoAccepted(id, 4, 60)));
    for (const id of ids) await eventually(() => runsOf(out.received, id).length, (n) => n >= 4, 30_000);
    await sleep(intervalMs(60) * 1.5);

    for (const id of ids) expect(runsOf(out.received, id), `auto order ${id}`).toEqual([1, 2, 3, 4]);
    // The database holds exactly those events too (this deployment also replays the order topic's
    // history from earlier tests, so the pollers' own counts include other auto orders).
    const recorded = await outboxModel(a.connection).countDocuments({ 'event.aggregateId': { $in: ids.map((id) => `order-${id}`) } });
    expect(recorded).toBe(ids.length * 4);
  });

  it('never both claim the same runs when they race on the same due schedules', async () => {
    const database = `scheduler_race_${randomUUID().slice(0, 8)}`;
    const connections: Connection[] = await Promise.all([1, 2].map(() => connectMongo(infra.mongo.uri(database), logger, 'race')));
    closers.push(() => Promise.all(connections.map((c) => c.close())));
    const [one, two] = connections.map((connection) => ({
      connection,
      schedules: new AutoSchedules(connection),
      progress: outboxProgress(connection),
      logger,
      minuteMs,
    }));
    await one!.schedules.model.init();
    // Ten auto orders of five runs, all long overdue (as after an outage).
    const longAgo = new Date(Date.now() - 10 * intervalMs(60) * 5);
    for (let id = 1; id <= 10; id++) {
      await one!.connection.transaction((session) =>
        one!.schedules.create({ autoOrderId: id, userId: 'u', runs: 5, intervalMinutes: 60, nextRun: 1, dueAt: longAgo, state: 'active' }, { correlationId: `c${id}` }, session),
      );
    }
    // Each side tries every schedule several times at once; the relay is not running, so the
    // ordering wait must not hold them back: pretend everything recorded so far is published.
    const published = { published: async () => true };
    const now = new Date();
    const results = await Promise.all(
      [one!, two!, one!, two!, one!, two!].map((deps) => fireDueRuns({ ...deps, progress: published }, now)),
    );
    const fired = results.reduce((sum, r) => sum + r.fired, 0);
    expect(fired).toBe(50);

    const events = (await outboxModel(one!.connection).find({}).sort({ _id: 1 }).lean()).map((r) => r.event as EventEnvelope);
    expect(events).toHaveLength(50);
    for (let id = 1; id <= 10; id++) {
      const runs = events
        .filter((e) => e.type === AutoOrderRunDue.type && (e.data as { autoOrderId: number }).autoOrderId === id)
        .map((e) => (e.data as { run: number }).run);
      expect(runs, `auto order ${id}`).toEqual([1, 2, 3, 4, 5]);
    }
    // Both instances reached the schedules; which one won each is up to the race.
    expect(results.some((r) => r.fired > 0)).toBe(true);
  });
});

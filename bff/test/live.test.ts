import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventEnvelope, OrderStatusChanged, PointCredited, TicketAnswered, Topics } from '@smm/contracts';
import { type EmbeddedKafka, startEmbeddedKafka } from '@smm/embedded-kafka';
import { EventProducer, createKafka } from '@smm/platform';
import { LiveHub } from '../src/live/live-hub.ts';
import { type RunningFeed, startLiveFeed } from '../src/live/live-feed.ts';
import { LiveTickets } from '../src/live/live-tickets.ts';
import { SessionEnds } from '../src/live/session-ends.ts';
import { type Harness, call, startHarness } from './support/harness.ts';

type Frame = { event: string; id?: string; data: unknown };

/** A Server-Sent Events client over fetch that collects frames as they arrive. */
function openStream(url: string, headers: Record<string, string> = {}) {
  const frames: Frame[] = [];
  const controller = new AbortController();
  const response = fetch(url, { headers, signal: controller.signal });
  const done = response.then(async (res) => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: Frame = { event: 'message', data: null };
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
          }
          if (!block.startsWith(':')) frames.push(frame);
        }
      }
    } catch {
      // aborted by the test
    }
  });
  return { frames, response, close: () => controller.abort(), done };
}

async function until<T>(probe: () => T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('not seen in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('live channel over real Kafka and Redis', () => {
  let kafkaServer: EmbeddedKafka;
  let kafkaDir: string;
  let harness: Harness;
  let feed: RunningFeed;
  let producer: EventProducer;
  const hub = new LiveHub({ replayPerMember: 2, replayMs: 60_000 });
  const silent = pino({ level: 'silent' });
  const credit = (userId: string, balanceAfterDeci: number) =>
    PointCredited.create(`account-${userId}`, { userId, source: 'topup', referenceId: `topup-${balanceAfterDeci}`, amountDeci: 100, balanceAfterDeci }, { correlationId: 'c' });
  const publish = (topic: string, event: EventEnvelope) => producer.publish(topic, [event]);
  const ticketFor = async (token: string) => (await call<{ ticket: string }>(harness.url, 'POST', '/api/live/ticket', { token })).body.ticket;

  beforeAll(async () => {
    kafkaDir = mkdtempSync(join(tmpdir(), 'bff-live-kafka-'));
    kafkaServer = await startEmbeddedKafka({ port: 0, dataDir: kafkaDir, defaultPartitions: 3, fsync: false, logger: silent });
    const kafka = createKafka([kafkaServer.brokers], 'bff-live-test', silent);
    producer = new EventProducer(kafka);
    await producer.connect();
    feed = await startLiveFeed({ kafka, hub, logger: silent });
    harness = await startHarness({ live: (redis) => ({ hub, tickets: new LiveTickets(redis, 30), heartbeatMs: 60_000, maxStreamMs: 60_000 }) });
    // The group starts at the latest offset once its partitions are assigned: publish until one arrives.
    let warm = false;
    const stop = hub.subscribe('warm-up', { send: () => (warm = true), close: () => undefined });
    for (let n = 1; !warm && n < 100; n += 1) {
      await publish(Topics.wallet, credit('warm-up', n));
      await new Promise((r) => setTimeout(r, 200));
    }
    stop();
  }, 60_000);

  afterAll(async () => {
    await feed?.stop();
    await producer?.disconnect();
    await harness?.stop();
    await kafkaServer?.close();
    rmSync(kafkaDir, { recursive: true, force: true });
  });

  it('an opened stream receives its member’s events from Kafka and not another member’s', async () => {
    const stream = openStream(`${harness.url}/api/live?ticket=${await ticketFor(harness.keys.member('m-1'))}`);
    const res = await stream.response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await until(() => stream.frames.find((f) => f.event === 'ready'));
    await publish(Topics.wallet, credit('m-2', 999));
    const mine = credit('m-1', 5_000);
    await publish(Topics.wallet, mine);
    const update = await until(() => stream.frames.find((f) => f.event === 'update'));
    expect(update).toEqual({ event: 'update', id: mine.eventId, data: { type: 'PointCredited', touches: ['balance', 'topUps'], balanceDeci: 5_000 } });
    const done = OrderStatusChanged.create('order-9', { orderId: 9, userId: 'm-1', from: 1, to: 2, startCount: 0, remains: 0 }, { correlationId: 'c' });
    await publish(Topics.order, done);
    const second = await until(() => stream.frames.filter((f) => f.event === 'update')[1]);
    expect(second.data).toMatchObject({ notice: { kind: 'orderCompleted', orderId: 9 } });
    expect(stream.frames.filter((f) => f.event === 'update')).toHaveLength(2);
    stream.close();
  });

  it("an operator's answer to a support ticket (support's topic) reaches its member's stream with a notice", async () => {
    const stream = openStream(`${harness.url}/api/live?ticket=${await ticketFor(harness.keys.member('m-6'))}`);
    await until(() => stream.frames.find((f) => f.event === 'ready'));
    const answered = TicketAnswered.create('ticket-31', { ticketId: 31, userId: 'm-6', messageId: 2 }, { correlationId: 'c' });
    await publish(Topics.support, TicketAnswered.create('ticket-32', { ticketId: 32, userId: 'm-7', messageId: 2 }, { correlationId: 'c' }));
    await publish(Topics.support, answered);
    const update = await until(() => stream.frames.find((f) => f.event === 'update'));
    expect(update).toEqual({ event: 'update', id: answered.eventId, data: { type: 'TicketAnswered', touches: ['tickets'], notice: { kind: 'ticketAnswered', ticketId: 31 } } });
    stream.close();
  });

  it('a ticket opens one stream only; a missing or used ticket is a 401 with a Korean message', async () => {
    const ticket = await ticketFor(harness.keys.member('m-3'));
    const first = openStream(`${harness.url}/api/live?ticket=${ticket}`);
    expect((await first.response).status).toBe(200);
    first.close();
    const again = await call(harness.url, 'GET', `/api/live?ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'LIVE_TICKET_INVALID', message: expect.stringMatching(/만료/) });
    expect((await call(harness.url, 'GET', '/api/live')).status).toBe(401);
  });

  it('buying a ticket needs a valid access token', async () => {
    expect((await call(harness.url, 'POST', '/api/live/ticket')).status).toBe(401);
    expect((await call(harness.url, 'POST', '/api/live/ticket', { token: harness.keys.expired() })).status).toBe(401);
  });

  it('a reconnect with the last seen id gets what it missed; an id no longer held gets resync', async () => {
    const events = [credit('m-4', 1), credit('m-4', 2), credit('m-4', 3)];
    for (const event of events) await publish(Topics.wallet, event);
    await until(() => (hub.since('m-4', events[1]!.eventId) !== 'unknown' && (hub.since('m-4', events[1]!.eventId) as unknown[]).length === 1 ? true : undefined));

    const resumed = openStream(`${harness.url}/api/live?ticket=${await ticketFor(harness.keys.member('m-4'))}`, { 'last-event-id': events[1]!.eventId });
    const replayed = await until(() => resumed.frames.find((f) => f.event === 'update'));
    expect(replayed.id).toBe(events[2]!.eventId);
    resumed.close();

    // The buffer keeps 2 per member: the first event fell out, so the page must re-read.
    const stale = openStream(`${harness.url}/api/live?ticket=${await ticketFor(harness.keys.member('m-4'))}&lastEventId=${events[0]!.eventId}`);
    await until(() => stale.frames.find((f) => f.event === 'resync'));
    expect(stale.frames.some((f) => f.event === 'update')).toBe(false);
    stale.close();
  });

  it('a password change ends the member’s other open streams at once with the reason; another member’s stream stays (issue 40)', async () => {
    let ends: SessionEnds | undefined;
    const tabs = await startHarness({
      live: (redis) => {
        ends = new SessionEnds(redis);
        return { hub, tickets: new LiveTickets(redis, 30), heartbeatMs: 60_000, maxStreamMs: 60_000, sessionEnds: ends };
      },
    });
    try {
      await ends!.listen(hub, silent);
      const open = async (userId: string) => {
        const ticket = (await call<{ ticket: string }>(tabs.url, 'POST', '/api/live/ticket', { token: tabs.keys.member(userId) })).body.ticket;
        const stream = openStream(`${tabs.url}/api/live?ticket=${ticket}`);
        await until(() => stream.frames.find((f) => f.event === 'ready'));
        return stream;
      };
      const [first, second, other] = [await open('m-6'), await open('m-6'), await open('m-7')];
      tabs.auth.on('PUT /members/me/password', { status: 204 });
      const changed = await call(tabs.url, 'POST', '/api/auth/change-password', { token: tabs.keys.member('m-6'), body: { currentPassword: 'old-pass-1', newPassword: 'new-pass-1' } });
      expect(changed.status).toBe(204);
      await Promise.all([first.done, second.done]);
      for (const tab of [first, second]) expect(tab.frames.at(-1)).toEqual({ event: 'ended', data: { reason: 'password-changed' } });
      expect(hub.connections('m-6')).toBe(0);
      expect(hub.connections('m-7')).toBe(1);
      expect(other.frames.map((f) => f.event)).toEqual(['ready']);
      other.close();
    } finally {
      await ends?.stop();
      await tabs.stop();
    }
  });

  it('closes a stream after its maximum lifetime, so the page must buy a new ticket with its current token', async () => {
    const short = await startHarness({ live: (redis) => ({ hub, tickets: new LiveTickets(redis, 30), heartbeatMs: 60_000, maxStreamMs: 400 }) });
    try {
      const ticket = (await call<{ ticket: string }>(short.url, 'POST', '/api/live/ticket', { token: short.keys.member('m-5') })).body.ticket;
      const stream = openStream(`${short.url}/api/live?ticket=${ticket}`);
      const started = Date.now();
      await stream.done;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(stream.frames.map((f) => f.event)).toEqual(['ready']);
      expect(hub.connections('m-5')).toBe(0);
    } finally {
      await short.stop();
    }
  });
});

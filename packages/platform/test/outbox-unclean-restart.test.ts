import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '@smm/contracts';
import { type EmbeddedKafka, startEmbeddedKafka } from '@smm/embedded-kafka';
import { eventually, startInfra } from '@smm/testkit';
import type { Connection, RunningConsumer } from '../src/index.ts';
import { EventProducer, OutboxRelay, appendToOutbox, connectMongo, createKafka, createLogger, handleOnce, inTransaction, outboxModel, runEventConsumer } from '../src/index.ts';

/**
 * Issue 42: the embedded broker acknowledges a produce once written and flushes on an interval, as
 * Kafka does; a machine crash can lose what was acknowledged since the last flush. The outbox is the
 * durable record: when the broker comes back without that tail, the relay publishes the last
 * window again, and consumers (idempotent by event id) apply each event exactly once.
 */
const logger = createLogger({ service: 'relay-unclean-test', level: 'silent' });
const Noted = defineEvent('Noted', 1, z.object({ n: z.number().int() }));
const silent = { level: 'silent' } as const;

let infra: Awaited<ReturnType<typeof startInfra>>;
let connection: Connection;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-unclean-'));
const stops: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  infra = await startInfra();
  connection = await connectMongo(infra.mongo.uri(`relay_unclean_${randomUUID().slice(0, 8)}`), logger, 'relay-unclean-test');
}, 60_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await connection.close();
  await infra.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function broker(port: number): Promise<EmbeddedKafka> {
  const { pino } = await import('pino');
  const started = await startEmbeddedKafka({ port, dataDir, flushIntervalMs: 600_000, logger: pino(silent) });
  stops.push(() => started.close());
  return started;
}

/** A consumer group whose effect (one counter document per event) is applied once per event id. */
async function countOnce(kafka: ReturnType<typeof createKafka>, producer: EventProducer, topic: string, groupId: string): Promise<RunningConsumer> {
  const consumer = await runEventConsumer({
    kafka,
    groupId,
    topics: [topic],
    definitions: [Noted] as const,
    producer,
    logger,
    sessionTimeout: 6000,
    fromBeginning: true,
    commitIntervalMs: 50,
    handle: async (event) => {
      await handleOnce(connection, groupId, event, (session) =>
        connection.collection('effects').updateOne({ _id: `${groupId}:${event.data.n}` } as never, { $inc: { applied: 1 } }, { upsert: true, session }),
      );
    },
  });
  stops.push(() => consumer.stop());
  return consumer;
}

async function effects(groupId: string): Promise<Array<{ n: number; applied: number }>> {
  const docs = await connection.collection('effects').find({ _id: { $regex: `^${groupId}:` } } as never).toArray();
  return docs.map((d) => ({ n: Number(String(d._id).split(':')[1]), applied: d['applied'] as number })).sort((a, b) => a.n - b.n);
}

it('after an unclean broker restart that lost acknowledged events, the relay publishes the last window again and consumers apply each event once', async () => {
  let kafkaBroker = await broker(0);
  const port = kafkaBroker.port;
  const kafka = createKafka([kafkaBroker.brokers], 'relay-unclean-test', logger, undefined);
  const topic = `unclean.${randomUUID().slice(0, 8)}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();

  const producer = new EventProducer(kafka);
  await producer.connect();
  stops.push(() => producer.disconnect());
  const outbox = outboxModel(connection);
  const first = new OutboxRelay({ connection, producer, logger, intervalMs: 60_000, markDelayMs: 20 });
  first.start();
  // Ten events, each published (one batch each) and marked before the next is committed.
  for (let n = 0; n < 10; n++) {
    await inTransaction(connection, (session) => appendToOutbox(connection, session, topic, [Noted.create(`note-${n}`, { n }, { correlationId: `c-${n}` })]));
    await eventually(() => outbox.countDocuments({ pending: true }), (left) => left === 0);
  }
  const early = await countOnce(kafka, producer, topic, 'early');
  await eventually(() => effects('early'), (e) => e.length === 10);
  await early.stop();
  await first.stop();
  await producer.disconnect();

  // The machine crashes before the broker's flush: the log keeps its first 6 batches only (the
  // group's commit at 10 was already on disk); the services restart with it.
  await kafkaBroker.close();
  const dir = path.join(dataDir, 'topics', topic, '0');
  const file = path.join(dir, fs.readdirSync(dir).sort().at(-1) as string);
  const data = fs.readFileSync(file);
  let pos = 0;
  for (let i = 0; i < 6; i++) pos += 12 + data.readInt32BE(pos + 8);
  fs.truncateSync(file, pos);
  kafkaBroker = await broker(port);
  const restarted = new EventProducer(kafka);
  await restarted.connect();
  stops.push(() => restarted.disconnect());
  const ends = await restarted.logEnds([topic]);
  expect(ends.get(`${topic}\u00000`)).toBe(6n);

  const second = new OutboxRelay({ connection, producer: restarted, logger, intervalMs: 60_000, markDelayMs: 20 });
  second.start();
  stops.push(() => second.stop());
  await eventually(() => restarted.logEnds([topic]), (e) => (e.get(`${topic}\u00000`) ?? 0n) >= 16n);

  // A group that reads the topic now gets all ten; the group that had them applies none twice.
  await countOnce(kafka, restarted, topic, 'late');
  await countOnce(kafka, restarted, topic, 'early');
  const all = Array.from({ length: 10 }, (_, n) => ({ n, applied: 1 }));
  await eventually(() => effects('late'), (e) => e.length === 10, 20_000);
  await new Promise((r) => setTimeout(r, 1500));
  expect(await effects('late')).toEqual(all);
  expect(await effects('early')).toEqual(all);
}, 90_000);

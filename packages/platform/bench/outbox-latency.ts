// Benchmark: outbox publish latency, from a transaction's commit (the caller then kicks the relay)
// to the record being published to Kafka and marked, against the embedded servers.
// Run (in packages/platform): node --import tsx bench/outbox-latency.ts   (BENCH_EVENTS=300)
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineEvent } from '@smm/contracts';
import { startInfra } from '@smm/testkit';
import { EventProducer, OutboxRelay, appendToOutbox, connectMongo, createKafka, createLogger, ensureTopics, inTransaction, outboxModel } from '../src/index.ts';

const N = Number(process.env['BENCH_EVENTS'] ?? 300);
const Pinged = defineEvent('BenchPinged', 1, z.object({ i: z.number() }));
const logger = createLogger({ service: 'outbox-bench', level: 'silent' });
const infra = await startInfra();
const connection = await connectMongo(infra.mongo.uri('outbox_bench'), logger, 'outbox-bench');
const kafka = createKafka([infra.kafka.brokers], 'outbox-bench', logger);
const producer = new EventProducer(kafka);
await producer.connect();
const topic = `bench-${randomUUID()}`;
await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
const relay = new OutboxRelay({ connection, producer, logger, intervalMs: 1000 });
relay.start();
const outbox = outboxModel(connection).collection;
const ms: number[] = [];
for (let i = 0; i < N; i++) {
  const event = Pinged.create(`p-${i}`, { i }, { correlationId: 'bench' });
  await inTransaction(connection, (session) => appendToOutbox(connection, session, topic, [event]));
  const started = performance.now();
  relay.kick();
  while ((await outbox.findOne({ eventId: event.eventId, pending: true }, { projection: { _id: 1 } })) !== null) {
    await new Promise((r) => setImmediate(r));
  }
  ms.push(performance.now() - started);
}
ms.sort((a, b) => a - b);
const q = (p: number): string => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(1);
console.log(`${N} events, commit+kick to published: p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms, max ${ms[ms.length - 1]!.toFixed(1)} ms`);
await relay.stop();
await producer.disconnect();
await connection.close();
await infra.stop();

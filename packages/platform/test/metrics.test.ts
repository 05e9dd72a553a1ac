import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '@smm/contracts';
import type { Connection, Kafka, RunningConsumer } from '../src/index.ts';
import {
  EventProducer,
  OutboxRelay,
  badRequest,
  connectMongo,
  createHttpApp,
  createKafka,
  createLogger,
  ensureTopics,
  runEventConsumer,
  trackOutbox,
} from '../src/index.ts';
import { eventually, startInfra } from '@smm/testkit';

const logger = createLogger({ service: 'metrics-test', level: 'silent' });
const run = promisify(execFile);
const GadgetMade = defineEvent('GadgetMade', 1, z.object({ name: z.string().min(1) }));

let infra: Awaited<ReturnType<typeof startInfra>>;
let connection: Connection;
let kafka: Kafka;
let producer: EventProducer;
let server: Server;
let base: string;
const consumers: RunningConsumer[] = [];
const relays: OutboxRelay[] = [];

beforeAll(async () => {
  infra = await startInfra();
  connection = await connectMongo(infra.mongo.uri('metrics_test'), logger, 'metrics-test');
  kafka = createKafka([infra.kafka.brokers], 'metrics-test', logger);
  producer = new EventProducer(kafka);
  await producer.connect();
  const app = createHttpApp({
    logger,
    serviceAuth: null,
    opsToken,
    routes: (a) => {
      a.get('/gadgets/:id', (req, res) => {
        if (req.params.id === 'bad') throw badRequest();
        res.json({ id: req.params.id });
      });
    },
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

/** The public-edge app below opens /metrics to this token only. */
const opsToken = 'metrics-test-ops-token';

afterAll(async () => {
  for (const relay of relays) await relay.stop();
  for (const consumer of consumers) await consumer.stop();
  server?.close();
  await producer?.disconnect();
  await connection?.close();
  await infra?.stop();
}, 60_000);

async function scrape(): Promise<{ contentType: string | null; text: string }> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${opsToken}` } });
  expect(res.status).toBe(200);
  return { contentType: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one series line, e.g. `name{a="b"} 3`. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics on every createHttpApp', () => {
  it('answers Prometheus text with a latency histogram per route pattern, never per raw path', async () => {
    await fetch(`${base}/gadgets/1`);
    await fetch(`${base}/gadgets/2`);
    await fetch(`${base}/gadgets/bad`);
    await fetch(`${base}/nowhere`);
    const { contentType, text } = await scrape();
    expect(contentType).toContain('text/plain');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/gadgets/:id",status="200"}')).toBe(2);
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/gadgets/:id",status="400"}')).toBe(1);
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(text).not.toContain('/gadgets/1');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('shows the outbox lag as the age of the oldest unsent record, and 0 once the relay sent it', async () => {
    const outbox = connection.collection('outbox');
    const eventId = randomUUID();
    const event = { eventId, type: 'GadgetMade', version: 1, occurredAt: new Date().toISOString(), correlationId: eventId, payload: { name: 'x' } };
    await outbox.insertOne({ eventId, topic: 'gadgets', event, createdAt: new Date(Date.now() - 300_000), publishedAt: null, attempts: 0 });
    trackOutbox(connection);
    const waiting = value((await scrape()).text, 'outbox_oldest_unsent_age_seconds{database="metrics_test"}');
    expect(waiting).toBeGreaterThanOrEqual(299);
    expect(waiting).toBeLessThan(400);

    await ensureTopics(kafka, [{ topic: 'gadgets', numPartitions: 1 }]);
    const relay = new OutboxRelay({ connection, producer, logger, intervalMs: 100 });
    relays.push(relay);
    relay.start();
    await eventually(
      async () => value((await scrape()).text, 'outbox_oldest_unsent_age_seconds{database="metrics_test"}'),
      (v) => v === 0,
    );
  });

  it('counts dead letters by consumer group and reports the consumer lag per group and partition', async () => {
    const topic = `gizmos-${randomUUID().slice(0, 8)}`;
    const groupId = `metrics-${randomUUID().slice(0, 8)}`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    consumers.push(
      await runEventConsumer({ kafka, groupId, topics: [topic], definitions: [GadgetMade] as const, producer, logger, sessionTimeout: 6000, handle: async () => undefined }),
    );
    const raw = kafka.producer();
    await raw.connect();
    await raw.send({ topic, messages: [{ value: 'not an event' }, { value: '{"also":"not one"}' }] });
    await raw.disconnect();
    const text = await eventually(
      async () => (await scrape()).text,
      (t) => value(t, `kafka_dead_letters_total{group="${groupId}",topic="${topic}"}`) === 2,
      30_000,
    );
    expect(value(text, `kafka_consumer_lag_messages{group="${groupId}",topic="${topic}",partition="0"}`)).toBe(0);
  });
});

describe('an idle process with the platform loaded', () => {
  it('sleeps: nothing wakes it, and the event-loop lag is still measured once it works', async () => {
    // prom-client samples the event-loop delay with a native timer for the whole life of the
    // process (10 ms by default, 100 ms here before issue 42): every idle service woke 10–100 times
    // a second doing nothing. Counted by the kernel as the child's voluntary context switches over
    // one idle second; then a request's worth of work (noteActivity) and a 300 ms stall of the loop,
    // which the lag series must show.
    const index = fileURLToPath(new URL('../src/index.ts', import.meta.url));
    const script = [
      `const { metricsRegistry, noteActivity } = await import(${JSON.stringify(index)});`,
      'await new Promise((r) => setTimeout(r, 500));',
      'const before = process.resourceUsage().voluntaryContextSwitches;',
      'await new Promise((r) => setTimeout(r, 1000));',
      'const switches = process.resourceUsage().voluntaryContextSwitches - before;',
      'const idleText = await metricsRegistry.metrics();',
      "const idleMax = Number(/^nodejs_eventloop_lag_max_seconds (\\S+)$/m.exec(idleText)?.[1]);",
      'noteActivity();',
      'await new Promise((r) => setTimeout(r, 250));',
      'const until = Date.now() + 300; while (Date.now() < until);',
      'await new Promise((r) => setTimeout(r, 250));',
      "const busyMax = Number(/^nodejs_eventloop_lag_max_seconds (\\S+)$/m.exec(await metricsRegistry.metrics())?.[1]);",
      'console.log(JSON.stringify({ switches, idleMax, busyMax }));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    const { switches, idleMax, busyMax } = JSON.parse(stdout.trim().split('\n').pop()!) as { switches: number; idleMax: number; busyMax: number };
    expect(switches).toBeLessThan(7);
    expect(idleMax).toBe(0);
    expect(busyMax).toBeGreaterThan(0.25);
  }, 30_000);
});

import { randomUUID } from 'node:crypto';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { causedBy, defineEvent } from '@smm/contracts';
import { type RunningService, appendToOutbox, createLogger, inTransaction, runEventConsumer, serviceAuthHeaders, startService, startTracing, stopTracing, tracedFetch } from '../src/index.ts';
import { type Infra, eventually, startInfra, testServiceSecret } from '@smm/testkit';

/**
 * One trace across an HTTP call and two Kafka hops, with the real SDK recording spans in memory:
 * a caller → service A (HTTP, writes WidgetOrdered to its outbox) → service B (batch consumer,
 * writes WidgetPaid caused by it) → A (consumer, then an HTTP call back to B).
 */
const WidgetOrdered = defineEvent('WidgetOrdered', 1, z.object({ name: z.string() }));
const WidgetPaid = defineEvent('WidgetPaid', 1, z.object({ name: z.string() }));
const logger = createLogger({ service: 'tracing-test', level: 'silent' });
const exporter = new InMemorySpanExporter();
const run = randomUUID().slice(0, 8);
const topicA = `trace-a-${run}`;
const topicB = `trace-b-${run}`;

let infra: Infra;
let a: RunningService<{ checked: string[] }>;
let b: RunningService<null>;

beforeAll(async () => {
  startTracing('tracing-test', { exporter });
  infra = await startInfra();
  const common = { logger, kafkaBrokers: [infra.kafka.brokers], serviceAuthSecret: testServiceSecret, topics: [topicA, topicB], relay: { intervalMs: 100 }, listen: { port: 0 } };
  b = await startService<null>({
    ...common,
    name: 'svc-b',
    mongoUrl: infra.mongo.uri(`trace_b_${run}`),
    build: async () => null,
    consumers: async (_deps, { kafka, producer, connection, relay }) => [
      await runEventConsumer({
        kafka,
        producer,
        logger,
        groupId: `b-${run}`,
        topics: [topicA],
        definitions: [WidgetOrdered] as const,
        mode: 'batch',
        handleBatch: async (events) => {
          await inTransaction(connection, (session) => appendToOutbox(connection, session, topicB, events.map((e) => WidgetPaid.create(e.aggregateId, e.data, causedBy(e)))));
          relay.kick();
        },
      }),
    ],
    routes: (app) => app.get('/widgets/:name', (req, res) => void res.json({ name: req.params.name })),
  });
  a = await startService<{ checked: string[] }>({
    ...common,
    name: 'svc-a',
    mongoUrl: infra.mongo.uri(`trace_a_${run}`),
    build: async () => ({ checked: [] }),
    consumers: async (deps, { kafka, producer }) => [
      await runEventConsumer({
        kafka,
        producer,
        logger,
        groupId: `a-${run}`,
        topics: [topicB],
        definitions: [WidgetPaid] as const,
        handle: async (event) => {
          const res = await tracedFetch(`http://127.0.0.1:${String(b.port)}/widgets/${event.data.name}`, { headers: serviceAuthHeaders(testServiceSecret, { from: 'svc-a', to: 'svc-b' }) });
          expect(res.status).toBe(200);
          deps.checked.push(event.data.name);
        },
      }),
    ],
    routes: (app, _deps, { connection, relay }) =>
      app.post('/widgets', async (req, res) => {
        const name = (req.body as { name: string }).name;
        await inTransaction(connection, (session) => appendToOutbox(connection, session, topicA, [WidgetOrdered.create(name, { name }, { correlationId: name })]));
        relay.kick();
        res.status(202).json({ name });
      }),
  });
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await stopTracing();
  await infra?.stop();
}, 60_000);

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('tracing across HTTP and Kafka', () => {
  it('keeps one trace id from the first HTTP call through both Kafka hops and the HTTP call back', async () => {
    const names = ['w1', 'w2'];
    // Placed at once, so B may take both events in one batch: each effect must still follow its own cause.
    const roots = await Promise.all(
      names.map((name) =>
        trace.getTracer('test').startActiveSpan(`place ${name}`, async (root) => {
        const res = await tracedFetch(`http://127.0.0.1:${String(a.port)}/widgets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...serviceAuthHeaders(testServiceSecret, { from: 'test', to: 'svc-a' }) },
          body: JSON.stringify({ name }),
        });
          expect(res.status).toBe(202);
          root.end();
          return root.spanContext().traceId;
        }),
      ),
    );
    await eventually(() => a.deps.checked.length, (n) => n === names.length, 30_000);
    // The HTTP server span of the call back ends after its answer was sent.
    await eventually(() => exporter.getFinishedSpans().filter((s) => s.name === 'GET /widgets/:name').length, (n) => n === names.length);

    const spans = exporter.getFinishedSpans();
    for (const [i, traceId] of roots.entries()) {
      const mine = spans.filter((s) => s.spanContext().traceId === traceId);
      const find = (kind: SpanKind, name: string) => {
        const found = mine.filter((s) => s.kind === kind && s.name === name);
        expect(found, `${name} in trace ${names[i]}`).toHaveLength(1);
        return found[0]!;
      };
      const clientIn = find(SpanKind.CLIENT, 'POST');
      const serverA = find(SpanKind.SERVER, 'POST /widgets');
      const publishA = find(SpanKind.PRODUCER, `publish ${topicA}`);
      const consumeB = find(SpanKind.CONSUMER, `process ${topicA}`);
      const publishB = find(SpanKind.PRODUCER, `publish ${topicB}`);
      const consumeA = find(SpanKind.CONSUMER, `process ${topicB}`);
      const clientBack = find(SpanKind.CLIENT, 'GET');
      const serverB = find(SpanKind.SERVER, 'GET /widgets/:name');
      // Each hop is the child of the one before it: the chain is unbroken, not only the same id.
      expect(parentOf(serverA)).toBe(clientIn.spanContext().spanId);
      expect(parentOf(publishA)).toBe(serverA.spanContext().spanId);
      expect(parentOf(consumeB)).toBe(publishA.spanContext().spanId);
      expect(parentOf(publishB)).toBe(consumeB.spanContext().spanId);
      expect(parentOf(consumeA)).toBe(publishB.spanContext().spanId);
      expect(parentOf(clientBack)).toBe(consumeA.spanContext().spanId);
      expect(parentOf(serverB)).toBe(clientBack.spanContext().spanId);
    }
    expect(new Set(roots).size).toBe(names.length);
  }, 60_000);
});

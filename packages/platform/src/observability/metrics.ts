// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./prom-client-metrics.d.ts" />
import type { NextFunction, Request, Response } from 'express';
import type { Consumer } from 'kafkajs';
import type { Connection } from 'mongoose';
import { AsyncLocalStorage } from 'node:async_hooks';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
// prom-client's default metrics but its event-loop lag, one module each (static imports, so the
// production bundle carries them).
import gc from 'prom-client/lib/metrics/gc.js';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed.js';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed.js';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap.js';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal.js';
import processHandles from 'prom-client/lib/metrics/processHandles.js';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors.js';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors.js';
import processRequests from 'prom-client/lib/metrics/processRequests.js';
import processResources from 'prom-client/lib/metrics/processResources.js';
import processStartTime from 'prom-client/lib/metrics/processStartTime.js';
import version from 'prom-client/lib/metrics/version.js';


/** How long the lag sampler keeps running after the last request or consumed batch. */
const lagSampleAfterActivityMs = 5000;
const lagHistogram = monitorEventLoopDelay({ resolution: 100 });
let lastActivity = 0;
let lagSamplerOff: NodeJS.Timeout | undefined;

function stopLagSamplerWhenQuiet(): void {
  const left = lastActivity + lagSampleAfterActivityMs - Date.now();
  if (left > 0) {
    lagSamplerOff = setTimeout(stopLagSamplerWhenQuiet, left).unref();
    return;
  }
  lagSamplerOff = undefined;
  lagHistogram.disable();
}

/**
 * Work arrived (an HTTP request, a consumed batch): the event-loop lag is sampled every 100 ms from
 * now until 5 s after the last such call, so an idle process holds no timer for it. An idle loop
 * has no lag to report; its lag series read 0 when nothing was sampled since the last scrape.
 */
export function noteActivity(): void {
  lastActivity = Date.now();
  if (lagSamplerOff !== undefined) return;
  lagHistogram.enable();
  lagSamplerOff = setTimeout(stopLagSamplerWhenQuiet, lagSampleAfterActivityMs).unref();
}

/** When the oldest unpublished record of one place was written; null when none waits, undefined when unreadable. */
async function oldestUnsent(connection: Connection, source: string | undefined): Promise<number | null | undefined> {
  const found = await (source === undefined
    ? connection.collection('outbox').find({ publishedAt: null }, { projection: { createdAt: 1 } })
    : connection.collection(source).find({ outboxPending: true }, { projection: { 'outbox.event.occurredAt': 1 } })
  )
    .sort({ _id: 1 })
    .limit(1)
    .next()
    .catch(() => undefined);
  if (found === undefined) return undefined;
  if (found === null) return null;
  // A document keeps a list of events (oldest first), or one lone event as written before lists.
  const kept = found['outbox'] as { event?: { occurredAt?: unknown } } | Array<{ event?: { occurredAt?: unknown } }> | undefined;
  const at = source === undefined ? found['createdAt'] : (Array.isArray(kept) ? kept[0] : kept)?.event?.occurredAt;
  const time = at instanceof Date ? at.getTime() : typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isFinite(time) ? time : Date.now();
}


/**
 * Everything /metrics shows for one service: the process's default series (CPU, memory, event-loop
 * lag — in a shared process, the shared process's), HTTP timings, dead letters, consumer lag,
 * outbox age, and the service's own flow histograms and counters.
 */
class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly deadLetters: Counter<'group' | 'topic'>;
  readonly consumerLag: Gauge<'group' | 'topic' | 'partition'>;
  /** Outboxes whose relay runs in this service, by database name, with their document collections. */
  readonly outboxes = new Map<string, { connection: Connection; documents: readonly string[] }>();
  /** The service's own flow metrics (durationHistogram, flowCounter), by name, made on first use. */
  readonly flows = new Map<string, Histogram<string> | Counter<string>>();

  constructor() {
    // prom-client's default metrics, but for its event-loop lag: that one samples the loop with a native
    // timer from start to exit (every 10 ms by default, 100 ms here before issue 42), which woke every
    // idle service 10 times a second — most of an idle devstack's wake-ups. The lag series below are the
    // same ones, sampled only while the process works (see noteActivity).
    for (const metric of [processCpuTotal, processStartTime, osMemoryHeap, processOpenFileDescriptors, processMaxFileDescriptors, processResources, processHandles, processRequests, heapSizeAndUsed, heapSpacesSizeAndUsed, version, gc]) {
      metric(this.registry, {});
    }
    const registers = [this.registry];
    const lagSeries = (name: string, help: string) => new Gauge({ name, help, registers });
    // Registered first, so a scrape collects it before it writes the others. In a shared process a
    // scrape of any service starts the next sampling window of all.
    new Gauge({
      name: 'nodejs_eventloop_lag_seconds',
      help: 'Lag of event loop in seconds.',
      registers,
      async collect() {
        const sampled = lagHistogram.count > 0;
        const at = (value: number) => (sampled ? value / 1e9 : 0);
        lagMin.set(at(lagHistogram.min));
        lagMax.set(at(lagHistogram.max));
        lagMean.set(at(lagHistogram.mean));
        lagStddev.set(at(lagHistogram.stddev));
        lagP50.set(at(lagHistogram.percentile(50)));
        lagP90.set(at(lagHistogram.percentile(90)));
        lagP99.set(at(lagHistogram.percentile(99)));
        lagHistogram.reset();
        const start = process.hrtime.bigint();
        await new Promise((resolve) => setImmediate(resolve));
        this.set(Number(process.hrtime.bigint() - start) / 1e9);
      },
    });
    const lagMin = lagSeries('nodejs_eventloop_lag_min_seconds', 'The minimum recorded event loop delay.');
    const lagMax = lagSeries('nodejs_eventloop_lag_max_seconds', 'The maximum recorded event loop delay.');
    const lagMean = lagSeries('nodejs_eventloop_lag_mean_seconds', 'The mean of the recorded event loop delays.');
    const lagStddev = lagSeries('nodejs_eventloop_lag_stddev_seconds', 'The standard deviation of the recorded event loop delays.');
    const lagP50 = lagSeries('nodejs_eventloop_lag_p50_seconds', 'The 50th percentile of the recorded event loop delays.');
    const lagP90 = lagSeries('nodejs_eventloop_lag_p90_seconds', 'The 90th percentile of the recorded event loop delays.');
    const lagP99 = lagSeries('nodejs_eventloop_lag_p99_seconds', 'The 99th percentile of the recorded event loop delays.');

    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.deadLetters = new Counter({
      name: 'kafka_dead_letters_total',
      help: 'Events a consumer could never accept and sent to its dead-letter topic, by consumer group and source topic',
      labelNames: ['group', 'topic'] as const,
      registers,
    });
    this.consumerLag = new Gauge({
      name: 'kafka_consumer_lag_messages',
      help: 'Messages behind the partition end after the last batch a consumer group processed, by group, topic and partition',
      labelNames: ['group', 'topic', 'partition'] as const,
      registers,
    });
    const outboxes = this.outboxes;
    new Gauge({
      name: 'outbox_oldest_unsent_age_seconds',
      help: 'Age of the oldest outbox record not yet published to Kafka (0 when none waits), by database',
      labelNames: ['database'] as const,
      registers,
      async collect() {
        this.reset();
        const now = Date.now();
        await Promise.all(
          [...outboxes].map(async ([database, { connection, documents }]) => {
            const oldest = await Promise.all([undefined, ...documents].map((source) => oldestUnsent(connection, source)));
            // A scrape must not fail because MongoDB is briefly away: the series is left out instead.
            if (oldest.some((t) => t === undefined)) return;
            const times = oldest.filter((t): t is number => t !== null);
            this.set({ database }, times.length === 0 ? 0 : Math.max(0, (now - Math.min(...times)) / 1000));
          }),
        );
      },
    });
  }

  flow<T extends Histogram<string> | Counter<string>>(name: string, make: (registry: Registry) => T): T {
    let metric = this.flows.get(name);
    if (!metric) {
      metric = make(this.registry);
      this.flows.set(name, metric);
    }
    return metric as T;
  }
}

/** The process's own metrics: what every part records outside a `withServiceMetrics` scope. */
const processMetrics = new ServiceMetrics();
export const metricsRegistry = processMetrics.registry;

/**
 * The service whose start-up is running, where several services share a process. An async context
 * rather than a handle passed along: the parts that record (HTTP middleware, outbox relay,
 * consumers, a service's module-level flow histograms) are built far apart, and all of them are
 * built by (or imported during) the service's start-up. Each takes its registry when it is built,
 * never when it records: the context is needed only while the services start (see
 * `endServiceScopes`).
 */
const serviceScope = new AsyncLocalStorage<ServiceMetrics>();

const current = (): ServiceMetrics => serviceScope.getStore() ?? processMetrics;

/**
 * Runs `start` (a service's start-up, including the import of its modules) with metrics of its own:
 * what the parts built meanwhile record lands in a registry its /metrics alone shows. Used where
 * several services share one process (the devstack's apps process); a service alone in its process
 * needs none and uses the process's registry.
 */
export function withServiceMetrics<T>(start: () => T): T {
  return serviceScope.run(new ServiceMetrics(), start);
}

/**
 * Once every service of the process has started: an AsyncLocalStorage keeps Node 20's promise
 * hooks on, which made every promise of every service dearer — about a fifth of the shared
 * process's CPU per order. Nothing reads the scope after start-up, so it is turned off.
 */
export function endServiceScopes(): void {
  serviceScope.disable();
}

/** Called by OutboxRelay.start: its outbox's lag (documents' kept events included) becomes a series. */
export function trackOutbox(connection: Connection, documents: readonly string[] = []): void {
  current().outboxes.set(connection.name, { connection, documents });
}

/** Counts what a consumer dead-letters, in the registry of the service that builds the consumer. */
export function deadLetterCounter(): (group: string, topic: string) => void {
  const { deadLetters } = current();
  return (group, topic) => deadLetters.inc({ group, topic });
}

/** Called where a consumer is created: kafkajs reports each batch's lag, which costs no request. */
export function trackConsumerLag(consumer: Consumer, group: string): void {
  const { consumerLag } = current();
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    noteActivity();
    consumerLag.set({ group, topic: payload.topic, partition: String(payload.partition) }, Number(payload.offsetLag));
  });
}

/**
 * Times every request by its route pattern (`/orders/:id`, never the raw path, so the series stay
 * few); requests no route matched count under `unmatched`. Records into the metrics of the service
 * the app was built for.
 */
export function httpMetrics() {
  const { httpDuration } = current();
  return (req: Request, res: Response, next: NextFunction) => {
    noteActivity();
    const end = httpDuration.startTimer();
    res.on('finish', () => {
      const pattern = req.route?.path;
      const route = typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

/** GET /metrics in Prometheus text format: the handler serves the registry of the service it was made for. */
export function metricsHandler() {
  const { registry } = current();
  return async (_req: Request, res: Response): Promise<void> => {
    res.setHeader('content-type', registry.contentType);
    res.send(await registry.metrics());
  };
}

/** Buckets for business latencies that span services (a saga, a forward to a provider): 10 ms to 10 min. */
const flowBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * A latency histogram for a service's own flow (e.g. order's saga from OrderPlaced to the payment
 * answer), in the registry of the service whose modules declare it (declared at module level, it
 * belongs to the service whose start-up imported the module). `observeSince` takes the flow's start.
 */
export function durationHistogram<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const histogram = current().flow(name, (registry) => new Histogram<L>({ name, help, labelNames, buckets: flowBuckets, registers: [registry] }));
  return {
    observeSince(labels: Partial<Record<L, string>>, start: Date): void {
      histogram.observe(labels, Math.max(0, (Date.now() - start.getTime()) / 1000));
    },
  };
}

/**
 * A counter for how often a service's own flow ends one way or another (e.g. the wallet's money
 * decisions) — what a per-batch log line used to say, without a line per batch. In the registry of
 * the service whose modules declare it, as `durationHistogram`.
 */
export function flowCounter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const counter = current().flow(name, (registry) => new Counter<L>({ name, help, labelNames, registers: [registry] }));
  return {
    add(labels: Partial<Record<L, string>>, n: number): void {
      if (n > 0) counter.inc(labels, n);
    },
  };
}

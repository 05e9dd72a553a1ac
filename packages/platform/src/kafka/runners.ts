import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventDefinition, EventOf } from '@smm/contracts';
import { traceConsumeBatch } from '../observability/tracing.ts';
import type { ConsumerOptions, EventSorter } from './consumer.ts';
import { withDeadline } from './deadline.ts';

/**
 * serial: one message at a time in offset order, each resolved once handled (kafkajs's eachMessage,
 * as a batch runner so a gathered consumer can wait once per fetch rather than per message). A
 * failure ends the batch: it and everything after it are delivered again; so does a stop, after
 * the message under way.
 */
export function serialRunner(handleMessage: (topic: string, partition: number, message: KafkaMessage) => Promise<void>, stopping: () => boolean) {
  return async ({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> => {
    for (const message of batch.messages) {
      if (!isRunning() || isStale() || stopping()) return;
      await handleMessage(batch.topic, batch.partition, message);
      resolveOffset(message.offset);
      await heartbeat().catch(() => undefined);
    }
  };
}

/**
 * per-key: one aggregate's events run one after another in topic order, different aggregates
 * overlap (handling one message at a time caps a partition at one transaction's latency). Offsets
 * are committed only up to the first failure; handlers are idempotent, so the ones that had
 * succeeded change nothing when redelivered.
 */
export function perKeyRunner(concurrency: number, handleMessage: (topic: string, partition: number, message: KafkaMessage) => Promise<void>) {
  return async ({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> => {
    const groups = new Map<string, KafkaMessage[]>();
    for (const message of batch.messages) {
      const key = message.key?.toString() ?? `offset-${message.offset}`;
      const list = groups.get(key);
      if (list) list.push(message);
      else groups.set(key, [message]);
    }
    let lowestFailed: bigint | undefined;
    let firstError: unknown;
    const queue = [...groups.values()];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const message of group) {
          if (!isRunning() || isStale()) return;
          try {
            await handleMessage(batch.topic, batch.partition, message);
          } catch (error) {
            const offset = BigInt(message.offset);
            if (lowestFailed === undefined || offset < lowestFailed) lowestFailed = offset;
            firstError ??= error;
            break; // the rest of this key waits for the redelivery, keeping its order
          }
        }
        await heartbeat().catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    if (!isRunning() || isStale()) return;
    if (lowestFailed === undefined) return resolveOffset(batch.lastOffset());
    const failedAt = lowestFailed;
    const done = batch.messages.filter((m) => BigInt(m.offset) < failedAt).at(-1);
    if (done) resolveOffset(done.offset);
    throw firstError;
  };
}

type RunItem<E> = { event: E; message: KafkaMessage };
type Refusals<E> = Array<{ event: E; reason: string }>;
type HandleRun<E> = (topic: string, items: Array<RunItem<E>>, log: Logger) => Promise<Refusals<E>>;

/** acrossPartitions: runs handed in while a call runs (or in the same turn) are handled together, one call at a time. */
function runGate<E>(handle: HandleRun<E>, logger: Logger): HandleRun<E> {
  type Waiting = { topic: string; items: Array<RunItem<E>>; log: Logger; resolve: (refused: Refusals<E>) => void; reject: (error: unknown) => void };
  let queue: Waiting[] = [];
  let draining = false;
  const drain = async () => {
    try {
      while (queue.length > 0) {
        const runs = queue;
        queue = [];
        if (runs.length === 1) {
          const [run] = runs as [Waiting];
          await handle(run.topic, run.items, run.log).then(run.resolve, run.reject);
          continue;
        }
        const items = runs.flatMap((r) => r.items);
        const topic = [...new Set(runs.map((r) => r.topic))].join(',');
        try {
          const refused = await handle(topic, items, logger.child({ topic, runs: runs.length, events: items.length }));
          for (const run of runs) {
            const mine = new Set(run.items.map((i) => i.event));
            run.resolve(refused.filter((r) => mine.has(r.event)));
          }
        } catch {
          for (const run of runs) await handle(run.topic, run.items, run.log).then(run.resolve, run.reject);
        }
      }
    } finally {
      draining = false;
    }
  };
  return (topic, items, log) =>
    new Promise((resolve, reject) => {
      queue.push({ topic, items, log, resolve, reject });
      if (draining) return;
      draining = true;
      // The other partitions' runs of the same fetch are handed in during this turn: start after it.
      setImmediate(() => void drain());
    });
}

/** batch: runs of valid events in offset order; an invalid message ends the run before it (order kept). */
export function batchRunner<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>>(options: ConsumerOptions<TDefs>, sorter: EventSorter<TDefs>, deadlineMs: number) {
  const maxBatch = options.maxBatch ?? 500;
  const handleBatch = options.handleBatch;
  if (!handleBatch) throw new Error('mode batch needs handleBatch');
  type Event = EventOf<TDefs[number]>;
  const direct: HandleRun<Event> = async (topic, items, log) =>
    (await traceConsumeBatch(
      topic,
      options.groupId,
      items.map((r) => ({ eventId: r.event.eventId, headers: r.message.headers })),
      // A call that outlives the deadline fails (its runs are delivered again) and frees the gate.
      () => withDeadline(Promise.resolve(handleBatch(items.map((r) => r.event), log)), deadlineMs, `consumer ${options.groupId}: a run of ${items.length} events of ${topic}`),
    )) ?? [];
  const handleRun = options.acrossPartitions ? runGate(direct, options.logger) : direct;
  return async ({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> => {
    const { topic, partition } = batch;
    let run: Array<{ event: EventOf<TDefs[number]>; message: KafkaMessage }> = [];
    const flush = async () => {
      if (run.length === 0) return;
      const current = run;
      run = [];
      const log = options.logger.child({ topic, partition, firstOffset: current[0]!.message.offset, events: current.length });
      let refused: Refusals<Event>;
      try {
        refused = await handleRun(topic, current, log);
      } catch (error) {
        log.error({ err: error }, 'event batch failed; will be redelivered');
        throw error;
      }
      for (const { event, reason } of refused) {
        const item = current.find((r) => r.event === event)!;
        await sorter.deadLetter(topic, partition, item.message, `refused: ${reason}`);
      }
      resolveOffset(current.at(-1)!.message.offset);
      await heartbeat().catch(() => undefined);
    };
    for (const message of batch.messages) {
      if (!isRunning() || isStale()) break;
      const sorted = sorter.sort(message);
      if (sorted.kind === 'event') {
        run.push({ event: sorted.event, message });
        if (run.length >= maxBatch) await flush();
        continue;
      }
      if (sorted.kind === 'invalid') {
        await flush();
        await sorter.deadLetter(topic, partition, message, sorted.reason);
      }
      if (run.length === 0) resolveOffset(message.offset);
    }
    await flush();
  };
}


import {
  AutoOrderRunDue,
  PointDebitRejected,
  PointDebited,
  ServiceRemoved,
  ServiceUpserted,
  SettingChanged,
  Topics,
} from '@smm/contracts';
import { type EventProducer, type Kafka, type RunningConsumer, runEventConsumer } from '@smm/platform';
import type { OrderDeps } from '../use-cases/context.ts';
import { onAutoOrderRunDue, runsConsumer } from './on-auto-order-run-due.ts';
import { catalogConsumer, onCatalogEvent } from './on-catalog.ts';
import { onPaymentAnswers, paymentsConsumer } from './on-payment-answers.ts';

/**
 * One consumer group per concern, each from the beginning of its topic: the catalogue replica
 * rebuilds from the whole history, and a slow catalogue replay never delays payments or runs.
 * Payment answers are applied in runs (one transaction for what a fetch brought from all three
 * partitions); runs of auto orders concurrently across aggregates (in order within one).
 */
export async function startConsumers(deps: OrderDeps, kafka: Kafka, producer: EventProducer): Promise<RunningConsumer[]> {
  const common = { kafka, producer, logger: deps.logger, fromBeginning: true };
  return Promise.all([
    runEventConsumer({
      ...common,
      groupId: catalogConsumer,
      topics: [Topics.catalog],
      definitions: [ServiceUpserted, ServiceRemoved, SettingChanged] as const,
      handle: (event, { log }) => onCatalogEvent(deps, event, log),
    }),
    runEventConsumer({
      ...common,
      mode: 'batch',
      partitionsConcurrently: 3,
      acrossPartitions: true,
      groupId: paymentsConsumer,
      topics: [Topics.wallet],
      // Every order placed meanwhile waits for this consumer: a run still going after 20 s is stuck
      // (a MongoDB write caught by a crash once never settled), so it is given up and delivered again.
      handlerTimeoutMs: 20_000,
      definitions: [PointDebited, PointDebitRejected] as const,
      handleBatch: (events, log) => onPaymentAnswers(deps, events, log),
    }),
    runEventConsumer({
      ...common,
      mode: 'per-key',
      partitionsConcurrently: 3,
      groupId: runsConsumer,
      topics: [Topics.scheduler],
      definitions: [AutoOrderRunDue] as const,
      handle: (event, { log }) => onAutoOrderRunDue(deps, event, log),
    }),
  ]);
}

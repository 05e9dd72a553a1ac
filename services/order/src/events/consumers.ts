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
import { runConcurrentConsumer } from './concurrent-consumer.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { onAutoOrderRunDue, runsConsumer } from './on-auto-order-run-due.ts';
import { catalogConsumer, onCatalogEvent } from './on-catalog.ts';
import { onPaymentAnswer, paymentsConsumer } from './on-payment-answer.ts';
import { onPaymentAnswers } from './on-payment-answers.ts';

/**
 * One consumer group per concern, each from the beginning of its topic: the catalogue replica
 * rebuilds from the whole history, and a slow catalogue replay never delays payments or runs.
 * Payments and runs are handled concurrently across aggregates (in order within one).
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
    runConcurrentConsumer({
      ...common,
      groupId: paymentsConsumer,
      topics: [Topics.wallet],
      definitions: [PointDebited, PointDebitRejected] as const,
      ignore: ['PointCredited', 'TopUpRequested', 'TopUpApproved', 'TopUpRejected', 'TopUpExpired'],
      handle: (event, { log }) => onPaymentAnswer(deps, event, log),
      // Many answers per transaction: the saga's throughput is bound by database commands.
      handleBatch: (events, log) => onPaymentAnswers(deps, events, log),
    }),
    runConcurrentConsumer({
      ...common,
      groupId: runsConsumer,
      topics: [Topics.scheduler],
      definitions: [AutoOrderRunDue] as const,
      ignore: ['TopUpExpiryDue'],
      handle: (event, { log }) => onAutoOrderRunDue(deps, event, log),
    }),
  ]);
}

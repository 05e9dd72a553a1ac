import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { OperatorActed, Topics } from '@smm/contracts';
import { type EventProducer, type Kafka, type RunningConsumer, runEventConsumer } from '@smm/platform';
import { auditRecordModel } from './audit-record.model.ts';
import { onOperatorActed } from './on-operator-acted.ts';

export const AUDIT_CONSUMER_GROUP = 'auth-audit';

/** Reads the audit topic into the searchable log, a batch per transaction. */
export async function startAuditConsumer(deps: { kafka: Kafka; producer: EventProducer; connection: Connection; logger: Logger; groupId?: string }): Promise<RunningConsumer> {
  // The search indexes exist before the first record (and the first search) does.
  await auditRecordModel(deps.connection).createCollection().catch(() => undefined);
  await auditRecordModel(deps.connection).syncIndexes();
  const groupId = deps.groupId ?? AUDIT_CONSUMER_GROUP;
  const logger = deps.logger.child({ component: 'audit-consumer' });
  return runEventConsumer({
    kafka: deps.kafka,
    groupId,
    topics: [Topics.audit],
    definitions: [OperatorActed] as const,
    mode: 'batch',
    maxBatch: 200,
    producer: deps.producer,
    logger,
    sessionTimeout: 10_000,
    handleBatch: (events) => onOperatorActed({ connection: deps.connection, logger, consumer: groupId }, events),
  });
}

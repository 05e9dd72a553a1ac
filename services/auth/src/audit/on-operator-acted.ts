import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { EventOf, OperatorActed } from '@smm/contracts';
import { handleEachOnce } from '@smm/platform';
import { type AuditRecord, auditRecordModel } from './audit-record.model.ts';

const recordOf = (event: EventOf<typeof OperatorActed>): AuditRecord => ({
  _id: event.eventId,
  at: new Date(event.occurredAt),
  actorId: event.data.actor.userId,
  actorRole: event.data.actor.role,
  service: event.data.service,
  action: event.data.action,
  targetType: event.data.target.type,
  targetId: event.data.target.id,
  before: event.data.before,
  after: event.data.after,
  beneficiaryId: event.data.beneficiaryId ?? null,
  correlationId: event.correlationId,
});

/**
 * Writes a run of OperatorActed events to the log at most once each: the processed-event marks and
 * the records commit together, so a redelivered event adds no second record.
 */
export async function onOperatorActed(deps: { connection: Connection; logger: Logger; consumer: string }, events: Array<EventOf<typeof OperatorActed>>): Promise<void> {
  const records = auditRecordModel(deps.connection).collection;
  const { fresh } = await handleEachOnce(deps.connection, deps.consumer, events, async (session, fresh) => {
    if (fresh.length > 0) await records.insertMany(fresh.map(recordOf) as never[], { session, ordered: true });
  });
  if (fresh.length > 0) deps.logger.debug({ recorded: fresh.length }, 'operator actions recorded');
}

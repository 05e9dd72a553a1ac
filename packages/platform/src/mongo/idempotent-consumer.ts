import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { EventEnvelope } from '@smm/contracts';
import { inTransaction, isDuplicateKeyError, modelOn } from './connection.ts';

type ProcessedEvent = { _id: string; consumer: string; eventId: string; type: string; processedAt: Date };

const processedEventSchema = new Schema<ProcessedEvent>(
  {
    _id: { type: String, required: true },
    consumer: { type: String, required: true },
    eventId: { type: String, required: true },
    type: { type: String, required: true },
    processedAt: { type: Date, required: true },
  },
  { collection: 'processed_events', versionKey: false },
);

function processedEvents(connection: Connection): Model<ProcessedEvent> {
  return modelOn(connection, 'ProcessedEvent', processedEventSchema);
}

export type HandleOutcome = 'applied' | 'duplicate';

/**
 * Applies an event's effect at most once per consumer: the mark `(consumer, eventId)` is written in
 * the same transaction as the effect, so a redelivered or replayed event changes nothing, and a
 * crash between the two leaves neither.
 */
export async function handleOnce(
  connection: Connection,
  consumer: string,
  event: Pick<EventEnvelope, 'eventId' | 'type'>,
  effect: (session: ClientSession) => Promise<unknown>,
): Promise<HandleOutcome> {
  const model = processedEvents(connection);
  try {
    return await inTransaction(connection, async (session) => {
      const id = `${consumer}:${event.eventId}`;
      if (await model.exists({ _id: id }).session(session)) return 'duplicate';
      await model.create([{ _id: id, consumer, eventId: event.eventId, type: event.type, processedAt: new Date() }], { session });
      await effect(session);
      return 'applied';
    });
  } catch (error) {
    // A concurrent delivery of the same event committed first.
    if (isDuplicateKeyError(error, 'processed_events')) return 'duplicate';
    throw error;
  }
}

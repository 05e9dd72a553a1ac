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

type Identified = Pick<EventEnvelope, 'eventId' | 'type'>;

/**
 * Applies the effect of a run of events at most once per consumer and event, in ONE transaction:
 * the marks `(consumer, eventId)` of the events not seen before are written together with the
 * effect, which receives only those (`fresh`, in the given order; a copy later in the same run is
 * dropped). A redelivered or replayed event changes nothing; a crash leaves neither marks nor
 * effect. If a concurrent delivery commits marks of the same events first, the whole run is tried
 * again and those events are then no longer fresh.
 */
export async function handleEachOnce<E extends Identified, T>(
  connection: Connection,
  consumer: string,
  events: readonly E[],
  effect: (session: ClientSession, fresh: E[]) => Promise<T>,
): Promise<{ fresh: E[]; value: T | undefined }> {
  const marks = processedEvents(connection).collection;
  const markOf = (e: E, processedAt: Date) => ({ _id: `${consumer}:${e.eventId}`, consumer, eventId: e.eventId, type: e.type, processedAt }) as never;
  // First optimistically: the marks are inserted without reading them first (an event is almost
  // always new), and a duplicate-key error aborts the transaction. Then the marks are read and only
  // the fresh events are applied (also when a concurrent delivery committed first).
  let optimistic = new Set(events.map((e) => e.eventId)).size === events.length;
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(connection, async (session) => {
        const processedAt = new Date();
        if (optimistic) {
          await marks.insertMany(events.map((e) => markOf(e, processedAt)), { session, ordered: true });
          const fresh = [...events];
          return { fresh, value: await effect(session, fresh) };
        }
        const ids = events.map((e) => `${consumer}:${e.eventId}`);
        const seen = new Set((await marks.find({ _id: { $in: ids } } as never, { session, projection: { _id: 1 } }).toArray()).map((m) => String(m._id)));
        const fresh: E[] = [];
        for (const event of events) {
          const id = `${consumer}:${event.eventId}`;
          if (seen.has(id)) continue;
          seen.add(id);
          fresh.push(event);
        }
        if (fresh.length === 0) return { fresh, value: undefined };
        await marks.insertMany(fresh.map((e) => markOf(e, processedAt)), { session, ordered: true });
        return { fresh, value: await effect(session, fresh) };
      });
    } catch (error) {
      if (attempt < 4 && isDuplicateKeyError(error, 'processed_events')) {
        optimistic = false;
        continue;
      }
      throw error;
    }
  }
}

/** handleEachOnce for one event: `'duplicate'` when this consumer applied it before. */
export async function handleOnce(
  connection: Connection,
  consumer: string,
  event: Identified,
  effect: (session: ClientSession) => Promise<unknown>,
): Promise<HandleOutcome> {
  const { fresh } = await handleEachOnce(connection, consumer, [event], (session) => effect(session));
  return fresh.length === 1 ? 'applied' : 'duplicate';
}

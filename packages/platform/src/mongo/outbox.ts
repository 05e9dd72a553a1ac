import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { EventEnvelope } from '@smm/contracts';
import { type TraceCarrier, traceCarrierFor } from '../observability/tracing.ts';
import { modelOn } from './connection.ts';

export type OutboxRecord = {
  eventId: string;
  topic: string;
  event: EventEnvelope;
  createdAt: Date;
  /** Present (true) only while the record waits for the relay; removed when published. */
  pending?: true;
  publishedAt: Date | null;
  attempts: number;
  /** The trace context the record was written in (only when tracing is on). */
  trace?: TraceCarrier;
};

/**
 * An outbox record as written, with the id the driver gave it: what a relay publishes. `source`
 * names the collection of a document that keeps the event itself (see `withEvent`, `keepEvent`);
 * `_id` is then that document's id, and without `source` the record is in the outbox collection.
 */
export type AppendedRecord = { _id?: unknown; topic: string; event: EventEnvelope; trace?: TraceCarrier; source?: string };

/** An event kept in the document it is about, waiting for the relay. */
export type KeptEvent = { topic: string; event: EventEnvelope; trace?: TraceCarrier };

/**
 * An aggregate's leading events kept in its own document, in order, so the single-document write
 * that changes the aggregate stores its event too (atomically, no transaction: one round trip
 * instead of three). `outboxPending` is indexed (`{ outboxPending: 1, _id: 1 }`) for the relay's
 * poll; each sent event is written to the outbox as a published record and leaves the list, and
 * both fields leave the document with the last one.
 */
export type EventInDocument = { outbox: KeptEvent[]; outboxPending: true };

function kept(topic: string, event: EventEnvelope): KeptEvent {
  const trace = traceCarrierFor(event);
  return { topic, event, ...(trace ? { trace } : {}) };
}

/** The document with its aggregate's first event; insert it, then `handOverInserted`. */
export function withEvent<T extends object>(doc: T, topic: string, event: EventEnvelope): T & EventInDocument {
  return { ...doc, outbox: [kept(topic, event)], outboxPending: true };
}

/**
 * The update operators that keep one more event in an existing document, to merge with the
 * change the event describes (`{ $set: { ...change, ...keep.$set }, $push: keep.$push }`); once the
 * update is acknowledged, `handOverKept`. Only for an aggregate none of whose events went to the
 * outbox collection yet: the relay's poll publishes the events kept in documents before the outbox
 * records it read with them, which keeps an aggregate's order only when the kept ones lead.
 */
export function keepEvent(topic: string, event: EventEnvelope): { $push: { outbox: KeptEvent }; $set: { outboxPending: true } } {
  return { $push: { outbox: kept(topic, event) }, $set: { outboxPending: true } };
}

/** Gives events just written (acknowledged, so durable) into documents of `source` to the relays, in order. */
export function handOverKept(connection: Connection, source: string, events: ReadonlyArray<{ _id: unknown; kept: KeptEvent }>): void {
  handOverCommitted(
    connection,
    events.map(({ _id, kept: k }) => ({ _id, source, topic: k.topic, event: k.event, ...(k.trace ? { trace: k.trace } : {}) })),
  );
}

/** Gives the events of documents just inserted into `source` to the relays (see handOverKept). */
export function handOverInserted(connection: Connection, source: string, docs: ReadonlyArray<{ _id: unknown } & EventInDocument>): void {
  handOverKept(
    connection,
    source,
    docs.flatMap((d) => d.outbox.map((k) => ({ _id: d._id, kept: k }))),
  );
}

/**
 * Hand-over at commit: appendToOutbox notes the records it wrote in a session; when `inTransaction`
 * has committed that session's transaction, the records go straight to the started relays of the
 * connection, which publish them without reading them back. (Records of a transaction run some
 * other way, of a crashed process or of another replica are found by the relay's poll.)
 */
const appendedIn = new WeakMap<object, AppendedRecord[]>();
/** What a started relay is to the hand-over: something that takes committed records. */
export type CommittedReceiver = { accept(records: readonly AppendedRecord[]): void };
const relaysOf = new WeakMap<Connection, Set<CommittedReceiver>>();

/** The records appended in this session so far, cleared (each attempt of a transaction starts empty). */
export function takeAppended(session: ClientSession): AppendedRecord[] {
  const records = appendedIn.get(session) ?? [];
  appendedIn.delete(session);
  return records;
}

/** Gives records committed on this connection to its started relays (see takeAppended). */
export function handOverCommitted(connection: Connection, records: readonly AppendedRecord[]): void {
  if (records.length === 0) return;
  for (const relay of relaysOf.get(connection) ?? []) relay.accept(records);
}

/** Joins a relay to the hand-over of records committed on its connection; call the answer to leave. */
export function receiveCommitted(connection: Connection, receiver: CommittedReceiver): () => void {
  const receivers = relaysOf.get(connection) ?? new Set<CommittedReceiver>();
  receivers.add(receiver);
  relaysOf.set(connection, receivers);
  return () => relaysOf.get(connection)?.delete(receiver);
}

/** How long a published record stays readable (support, replays by hand) before MongoDB's TTL monitor removes it. */
export const outboxRetentionSeconds = 7 * 24 * 3600;

const outboxSchema = new Schema<OutboxRecord>(
  {
    eventId: { type: String, required: true, unique: true },
    topic: { type: String, required: true },
    event: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    pending: { type: Boolean },
    publishedAt: { type: Date, default: null },
    attempts: { type: Number, default: 0 },
    trace: { type: Schema.Types.Mixed },
  },
  { collection: 'outbox', versionKey: false, minimize: false },
);
// The relay reads `{pending: true}` in _id order: an equality lookup, so the cost of a poll is the
// number of records waiting (zero when idle), never the number ever published. (A
// `{publishedAt: null}` filter would need the server to serve null equality from an index, which
// the embedded server does not.)
outboxSchema.index({ pending: 1, _id: 1 });
// Published records do not pile up: unpublished ones have no date and never expire.
outboxSchema.index({ publishedAt: 1 }, { expireAfterSeconds: outboxRetentionSeconds });

/**
 * Brings events stored in an earlier format up to date (the relay's lease holder, once at start):
 * records written before the pending marker existed carry only `publishedAt: null` (one scan marks
 * them, so they are published like the others); a document in `documents` may keep its event as a
 * lone object, as before events were kept in a list (each such pending document becomes a list of
 * that one event, so a `$push` or the relay's `$pull` works).
 */
export async function upgradeStoredEvents(connection: Connection, documents: readonly string[]): Promise<void> {
  await outboxModel(connection).collection.updateMany({ publishedAt: null, pending: { $exists: false } }, { $set: { pending: true } });
  for (const source of documents) {
    const collection = connection.collection(source);
    const lone = await collection.find({ outboxPending: true, 'outbox.0': { $exists: false } }, { projection: { outbox: 1 } }).toArray();
    for (const d of lone) {
      const kept = d['outbox'] as KeptEvent | undefined;
      if (!kept || Array.isArray(kept) || !kept.event) continue;
      await collection.updateOne({ _id: d._id, 'outbox.event.eventId': kept.event.eventId, 'outbox.0': { $exists: false } }, { $set: { outbox: [kept] } });
    }
  }
}

/** The outbox collection of this service's database. */
export function outboxModel(connection: Connection): Model<OutboxRecord> {
  return modelOn(connection, 'OutboxRecord', outboxSchema);
}

/** Whether a recorded event has left the outbox (published; or published and since expired). */
export async function outboxPublished(connection: Connection, eventId: string): Promise<boolean> {
  return (await outboxModel(connection).exists({ eventId, pending: true })) === null;
}

/**
 * Records events for publishing inside the caller's transaction: they become visible to the relay
 * only if the state change they describe commits. Written with the driver rather than through
 * mongoose's casting, which cost ~0.9 ms per record (the `event` field is Mixed) on the order path.
 */
export async function appendToOutbox(connection: Connection, session: ClientSession, topic: string, events: readonly EventEnvelope[]): Promise<void> {
  if (events.length === 0) return;
  const createdAt = new Date();
  // The driver assigns ObjectIds in creation order, which is the order the relay publishes in.
  const records = events.map((event) => {
    const trace = traceCarrierFor(event);
    return { eventId: event.eventId, topic, event, createdAt, pending: true as const, publishedAt: null, attempts: 0, ...(trace ? { trace } : {}) };
  });
  await outboxModel(connection).collection.insertMany(records, { session, ordered: true });
  // insertMany set each record's _id; the relay marks them by it once published.
  const noted = appendedIn.get(session);
  if (noted) noted.push(...records);
  else appendedIn.set(session, [...records]);
}

import { randomUUID } from 'node:crypto';
import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@smm/contracts';
import type { EventProducer } from '../kafka/producer.ts';
import { modelOn } from './connection.ts';

type OutboxRecord = {
  eventId: string;
  topic: string;
  event: EventEnvelope;
  createdAt: Date;
  publishedAt: Date | null;
  attempts: number;
};

type Lease = { _id: string; owner: string; expiresAt: Date };

const outboxSchema = new Schema<OutboxRecord>(
  {
    eventId: { type: String, required: true, unique: true },
    topic: { type: String, required: true },
    event: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    publishedAt: { type: Date, default: null },
    attempts: { type: Number, default: 0 },
  },
  { collection: 'outbox', versionKey: false, minimize: false },
);
outboxSchema.index({ publishedAt: 1, _id: 1 });

const leaseSchema = new Schema<Lease>(
  { _id: { type: String, required: true }, owner: { type: String, required: true }, expiresAt: { type: Date, required: true } },
  { collection: 'leases', versionKey: false },
);

/** The outbox collection of this service's database. */
export function outboxModel(connection: Connection): Model<OutboxRecord> {
  return modelOn(connection, 'OutboxRecord', outboxSchema);
}

/**
 * Records events for publishing inside the caller's transaction: they become visible to the relay
 * only if the state change they describe commits.
 */
export async function appendToOutbox(connection: Connection, session: ClientSession, topic: string, events: readonly EventEnvelope[]): Promise<void> {
  if (events.length === 0) return;
  const createdAt = new Date();
  await outboxModel(connection).insertMany(
    events.map((event) => ({ eventId: event.eventId, topic, event, createdAt, publishedAt: null, attempts: 0 })),
    { session, ordered: true },
  );
}

export type OutboxRelayOptions = {
  connection: Connection;
  producer: EventProducer;
  logger: Logger;
  /** Poll interval when nothing kicks the relay. */
  intervalMs?: number;
  batchSize?: number;
  /** How long a relay's lease lasts without renewal; only the holder publishes. */
  leaseMs?: number;
};

/**
 * Publishes committed outbox records in insertion order and marks them sent; on failure it backs
 * off and retries until Kafka accepts, so an event is never dropped (it may be published twice
 * after a crash between send and mark: consumers are idempotent). One relay per service database
 * publishes at a time, held by a lease, so replicas do not reorder each other's events.
 */
export class OutboxRelay {
  private readonly outbox: Model<OutboxRecord>;
  private readonly leases: Model<Lease>;
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private failures = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.outbox = outboxModel(options.connection);
    this.leases = modelOn(options.connection, 'Lease', leaseSchema);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Publish now rather than at the next poll: call after committing a transaction with events. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.leases.deleteOne({ _id: 'outbox-relay', owner: this.owner }).catch(() => undefined);
  }

  /** Drains everything pending once; resolves with how many records were published. */
  async drainOnce(): Promise<number> {
    if (!(await this.holdLease())) return 0;
    const batchSize = this.options.batchSize ?? 100;
    let published = 0;
    for (;;) {
      const batch = await this.outbox.find({ publishedAt: null }).sort({ _id: 1 }).limit(batchSize).lean();
      if (batch.length === 0) return published;
      // Consecutive records of one topic go in one send, keeping the overall order.
      for (let start = 0; start < batch.length; ) {
        let end = start;
        while (end < batch.length && batch[end]!.topic === batch[start]!.topic) end++;
        const run = batch.slice(start, end);
        try {
          await this.options.producer.publish(run[0]!.topic, run.map((r) => r.event));
        } catch (error) {
          await this.outbox.updateMany({ _id: { $in: run.map((r) => r._id) } }, { $inc: { attempts: 1 } });
          throw error;
        }
        await this.outbox.updateMany({ _id: { $in: run.map((r) => r._id) } }, { $set: { publishedAt: new Date() } });
        published += run.length;
        start = end;
      }
      if (batch.length < batchSize) return published;
    }
  }

  private async holdLease(): Promise<boolean> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (this.options.leaseMs ?? 15_000));
    try {
      const lease = await this.leases.findOneAndUpdate(
        { _id: 'outbox-relay', $or: [{ owner: this.owner }, { expiresAt: { $lt: now } }] },
        { $set: { owner: this.owner, expiresAt } },
        { upsert: true, returnDocument: 'after' },
      );
      return lease?.owner === this.owner;
    } catch {
      return false; // another relay holds it (the upsert hit the existing lease)
    }
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.cycle().finally(() => (this.running = undefined));
    }, delay);
  }

  private async cycle(): Promise<void> {
    const interval = this.options.intervalMs ?? 500;
    try {
      do {
        this.again = false;
        const published = await this.drainOnce();
        if (published > 0) this.options.logger.debug({ published }, 'outbox published');
      } while (this.again && !this.stopped);
      this.failures = 0;
      if (!this.stopped) this.schedule(interval);
    } catch (error) {
      this.failures++;
      const backoff = Math.min(interval * 2 ** this.failures, 10_000);
      this.options.logger.warn({ err: (error as Error).message, failures: this.failures, retryInMs: backoff }, 'outbox publish failed; will retry');
      if (!this.stopped) this.schedule(backoff);
    }
  }
}

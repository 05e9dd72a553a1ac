import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { EventOrigin } from '@smm/contracts';
import { modelOn } from '@smm/platform';
import { type TopUpExpiry, type TopUpExpiryState, type TopUpOutcome, closableTopUpStates } from '../domain/topup-expiry.ts';

type TopUpExpiryDoc = {
  _id: number;
  userId: string;
  dueAt: Date | null;
  state: TopUpExpiryState;
  correlationId: string;
  causationId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const topUpExpirySchema = new Schema<TopUpExpiryDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: String, required: true },
    dueAt: { type: Date, default: null },
    state: { type: String, required: true },
    correlationId: { type: String, required: true },
    causationId: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'topup_expiries', versionKey: false },
);
topUpExpirySchema.index({ state: 1, dueAt: 1 });

export type StoredTopUpExpiry = { expiry: TopUpExpiry; origin: EventOrigin };

function toStored(doc: TopUpExpiryDoc): StoredTopUpExpiry {
  return {
    expiry: { topUpId: doc._id, userId: doc.userId, dueAt: doc.dueAt, state: doc.state },
    origin: { correlationId: doc.correlationId, causationId: doc.causationId },
  };
}

/** Expiry times of top-up requests, one per top-up id. */
export class TopUpExpiries {
  readonly model: Model<TopUpExpiryDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'TopUpExpiry', topUpExpirySchema);
  }

  /** Stores the expiry unless the top-up is already known (a replay, or its outcome arrived first). */
  async create(expiry: { topUpId: number; userId: string; dueAt: Date }, origin: EventOrigin, session: ClientSession): Promise<boolean> {
    const now = new Date();
    const result = await this.model.updateOne(
      { _id: expiry.topUpId },
      {
        $setOnInsert: {
          userId: expiry.userId,
          dueAt: expiry.dueAt,
          state: 'waiting',
          correlationId: origin.correlationId,
          causationId: origin.causationId ?? null,
          createdAt: now,
          updatedAt: now,
        },
      },
      { upsert: true, session },
    );
    return result.upsertedCount === 1;
  }

  /** The wallet closed the request; an outcome for an unknown top-up leaves a tombstone. */
  async close(
    outcome: { topUpId: number; userId: string; state: TopUpOutcome },
    origin: EventOrigin,
    session: ClientSession,
  ): Promise<'closed' | 'already-closed' | 'tombstone'> {
    const now = new Date();
    const result = await this.model.updateOne(
      { _id: outcome.topUpId, state: { $in: closableTopUpStates } },
      { $set: { state: outcome.state, dueAt: null, updatedAt: now } },
      { session },
    );
    if (result.matchedCount === 1) return 'closed';
    const inserted = await this.model.updateOne(
      { _id: outcome.topUpId },
      {
        $setOnInsert: {
          userId: outcome.userId,
          dueAt: null,
          state: outcome.state,
          correlationId: origin.correlationId,
          causationId: origin.causationId ?? null,
          createdAt: now,
          updatedAt: now,
        },
      },
      { upsert: true, session },
    );
    return inserted.upsertedCount === 1 ? 'tombstone' : 'already-closed';
  }

  /** Marks the expiry fired if it is still waiting: exactly one scheduler instance wins. */
  async claim(topUpId: number, session: ClientSession): Promise<boolean> {
    const result = await this.model.updateOne({ _id: topUpId, state: 'waiting' }, { $set: { state: 'fired', updatedAt: new Date() } }, { session });
    return result.matchedCount === 1;
  }

  async findDue(now: Date, limit: number): Promise<StoredTopUpExpiry[]> {
    const docs = await this.model.find({ state: 'waiting', dueAt: { $lte: now } }).sort({ dueAt: 1, _id: 1 }).limit(limit).lean();
    return docs.map(toStored);
  }

  async earliestDue(): Promise<Date | null> {
    const doc = await this.model.findOne({ state: 'waiting' }).sort({ dueAt: 1 }).select({ dueAt: 1 }).lean();
    return doc?.dueAt ?? null;
  }

  async listPending(limit: number): Promise<TopUpExpiry[]> {
    const docs = await this.model.find({ state: 'waiting' }).sort({ dueAt: 1, _id: 1 }).limit(limit).lean();
    return docs.map((doc) => toStored(doc).expiry);
  }

  async find(topUpId: number): Promise<StoredTopUpExpiry | null> {
    const doc = await this.model.findById(topUpId).lean();
    return doc ? toStored(doc) : null;
  }
}

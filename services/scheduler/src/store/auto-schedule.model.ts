import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { EventOrigin } from '@smm/contracts';
import { modelOn } from '@smm/platform';
import { type AutoSchedule, type AutoScheduleState, type RunClaim, finishableAutoStates } from '../domain/auto-schedule.ts';

type AutoScheduleDoc = {
  _id: number;
  userId: string;
  runs: number;
  intervalMinutes: number;
  nextRun: number;
  dueAt: Date | null;
  state: AutoScheduleState;
  /** Of the OrderAccepted that started it: every run's event carries them. */
  correlationId: string;
  causationId: string | null;
  /** The last event a claim recorded; the next claim waits until the relay published it. */
  lastEventId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const autoScheduleSchema = new Schema<AutoScheduleDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: String, required: true },
    runs: { type: Number, required: true },
    intervalMinutes: { type: Number, required: true },
    nextRun: { type: Number, required: true },
    dueAt: { type: Date, default: null },
    state: { type: String, required: true },
    correlationId: { type: String, required: true },
    causationId: { type: String, default: null },
    lastEventId: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'auto_order_schedules', versionKey: false },
);
// The poller's question: which active schedules are due, oldest first.
autoScheduleSchema.index({ state: 1, dueAt: 1 });

/** A stored schedule with what its events need besides the schedule itself. */
export type StoredAutoSchedule = { schedule: AutoSchedule; origin: EventOrigin; lastEventId: string | null };

function toStored(doc: AutoScheduleDoc): StoredAutoSchedule {
  return {
    schedule: {
      autoOrderId: doc._id,
      userId: doc.userId,
      runs: doc.runs,
      intervalMinutes: doc.intervalMinutes,
      nextRun: doc.nextRun,
      dueAt: doc.dueAt,
      state: doc.state,
    },
    origin: { correlationId: doc.correlationId, causationId: doc.causationId },
    lastEventId: doc.lastEventId,
  };
}

/** Auto-order schedules, one per auto order id. */
export class AutoSchedules {
  readonly model: Model<AutoScheduleDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'AutoOrderSchedule', autoScheduleSchema);
  }

  /**
   * Stores the schedule unless one exists for that auto order (running, ended, or a tombstone of an
   * end that arrived first): a second OrderAccepted never restarts or duplicates it.
   */
  async create(schedule: AutoSchedule, origin: EventOrigin, session: ClientSession): Promise<boolean> {
    const now = new Date();
    const result = await this.model.updateOne(
      { _id: schedule.autoOrderId },
      {
        $setOnInsert: {
          userId: schedule.userId,
          runs: schedule.runs,
          intervalMinutes: schedule.intervalMinutes,
          nextRun: schedule.nextRun,
          dueAt: schedule.dueAt,
          state: schedule.state,
          correlationId: origin.correlationId,
          causationId: origin.causationId ?? null,
          lastEventId: null,
          createdAt: now,
          updatedAt: now,
        },
      },
      { upsert: true, session },
    );
    return result.upsertedCount === 1;
  }

  /**
   * Ends the schedule: no run fires after this commits. An end for an unknown auto order leaves a
   * tombstone, so an OrderAccepted replayed later cannot start it again.
   */
  async finish(
    end: { autoOrderId: number; userId: string; runs: number; state: 'completed' | 'canceled' },
    origin: EventOrigin,
    session: ClientSession,
  ): Promise<'finished' | 'already-ended' | 'tombstone'> {
    const now = new Date();
    const result = await this.model.updateOne(
      { _id: end.autoOrderId, state: { $in: finishableAutoStates } },
      { $set: { state: end.state, dueAt: null, updatedAt: now } },
      { session },
    );
    if (result.matchedCount === 1) return 'finished';
    const inserted = await this.model.updateOne(
      { _id: end.autoOrderId },
      {
        $setOnInsert: {
          userId: end.userId,
          runs: end.runs,
          intervalMinutes: 0,
          nextRun: end.runs + 1,
          dueAt: null,
          state: end.state,
          correlationId: origin.correlationId,
          causationId: origin.causationId ?? null,
          lastEventId: null,
          createdAt: now,
          updatedAt: now,
        },
      },
      { upsert: true, session },
    );
    return inserted.upsertedCount === 1 ? 'tombstone' : 'already-ended';
  }

  /**
   * Records a claim if nobody claimed those runs first: the match on `nextRun` (and the write
   * conflict of a concurrent transaction) lets exactly one scheduler instance win.
   */
  async claim(autoOrderId: number, claim: RunClaim, lastEventId: string, session: ClientSession): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: autoOrderId, state: 'active', nextRun: claim.expectedNextRun },
      { $set: { nextRun: claim.next.nextRun, dueAt: claim.next.dueAt, state: claim.next.state, lastEventId, updatedAt: new Date() } },
      { session },
    );
    return result.matchedCount === 1;
  }

  async findDue(now: Date, limit: number): Promise<StoredAutoSchedule[]> {
    const docs = await this.model.find({ state: 'active', dueAt: { $lte: now } }).sort({ dueAt: 1, _id: 1 }).limit(limit).lean();
    return docs.map(toStored);
  }

  async earliestDue(): Promise<Date | null> {
    const doc = await this.model.findOne({ state: 'active' }).sort({ dueAt: 1 }).select({ dueAt: 1 }).lean();
    return doc?.dueAt ?? null;
  }

  /** Schedules with runs left, soonest first (operators' view). */
  async listPending(limit: number): Promise<AutoSchedule[]> {
    const docs = await this.model.find({ state: 'active' }).sort({ dueAt: 1, _id: 1 }).limit(limit).lean();
    return docs.map((doc) => toStored(doc).schedule);
  }

  async find(autoOrderId: number): Promise<StoredAutoSchedule | null> {
    const doc = await this.model.findById(autoOrderId).lean();
    return doc ? toStored(doc) : null;
  }

  count(): Promise<number> {
    return this.model.countDocuments();
  }
}

import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { AutoRun, RefundRefusalReason } from '../domain/refund-proof.ts';

/**
 * Refunds the wallet refused to credit (refund proof), by refund id, for operators
 * (`GET /admin/refused-refunds`). Not final: the same refund arriving again is decided again (and
 * credited if its payment has reached the ledger since — `creditedAt` then says so); `timesSeen`
 * counts the arrivals. Nothing here moves money.
 */
export type RefundRefusalDoc = {
  _id: string;
  userId: string;
  orderId: number | null;
  amountDeci: number;
  code: RefundRefusalReason;
  reason: string;
  eventId: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  timesSeen: number;
  creditedAt: Date | null;
};

const refusalSchema = new Schema<RefundRefusalDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    orderId: { type: Number, default: null },
    amountDeci: { type: Number, required: true },
    code: { type: String, required: true },
    reason: { type: String, required: true },
    eventId: { type: String, required: true },
    firstSeenAt: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    timesSeen: { type: Number, required: true },
    creditedAt: { type: Date, default: null },
  },
  { collection: 'refund_refusals', versionKey: false },
);
refusalSchema.index({ lastSeenAt: -1 });

export type RefusedRefund = { refundId: string; userId: string; orderId: number | null; amountDeci: number; code: RefundRefusalReason; reason: string; eventId: string };

export class RefundRefusals {
  readonly model: Model<RefundRefusalDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'RefundRefusal', refusalSchema);
  }

  /** Records refusals (an arrival again updates the reason and counts it). */
  async recordMany(refusals: readonly RefusedRefund[], now: Date, session: ClientSession): Promise<void> {
    if (refusals.length === 0) return;
    await this.model.collection.bulkWrite(
      refusals.map((r) => ({
        updateOne: {
          filter: { _id: r.refundId } as never,
          update: {
            $setOnInsert: { firstSeenAt: now, creditedAt: null },
            $set: { userId: r.userId, orderId: r.orderId, amountDeci: r.amountDeci, code: r.code, reason: r.reason, eventId: r.eventId, lastSeenAt: now },
            $inc: { timesSeen: 1 },
          },
          upsert: true,
        },
      })),
      { session, ordered: true },
    );
  }

  /** Refunds refused before and credited now (their payment reached the ledger since). */
  async markCredited(refundIds: readonly string[], now: Date, session: ClientSession): Promise<void> {
    if (refundIds.length === 0) return;
    await this.model.collection.updateMany({ _id: { $in: [...refundIds] }, creditedAt: null } as never, { $set: { creditedAt: now } }, { session });
  }

  /** Newest first; `open` leaves out the ones credited later. */
  page(filter: { open?: boolean; userId?: string }, skip: number, limit: number): Promise<RefundRefusalDoc[]> {
    const query = { ...(filter.open ? { creditedAt: null } : {}), ...(filter.userId === undefined ? {} : { userId: filter.userId }) };
    return this.model.find(query).sort({ lastSeenAt: -1, _id: 1 }).skip(skip).limit(limit).lean();
  }
}

/** Which auto order each child order is a run of (AutoOrderRunPlaced), `_id` = the child order id. */
export type AutoRunDoc = { _id: number; autoOrderId: number; userId: string; run: number; runs: number; placedAt: Date };

const runSchema = new Schema<AutoRunDoc>(
  {
    _id: { type: Number, required: true },
    autoOrderId: { type: Number, required: true },
    userId: { type: String, required: true },
    run: { type: Number, required: true },
    runs: { type: Number, required: true },
    placedAt: { type: Date, required: true },
  },
  { collection: 'auto_order_runs', versionKey: false },
);

export class AutoRuns {
  readonly model: Model<AutoRunDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'AutoOrderRun', runSchema);
  }

  /** Remembers runs; the first announcement of a child order stands (a copy changes nothing). */
  async recordMany(runs: readonly AutoRun[], now: Date, session?: ClientSession): Promise<void> {
    if (runs.length === 0) return;
    await this.model.collection.bulkWrite(
      runs.map(({ childOrderId, ...rest }) => ({ updateOne: { filter: { _id: childOrderId } as never, update: { $setOnInsert: { ...rest, placedAt: now } }, upsert: true } })),
      { ordered: true, ...(session ? { session } : {}) },
    );
  }

  async find(childOrderIds: readonly number[], session?: ClientSession): Promise<Map<number, AutoRun>> {
    if (childOrderIds.length === 0) return new Map();
    const docs = await this.model.collection.find({ _id: { $in: [...new Set(childOrderIds)] } } as never, session ? { session } : {}).toArray();
    return new Map(docs.map((d) => [Number(d._id), { childOrderId: Number(d._id), autoOrderId: Number(d.autoOrderId), userId: String(d.userId), run: Number(d.run), runs: Number(d.runs) }]));
  }
}

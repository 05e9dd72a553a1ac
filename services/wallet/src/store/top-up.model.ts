import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import { type FeeValue, type RequestCounts, type TopUp, heldWindowMs, hourMs } from '../domain/top-up.ts';

export type TopUpDoc = Omit<TopUp, 'id'> & { _id: number };

const topUpSchema = new Schema<TopUpDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: String, required: true },
    name: { type: String, required: true },
    pointDeci: { type: Number, required: true },
    transferDeci: { type: Number, required: true },
    receiptType: { type: String, required: true },
    paymentType: { type: Number, required: true },
    feeValue: { type: Schema.Types.Mixed, required: true },
    fingerprint: { type: String, required: true },
    status: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    responseAt: { type: Date, default: null },
    expiresAt: { type: Date, required: true },
    rejectReason: { type: String, default: null },
    receiptIssuedAt: { type: Date, default: null },
    expired: { type: Boolean, default: false },
    canceled: { type: Boolean, default: false },
  },
  { collection: 'top_ups', versionKey: false, minimize: false },
);
// Member history and operators' list (newest first), and the double-submit lookup.
topUpSchema.index({ userId: 1, _id: -1 });
topUpSchema.index({ status: 1, _id: -1 });
topUpSchema.index({ fingerprint: 1 });
// Issue 39's limits: a member's open requests, and their requests of the last hour and week.
topUpSchema.index({ userId: 1, status: 1 });
topUpSchema.index({ userId: 1, createdAt: -1 });
// Deposit matching: pending requests by transfer amount.
topUpSchema.index({ status: 1, transferDeci: 1 });

/** Serialises one member's top-up submissions (see TopUps.lockMember). */
type TopUpGuardDoc = { _id: string; submits: number };
const guardSchema = new Schema<TopUpGuardDoc>(
  { _id: { type: String, required: true }, submits: { type: Number, required: true } },
  { collection: 'top_up_guards', versionKey: false },
);

type CounterDoc = { _id: string; seq: number };
const counterSchema = new Schema<CounterDoc>({ _id: { type: String, required: true }, seq: { type: Number, required: true } }, { collection: 'counters', versionKey: false });

const toTopUp = ({ _id, ...rest }: TopUpDoc): TopUp => ({ ...rest, feeValue: rest.feeValue as FeeValue, id: _id });

/** Ended unpaid without an operator: expired, or cancelled by the member (issue 40) — both count toward the hold. */
const unpaidEnd = { $or: [{ expired: true }, { canceled: true }] };

export type TopUpFilter = { userId?: string; status?: number; paymentTypes?: readonly number[] };

export class TopUps {
  readonly model: Model<TopUpDoc>;
  readonly guards: Model<TopUpGuardDoc>;
  readonly counters: Model<CounterDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'TopUp', topUpSchema);
    this.guards = modelOn(connection, 'TopUpGuard', guardSchema);
    this.counters = modelOn(connection, 'Counter', counterSchema);
  }

  /**
   * Writes the member's guard document first thing in the transaction: two concurrent submissions
   * of one member then conflict, and the retried one sees the other's committed request. That is
   * what makes the double-submit check race-free without a unique index (the index could not
   * express "younger than 60 s").
   */
  async lockMember(userId: string, session: ClientSession): Promise<void> {
    await this.guards.collection.updateOne({ _id: userId } as never, { $inc: { submits: 1 } }, { upsert: true, session });
  }

  async nextId(session: ClientSession): Promise<number> {
    const doc = await this.counters.collection.findOneAndUpdate(
      { _id: 'top-up' } as never,
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after', session, includeResultMetadata: false },
    );
    if (!doc) throw new Error('top-up counter did not advance');
    return doc.seq;
  }

  /** The newest pending request with this fingerprint created after `since`. */
  async findPendingDuplicate(fingerprint: string, since: Date, session: ClientSession): Promise<TopUp | null> {
    const docs = await this.model.find({ fingerprint, status: 0, createdAt: { $gt: since } }).sort({ _id: -1 }).limit(1).session(session).lean();
    return docs[0] ? toTopUp(docs[0]) : null;
  }

  /** What issue 39's limits count for one member at `now` (see requestLimitProblem). */
  async countsOf(userId: string, now: Date, session: ClientSession): Promise<RequestCounts> {
    const open = await this.model.countDocuments({ userId, status: 0 }).session(session);
    const lastHour = await this.model.countDocuments({ userId, createdAt: { $gt: new Date(now.getTime() - hourMs) } }).session(session);
    const expiredRecently = await this.model.countDocuments({ userId, createdAt: { $gt: new Date(now.getTime() - heldWindowMs) }, ...unpaidEnd }).session(session);
    return { open, lastHour, expiredRecently };
  }

  /** Of these members, how many of each one's requests of the last week expired unpaid (operators' flag). */
  async expiredRecentlyOf(userIds: readonly string[], now: Date): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.model.aggregate<{ _id: string; n: number }>([
      { $match: { userId: { $in: [...new Set(userIds)] }, createdAt: { $gt: new Date(now.getTime() - heldWindowMs) }, ...unpaidEnd } },
      { $group: { _id: '$userId', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  async insert(topUp: TopUp, session: ClientSession): Promise<void> {
    const { id, ...rest } = topUp;
    await this.model.collection.insertOne({ _id: id, ...rest } as never, { session });
  }

  async find(id: number, session?: ClientSession): Promise<TopUp | null> {
    const doc = await this.model.findById(id).session(session ?? null).lean();
    return doc ? toTopUp(doc) : null;
  }

  /** Moves a pending request to `status`; null when it is not pending (any more) or does not exist. */
  async settle(id: number, status: number, at: Date, session: ClientSession, rejectReason: string | null = null, expired = false, canceled = false): Promise<TopUp | null> {
    const set = { status, responseAt: at, ...(rejectReason !== null && { rejectReason }), ...(expired && { expired: true }), ...(canceled && { canceled: true }) };
    const doc = await this.model.findOneAndUpdate({ _id: id, status: 0 }, { $set: set }, { returnDocument: 'after', session }).lean();
    return doc ? toTopUp(doc) : null;
  }

  /** Marks the receipt of an approved request with a receipt as issued, once; null when that does not hold. */
  async markReceiptIssued(id: number, at: Date, session?: ClientSession): Promise<TopUp | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id, status: 1, receiptType: { $ne: 'none' }, receiptIssuedAt: null }, { $set: { receiptIssuedAt: at } }, { returnDocument: 'after', session: session ?? null })
      .lean();
    return doc ? toTopUp(doc) : null;
  }

  async page(filter: TopUpFilter, skip: number, limit: number): Promise<TopUp[]> {
    const query: Record<string, unknown> = {};
    if (filter.userId !== undefined) query.userId = filter.userId;
    if (filter.status !== undefined) query.status = filter.status;
    if (filter.paymentTypes !== undefined) query.paymentType = { $in: filter.paymentTypes };
    const docs = await this.model.find(query).sort({ _id: -1 }).skip(skip).limit(limit).lean();
    return docs.map(toTopUp);
  }
}

import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/** Who referred whom, from UserRegistered (`_id` is the referred member). */
export type ReferralDoc = { _id: string; referrerId: string; loginId: string; registeredAt: Date };

/**
 * One referral money movement of a referrer, `_id` = its ledger reference. A reversal that found
 * the money already spent keeps `shortfallDeci` (and has no ledger entry when nothing could be taken).
 */
export type ReferralEarningDoc = {
  _id: string;
  kind: 'credit' | 'reversal';
  referrerId: string;
  referredId: string;
  /**
   * The order (`order-12`) a credit is for, or a reversal takes back from (before rewards on
   * delivery: the payment, `order-12` or `auto-40`).
   */
  paymentReference: string;
  /** Credits on delivery: the debit that paid for the order (`order-12`, or `auto-40` for a run's child order). */
  debitReference?: string;
  /** Credits: the delivered value (before: the payment). Reversals: the refund. In deci-won. */
  sourceDeci: number;
  ratePercent: number;
  /** Credits: what was paid out (the share minus `settledDeci`). Reversals: what was taken back. */
  amountDeci: number;
  /** Credits: the whole share. Reversals: the share of the refund asked back. */
  requestedDeci: number;
  /** Reversals: what could not be taken (carried against the next shares). */
  shortfallDeci: number;
  /** Credits: the part of the share that settled earlier shortfalls instead of being paid. */
  settledDeci?: number;
  /** Credits on delivery: the refunds already taken off the delivered value (never reversed again). */
  refundsCounted?: string[];
  createdAt: Date;
};

const referralSchema = new Schema<ReferralDoc>(
  { _id: { type: String, required: true }, referrerId: { type: String, required: true }, loginId: { type: String, required: true }, registeredAt: { type: Date, required: true } },
  { collection: 'referrals', versionKey: false },
);
referralSchema.index({ referrerId: 1, registeredAt: -1 });

const earningSchema = new Schema<ReferralEarningDoc>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true, enum: ['credit', 'reversal'] },
    referrerId: { type: String, required: true },
    referredId: { type: String, required: true },
    paymentReference: { type: String, required: true },
    sourceDeci: { type: Number, required: true },
    ratePercent: { type: Number, required: true },
    amountDeci: { type: Number, required: true, min: 0 },
    requestedDeci: { type: Number, required: true, min: 0 },
    shortfallDeci: { type: Number, required: true, min: 0 },
    debitReference: { type: String },
    settledDeci: { type: Number, min: 0 },
    refundsCounted: { type: [String], default: undefined },
    createdAt: { type: Date, required: true },
  },
  { collection: 'referral_earnings', versionKey: false },
);
earningSchema.index({ referrerId: 1, createdAt: -1 });
earningSchema.index({ paymentReference: 1 });

/**
 * What reversals could not take from a referrer (they had spent it), carried against their future
 * shares: `owedDeci` is deducted from the next credits until it is 0 (`_id` = the referrer).
 */
export type ReferralCarryDoc = { _id: string; owedDeci: number; carriedDeci: number; settledDeci: number; updatedAt: Date };

const carrySchema = new Schema<ReferralCarryDoc>(
  {
    _id: { type: String, required: true },
    owedDeci: { type: Number, required: true, min: 0 },
    carriedDeci: { type: Number, required: true, min: 0 },
    settledDeci: { type: Number, required: true, min: 0 },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'referral_carries', versionKey: false },
);
carrySchema.index({ owedDeci: -1, updatedAt: -1 });

/** Referral relations and the referrer's movements; the money itself moves in point_accounts and the ledger. */
export class ReferralStore {
  readonly relations: Model<ReferralDoc>;
  readonly earnings: Model<ReferralEarningDoc>;
  readonly carries: Model<ReferralCarryDoc>;

  constructor(connection: Connection) {
    this.relations = modelOn(connection, 'Referral', referralSchema);
    this.earnings = modelOn(connection, 'ReferralEarning', earningSchema);
    this.carries = modelOn(connection, 'ReferralCarry', carrySchema);
  }

  /** Records the relation once; a replayed registration never changes who referred whom. */
  async record(referral: ReferralDoc, session: ClientSession): Promise<void> {
    const { _id, ...rest } = referral;
    await this.relations.updateOne({ _id }, { $setOnInsert: rest }, { upsert: true, session });
  }

  /** Which of these members someone referred: one read outside any transaction. */
  async referredAmong(referredIds: readonly string[]): Promise<Set<string>> {
    if (referredIds.length === 0) return new Set();
    const found = await this.relations.collection.find({ _id: { $in: [...new Set(referredIds)] } } as never, { projection: { _id: 1 } }).toArray();
    return new Set(found.map((doc) => String(doc._id)));
  }

  async referrerOf(referredId: string, session: ClientSession): Promise<ReferralDoc | null> {
    return this.relations.findById(referredId).session(session).lean();
  }

  async earning(id: string, session: ClientSession): Promise<ReferralEarningDoc | null> {
    return this.earnings.findById(id).session(session).lean();
  }

  /** What earlier reversals of one payment asked back (their requests, so a shortfall is not asked twice). */
  async requestedBack(paymentReference: string, session: ClientSession): Promise<number> {
    const rows = await this.earnings.find({ paymentReference, kind: 'reversal' }).session(session).lean();
    return rows.reduce((sum, row) => sum + row.requestedDeci, 0);
  }

  async insertEarning(earning: ReferralEarningDoc, session: ClientSession): Promise<void> {
    await this.earnings.collection.insertOne(earning as never, { session });
  }

  members(referrerId: string, limit: number): Promise<ReferralDoc[]> {
    return this.relations.find({ referrerId }).sort({ registeredAt: -1 }).limit(limit).lean();
  }

  loginIds(referredIds: readonly string[]): Promise<Array<{ _id: string; loginId: string }>> {
    return this.relations.find({ _id: { $in: [...new Set(referredIds)] } }, { loginId: 1 }).lean();
  }

  countMembers(referrerId: string): Promise<number> {
    return this.relations.countDocuments({ referrerId });
  }

  history(referrerId: string, skip: number, limit: number): Promise<ReferralEarningDoc[]> {
    // Credits decided at a rate of 0 % moved nothing and are no history for the member.
    return this.earnings.find({ referrerId, $or: [{ amountDeci: { $gt: 0 } }, { shortfallDeci: { $gt: 0 } }] }).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).lean();
  }

  /** What a referrer still owes from reversals they could not pay (read in the caller's transaction). */
  async owed(referrerId: string, session: ClientSession): Promise<number> {
    const doc = await this.carries.findById(referrerId).session(session).lean();
    return doc?.owedDeci ?? 0;
  }

  /** A reversal could not take `deci`: it is owed, against the next shares. */
  async carry(referrerId: string, deci: number, now: Date, session: ClientSession): Promise<void> {
    await this.carries.collection.updateOne(
      { _id: referrerId } as never,
      { $inc: { owedDeci: deci, carriedDeci: deci }, $setOnInsert: { settledDeci: 0 }, $set: { updatedAt: now } },
      { session, upsert: true },
    );
  }

  /** A share settled `deci` of what was owed. */
  async settle(referrerId: string, deci: number, now: Date, session: ClientSession): Promise<void> {
    const result = await this.carries.collection.updateOne({ _id: referrerId, owedDeci: { $gte: deci } } as never, { $inc: { owedDeci: -deci, settledDeci: deci }, $set: { updatedAt: now } }, { session });
    if (result.modifiedCount !== 1) throw new Error(`referrer ${referrerId} owed less than ${deci} when a share settled it`); // the transaction retries
  }

  /** Referrers who still owe a shortfall, the largest first (operators). */
  owing(skip: number, limit: number): Promise<ReferralCarryDoc[]> {
    return this.carries.find({ owedDeci: { $gt: 0 } }).sort({ owedDeci: -1, updatedAt: -1 }).skip(skip).limit(limit).lean();
  }

  /** Net earnings: credits minus what reversals took back. */
  async totals(referrerId: string): Promise<{ earnedDeci: number; reversedDeci: number }> {
    const rows = await this.earnings.aggregate<{ _id: string; sum: number }>([{ $match: { referrerId } }, { $group: { _id: '$kind', sum: { $sum: '$amountDeci' } } }]);
    const sum = (kind: string) => rows.find((r) => r._id === kind)?.sum ?? 0;
    return { earnedDeci: sum('credit'), reversedDeci: sum('reversal') };
  }
}

/**
 * Takes `amountDeci` from an account only if it holds that much, and answers the account after
 * (null when it does not exist or would go below zero). The ledger entry goes in the same transaction.
 */
export async function debitIfCovered(
  accounts: Model<{ _id: string; balanceDeci: number; seq?: number; openedAt: Date }>,
  userId: string,
  amountDeci: number,
  session: ClientSession,
): Promise<{ userId: string; balanceDeci: number; seq: number } | null> {
  const doc = await accounts.collection.findOneAndUpdate(
    { _id: userId, balanceDeci: { $gte: amountDeci } } as never,
    { $inc: { balanceDeci: -amountDeci, seq: 1 } },
    { session, returnDocument: 'after', includeResultMetadata: false },
  );
  return doc ? { userId, balanceDeci: Number(doc.balanceDeci), seq: Number(doc.seq) } : null;
}

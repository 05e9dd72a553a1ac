import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { PointAccount } from '../domain/point-account.ts';

export type PointAccountDoc = { _id: string; balanceDeci: number; seq?: number; openedAt: Date };

const pointAccountSchema = new Schema<PointAccountDoc>(
  {
    _id: { type: String, required: true },
    balanceDeci: { type: Number, required: true, min: 0, validate: Number.isSafeInteger },
    /** Number of the account's last ledger entry; absent on accounts that never moved. */
    seq: { type: Number },
    openedAt: { type: Date, required: true },
  },
  { collection: 'point_accounts', versionKey: false },
);

const toAccount = (doc: PointAccountDoc): PointAccount => ({ userId: doc._id, balanceDeci: doc.balanceDeci, seq: doc.seq ?? 0, openedAt: doc.openedAt });

/**
 * Point accounts. Every balance change goes with its ledger entry in the caller's transaction; the
 * filters here are the last line of defence (a debit never matches an account it would overdraw).
 */
export class PointAccounts {
  readonly model: Model<PointAccountDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'PointAccount', pointAccountSchema);
  }

  /** Opens the account unless it exists: an account is never reset by a second opening. */
  async open(account: PointAccount, session: ClientSession): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: account.userId },
      { $setOnInsert: { balanceDeci: account.balanceDeci, openedAt: account.openedAt } },
      { upsert: true, session },
    );
    return result.upsertedCount === 1;
  }

  /**
   * Takes `amountDeci` if the balance covers it, and answers the account after the debit; null
   * when it does not (or the account does not exist). One guarded write, so it cannot go below 0.
   */
  async debit(userId: string, amountDeci: number, session: ClientSession): Promise<PointAccount | null> {
    // The native collection skips mongoose's casting on the hottest write of the saga.
    const doc = await this.model.collection.findOneAndUpdate(
      { _id: userId, balanceDeci: { $gte: amountDeci } } as never,
      { $inc: { balanceDeci: -amountDeci, seq: 1 } },
      { session, returnDocument: 'after', includeResultMetadata: false },
    );
    return doc ? toAccount(doc as unknown as PointAccountDoc) : null;
  }

  /**
   * Adds `amountDeci` and answers the account after the credit. With `openIfMissing` an account
   * that does not exist yet is opened by the credit (an approved transfer is money received).
   */
  async credit(userId: string, amountDeci: number, now: Date, session: ClientSession, openIfMissing: boolean): Promise<PointAccount | null> {
    const doc = await this.model.collection.findOneAndUpdate(
      { _id: userId } as never,
      { $inc: { balanceDeci: amountDeci, seq: 1 }, ...(openIfMissing ? { $setOnInsert: { openedAt: now } } : {}) },
      { session, returnDocument: 'after', upsert: openIfMissing, includeResultMetadata: false },
    );
    return doc ? toAccount(doc as unknown as PointAccountDoc) : null;
  }

  count(): Promise<number> {
    return this.model.countDocuments();
  }

  async find(userId: string, session?: ClientSession): Promise<PointAccount | null> {
    const doc = await this.model.findById(userId).session(session ?? null).lean();
    return doc ? toAccount(doc) : null;
  }
}

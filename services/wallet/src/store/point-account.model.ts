import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { AccountState } from '../domain/payments.ts';
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

  /** The accounts of these members that exist, with balance and seq, read in the caller's transaction. */
  async findMany(userIds: readonly string[], session: ClientSession): Promise<AccountState[]> {
    const docs = await this.model.collection.find({ _id: { $in: userIds } } as never, { session, projection: { balanceDeci: 1, seq: 1 } }).toArray();
    return docs.map((doc) => ({ userId: String(doc._id), balanceDeci: Number(doc.balanceDeci), seq: Number(doc.seq ?? 0) }));
  }

  /**
   * Writes new balances, each guarded by the balance read before deciding (`before`): if any
   * account changed meanwhile the write fails and the caller's transaction is retried. (Inside a
   * transaction a concurrent commit already raises WriteConflict; the guard makes the intent explicit.)
   */
  async applyBalances(changes: ReadonlyArray<{ before: AccountState; after: AccountState }>, session: ClientSession): Promise<void> {
    if (changes.length === 0) return;
    const result = await this.model.collection.bulkWrite(
      changes.map(({ before, after }) => ({
        updateOne: { filter: { _id: before.userId, balanceDeci: before.balanceDeci } as never, update: { $set: { balanceDeci: after.balanceDeci, seq: after.seq } } },
      })),
      { session, ordered: true },
    );
    if (result.matchedCount !== changes.length) throw new Error('a point account changed while its movements were decided');
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

import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { PointAccount } from '../domain/point-account.ts';

type PointAccountDoc = { _id: string; balanceDeci: number; openedAt: Date };

const pointAccountSchema = new Schema<PointAccountDoc>(
  {
    _id: { type: String, required: true },
    balanceDeci: { type: Number, required: true, min: 0, validate: Number.isSafeInteger },
    openedAt: { type: Date, required: true },
  },
  { collection: 'point_accounts', versionKey: false },
);

export class PointAccounts {
  private readonly model: Model<PointAccountDoc>;

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

  count(): Promise<number> {
    return this.model.countDocuments();
  }

  async find(userId: string): Promise<PointAccount | null> {
    const doc = await this.model.findById(userId).lean();
    return doc ? { userId: doc._id, balanceDeci: doc.balanceDeci, openedAt: doc.openedAt } : null;
  }
}

import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/** An admin's balance adjustment with its reason; its ledger entry is `adjustment-<id>`. */
export type Adjustment = { id: string; userId: string; deltaDeci: number; balanceAfterDeci: number; reason: string; operatorId: string; createdAt: Date };
type AdjustmentDoc = Omit<Adjustment, 'id'> & { _id: string };

const adjustmentSchema = new Schema<AdjustmentDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    deltaDeci: { type: Number, required: true },
    balanceAfterDeci: { type: Number, required: true },
    reason: { type: String, required: true },
    operatorId: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'adjustments', versionKey: false },
);
adjustmentSchema.index({ userId: 1, createdAt: -1 });

export class Adjustments {
  readonly model: Model<AdjustmentDoc>;
  constructor(connection: Connection) {
    this.model = modelOn(connection, 'Adjustment', adjustmentSchema);
  }

  async insert(adjustment: Adjustment, session: ClientSession): Promise<void> {
    const { id, ...rest } = adjustment;
    await this.model.collection.insertOne({ _id: id, ...rest } as never, { session });
  }

  async ofMember(userId: string, limit: number): Promise<Adjustment[]> {
    const docs = await this.model.find({ userId }).sort({ createdAt: -1 }).limit(limit).lean<AdjustmentDoc[]>();
    return docs.map(({ _id, ...rest }) => ({ ...rest, id: _id }));
  }
}

/**
 * Moves the balance by `deltaDeci` (negative takes away) unless that would go below zero; null then
 * or when the member has no account. The guard is in the update's filter, so it holds under races.
 */
export async function moveBalance(accounts: Model<never> | Model<unknown>, userId: string, deltaDeci: number, session: ClientSession) {
  const doc = (await accounts.collection.findOneAndUpdate(
    { _id: userId, ...(deltaDeci < 0 ? { balanceDeci: { $gte: -deltaDeci } } : {}) } as never,
    { $inc: { balanceDeci: deltaDeci, seq: 1 } },
    { session, returnDocument: 'after', includeResultMetadata: false },
  )) as { balanceDeci: number; seq: number } | null;
  return doc ? { userId, balanceDeci: doc.balanceDeci, seq: doc.seq } : null;
}

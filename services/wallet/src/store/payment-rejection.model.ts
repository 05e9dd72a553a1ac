import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/**
 * Orders the wallet refused to pay, by payment reference (`order-12`). With the ledger (which holds
 * the paid ones) this makes the decision per order final: a copy of OrderPlaced with a new event id
 * can neither pay a refused order later nor refuse a paid one.
 */
export type PaymentRejectionDoc = { _id: string; userId: string; amountDeci: number; reason: string; rejectedAt: Date };

const schema = new Schema<PaymentRejectionDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    amountDeci: { type: Number, required: true },
    reason: { type: String, required: true },
    rejectedAt: { type: Date, required: true },
  },
  { collection: 'payment_rejections', versionKey: false },
);

export class PaymentRejections {
  readonly model: Model<PaymentRejectionDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'PaymentRejection', schema);
  }

  /** Which of these payment references were refused before (read in the caller's transaction). */
  async existing(referenceIds: readonly string[], session: ClientSession): Promise<string[]> {
    if (referenceIds.length === 0) return [];
    const docs = await this.model.collection.find({ _id: { $in: referenceIds } } as never, { session, projection: { _id: 1 } }).toArray();
    return docs.map((doc) => String(doc._id));
  }

  async recordMany(docs: readonly PaymentRejectionDoc[], session: ClientSession): Promise<void> {
    if (docs.length === 0) return;
    await this.model.collection.insertMany(docs as never[], { session, ordered: true });
  }
}

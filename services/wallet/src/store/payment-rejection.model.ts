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

  async exists(referenceId: string, session: ClientSession): Promise<boolean> {
    return (await this.model.collection.findOne({ _id: referenceId } as never, { session, projection: { _id: 1 } })) !== null;
  }

  async record(doc: PaymentRejectionDoc, session: ClientSession): Promise<void> {
    await this.model.collection.insertOne(doc as never, { session });
  }
}

import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import { type Deposit, type DepositStatus, depositStatuses, openDepositStatuses } from '../domain/deposit.ts';
import type { TopUp } from '../domain/top-up.ts';

type DepositDoc = Omit<Deposit, 'id'> & { _id: string };

const depositSchema = new Schema<DepositDoc>(
  {
    _id: { type: String, required: true },
    source: { type: String, required: true, enum: ['bank', 'manual'] },
    transactionId: { type: String, required: true },
    depositorName: { type: String, required: true },
    amountDeci: { type: Number, required: true },
    depositedAt: { type: Date, required: true },
    receivedAt: { type: Date, required: true },
    status: { type: String, required: true, enum: depositStatuses },
    topUpId: { type: Number, default: null },
    userId: { type: String, default: null },
    candidates: { type: [Number], default: [] },
    resolvedBy: { type: String, default: null },
    resolvedAt: { type: Date, default: null },
  },
  { collection: 'deposits', versionKey: false, minimize: false },
);
// The operators' queue by status, newest first.
depositSchema.index({ status: 1, receivedAt: -1 });
depositSchema.index({ receivedAt: -1 });

const toDeposit = ({ _id, ...rest }: DepositDoc): Deposit => ({ ...rest, id: _id });

/** Bank deposits; the id is the bank's transaction id, so one transaction is recorded once. */
export class Deposits {
  readonly model: Model<DepositDoc>;
  constructor(connection: Connection) {
    this.model = modelOn(connection, 'Deposit', depositSchema);
  }

  async find(id: string, session?: ClientSession): Promise<Deposit | null> {
    const doc = await this.model.findById(id).session(session ?? null).lean<DepositDoc>();
    return doc ? toDeposit(doc) : null;
  }

  async insert(deposit: Deposit, session: ClientSession): Promise<void> {
    const { id, ...rest } = deposit;
    await this.model.collection.insertOne({ _id: id, ...rest } as never, { session });
  }

  /** Attaches an open deposit; null when it is no longer open (another operator was first). */
  async resolve(id: string, change: { topUpId: number; userId: string; resolvedBy: string }, at: Date, session: ClientSession): Promise<Deposit | null> {
    const doc = await this.model
      .findOneAndUpdate(
        { _id: id, status: { $in: ['unmatched', 'ambiguous'] } },
        { $set: { status: 'attached', ...change, resolvedAt: at } },
        { returnDocument: 'after', session },
      )
      .lean<DepositDoc>();
    return doc ? toDeposit(doc) : null;
  }

  /** `open`: the ones an operator still has to attach (unmatched or ambiguous). */
  async page(status: DepositStatus | 'open' | undefined, skip: number, limit: number): Promise<Deposit[]> {
    const filter = status === undefined ? {} : status === 'open' ? { status: { $in: [...openDepositStatuses] } } : { status };
    const docs = await this.model
      .find(filter)
      .sort({ receivedAt: -1 })
      .skip(skip)
      .limit(limit)
      .lean<DepositDoc[]>();
    return docs.map(toDeposit);
  }
}

/** Pending requests asking for exactly this transfer amount, for matching (a handful at most). */
export async function pendingWithTransfer(topUps: { model: Model<Omit<TopUp, 'id'> & { _id: number }> }, transferDeci: number, session: ClientSession): Promise<TopUp[]> {
  const docs = await topUps.model.find({ status: 0, transferDeci }).sort({ _id: 1 }).limit(200).session(session).lean();
  return docs.map(({ _id, ...rest }) => ({ ...rest, id: _id }) as TopUp);
}

import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { LedgerEntry } from '../domain/ledger.ts';
import { type PaymentBook, legacyPaymentNumber } from '../domain/refund-proof.ts';

/** `_id` is the referenceId: the primary key itself makes "one movement per reference" hold. */
export type LedgerDoc = Omit<LedgerEntry, 'referenceId'> & { _id: string };

const ledgerSchema = new Schema<LedgerDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    seq: { type: Number, required: true },
    deltaDeci: { type: Number, required: true },
    balanceAfterDeci: { type: Number, required: true, min: 0 },
    kind: { type: String, required: true, enum: ['debit', 'credit'] },
    source: { type: String, required: true, enum: ['order', 'topup', 'refund', 'adjustment', 'referral', 'referral-reversal'] },
    createdAt: { type: Date, required: true },
    paymentReference: { type: String },
  },
  { collection: 'ledger_entries', versionKey: false },
);
// Refund proof: the refunds of a payment (entries that name one).
ledgerSchema.index({ paymentReference: 1 }, { sparse: true });
// One entry per position of an account's chain; also serves "an account's entries, newest first".
ledgerSchema.index({ userId: 1, seq: -1 }, { unique: true });
// The dashboard's days of sales, refunds and top-ups (issue 12) read a date range across accounts.
ledgerSchema.index({ createdAt: -1 });

const toEntry = ({ _id, ...rest }: LedgerDoc): LedgerEntry => ({ ...rest, referenceId: _id });

export class Ledger {
  readonly model: Model<LedgerDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'LedgerEntry', ledgerSchema);
  }

  /** Appends an entry; a second entry for the same reference fails with a duplicate-key error. */
  async append(entry: LedgerEntry, session: ClientSession): Promise<void> {
    const { referenceId, ...rest } = entry;
    await this.model.collection.insertOne({ _id: referenceId, ...rest } as never, { session });
  }

  async appendMany(entries: readonly LedgerEntry[], session: ClientSession): Promise<void> {
    if (entries.length === 0) return;
    await this.model.collection.insertMany(
      entries.map(({ referenceId, ...rest }) => ({ _id: referenceId, ...rest }) as never),
      { session, ordered: true },
    );
  }

  /** Which of these references already have an entry (read in the caller's transaction). */
  async existing(referenceIds: readonly string[], session: ClientSession): Promise<string[]> {
    if (referenceIds.length === 0) return [];
    const docs = await this.model.collection.find({ _id: { $in: referenceIds } } as never, { session, projection: { _id: 1 } }).toArray();
    return docs.map((doc) => String(doc._id));
  }

  /**
   * What the ledger proves about these payments (read in the caller's transaction): each one's
   * debit (who paid, how much) and the refunds credited against it. Refunds from before refund
   * proof name no payment; they count for the payment their id names (`order-12-…` → order 12).
   */
  async paymentBooks(paymentReferences: readonly string[], session: ClientSession): Promise<Map<string, PaymentBook>> {
    const books = new Map<string, PaymentBook & { refundIds: Set<string> }>();
    if (paymentReferences.length === 0) return books;
    const numbers = [...new Set(paymentReferences.map((r) => r.slice(r.indexOf('-') + 1)))];
    const prefixes = numbers.flatMap((n) => [new RegExp(`^order-${n}-`), new RegExp(`^auto-${n}-`)]);
    const [debits, refunds] = await Promise.all([
      this.model.collection.find({ _id: { $in: [...paymentReferences] }, source: 'order' } as never, { session, projection: { userId: 1, deltaDeci: 1 } }).toArray(),
      this.model.collection
        .find({ source: 'refund', $or: [{ paymentReference: { $in: [...paymentReferences] } }, { _id: { $in: prefixes } }] } as never, { session, projection: { deltaDeci: 1, paymentReference: 1 } })
        .toArray(),
    ]);
    const byNumber = new Map<number, string>();
    for (const debit of debits) {
      const reference = String(debit._id);
      books.set(reference, { reference, userId: String(debit.userId), debitDeci: -Number(debit.deltaDeci), refundedDeci: 0, refundIds: new Set() });
      byNumber.set(Number(reference.slice(reference.indexOf('-') + 1)), reference);
    }
    for (const refund of refunds) {
      const id = String(refund._id);
      const legacy = legacyPaymentNumber(id);
      const book = books.get(typeof refund.paymentReference === 'string' ? refund.paymentReference : (byNumber.get(legacy ?? 0) ?? ''));
      if (!book || book.refundIds.has(id)) continue;
      book.refundIds.add(id);
      book.refundedDeci += Number(refund.deltaDeci);
    }
    return books;
  }

  /** One entry by its reference (read in the caller's transaction). */
  async entry(referenceId: string, session: ClientSession): Promise<LedgerEntry | null> {
    const doc = await this.model.collection.findOne({ _id: referenceId } as never, { session });
    return doc ? toEntry(doc as unknown as LedgerDoc) : null;
  }

  /** What was refunded of order `orderId` (its refunds are `order-<id>-…`): the sum in deci-won and the refund ids. */
  async refundedOfOrder(orderId: number, session: ClientSession): Promise<{ refundedDeci: number; refundIds: string[] }> {
    const docs = await this.model.collection.find({ _id: { $regex: `^order-${orderId}-` }, source: 'refund' } as never, { session, projection: { deltaDeci: 1 } }).toArray();
    return { refundedDeci: docs.reduce((sum, doc) => sum + Number(doc.deltaDeci), 0), refundIds: docs.map((doc) => String(doc._id)) };
  }

  async page(userId: string, skip: number, limit: number): Promise<LedgerEntry[]> {
    const docs = await this.model.find({ userId }).sort({ seq: -1 }).skip(skip).limit(limit).lean();
    return docs.map(toEntry);
  }
}

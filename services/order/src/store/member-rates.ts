import { type ClientSession, type Connection, type Model, Schema } from 'mongoose';
import type { MemberRate } from '@smm/contracts';
import { modelOn } from '@smm/platform';

/** One member's rate (issue 40), keyed `<userId>/<serviceId or *>`: one per member and scope. */
export type MemberRateDoc = MemberRate & { _id: string; userId: string; updatedAt: Date; updatedBy: string };

const memberRateSchema = new Schema<MemberRateDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    serviceId: { type: Number, default: null },
    discountPercent: { type: Number, default: null },
    unitPriceDeci: { type: Number, default: null },
    updatedAt: { type: Date, required: true },
    updatedBy: { type: String, required: true },
  },
  { collection: 'member_rates', versionKey: false },
);
memberRateSchema.index({ userId: 1, serviceId: 1 });

export const rateIdOf = (userId: string, serviceId: number | null) => `${userId}/${serviceId ?? '*'}`;

/**
 * The rate store: every rate of a member is read from here when an order is priced (cached
 * briefly, like the catalogue replica) and when a screen shows the member's prices.
 */
export class MemberRateRepository {
  readonly model: Model<MemberRateDoc>;
  /** Rates by member for pricing, each kept `ttlMs` (at most `maxCached` members, then started afresh). */
  private readonly cache = new Map<string, { at: number; value: Promise<MemberRate[]> }>();
  private static readonly maxCached = 10_000;

  constructor(
    connection: Connection,
    /** How long a member's rates are reused for pricing in this process (REPLICA_CACHE_MS, like the catalogue replica). */
    private readonly ttlMs: number,
  ) {
    this.model = modelOn(connection, 'MemberRate', memberRateSchema);
  }

  /** A member's rates, oldest scope first (every product, then by product id). */
  async list(userId: string, session?: ClientSession): Promise<MemberRateDoc[]> {
    return this.model.find({ userId }, null, { session: session ?? null, sort: { serviceId: 1 } }).lean<MemberRateDoc[]>();
  }

  /** What a placement prices with: the member's rates as the pricing rule reads them. */
  forPricing(userId: string): Promise<MemberRate[]> {
    const hit = this.cache.get(userId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    if (this.cache.size >= MemberRateRepository.maxCached) this.cache.clear();
    const value = this.model
      .find({ userId }, { serviceId: 1, discountPercent: 1, unitPriceDeci: 1 })
      .lean<MemberRateDoc[]>()
      .then((rows) => rows.map((r) => ({ serviceId: r.serviceId, discountPercent: r.discountPercent, unitPriceDeci: r.unitPriceDeci })));
    this.cache.set(userId, { at: Date.now(), value });
    value.catch(() => this.cache.delete(userId));
    return value;
  }

  find(userId: string, serviceId: number | null, session: ClientSession): Promise<MemberRateDoc | null> {
    return this.model.findById(rateIdOf(userId, serviceId), null, { session }).lean<MemberRateDoc>();
  }

  async save(doc: MemberRateDoc, session: ClientSession): Promise<void> {
    await this.model.replaceOne({ _id: doc._id }, doc, { upsert: true, session });
  }

  async remove(userId: string, serviceId: number | null, session: ClientSession): Promise<boolean> {
    return (await this.model.deleteOne({ _id: rateIdOf(userId, serviceId) }, { session })).deletedCount === 1;
  }

  /** After a change committed: this process prices the member's next order with it at once. */
  forget(userId: string): void {
    this.cache.delete(userId);
  }
}

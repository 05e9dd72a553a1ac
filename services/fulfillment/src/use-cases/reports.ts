import { balanceState } from '../domain/cost.ts';
import { faultText } from '../domain/fault-text.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import type { FulfillmentDeps } from './context.ts';

export type CostGroupBy = 'day' | 'product' | 'provider' | 'member' | 'provider-product';
export type CostGroup = { key: string; orders: number; costed: number; costDeci: number };
export type Range = { from: Date | null; to: Date | null };

const keyOf: Record<CostGroupBy, unknown> = {
  day: { $dateToString: { format: '%Y-%m-%d', date: '$createdAt', timezone: '+09:00' } },
  product: { $ifNull: ['$productId', 'none'] },
  provider: { $ifNull: ['$providerId', 'manual'] },
  member: '$userId',
  'provider-product': { provider: { $ifNull: ['$providerId', 'manual'] }, product: { $ifNull: ['$productId', 'none'] } },
};

/**
 * What providers charged for the orders paid in a range, by the day fulfillment took the order
 * (KST), the product, the provider, the member, or provider and product: forwards counted, how many
 * of them carry a reported charge (`costed`), and the sum of those charges in deci-won at each
 * provider's rate when reported (`costDeci`). Orders the provider refused (`failed`: canceled and
 * refunded) cost nothing and count nothing; manual products have no provider (key `manual`).
 */
export async function costGroups(deps: FulfillmentDeps, by: CostGroupBy, range: Range): Promise<CostGroup[]> {
  const createdAt = { ...(range.from && { $gte: range.from }), ...(range.to && { $lt: range.to }) };
  const match: Record<string, unknown> = { state: { $ne: 'failed' } };
  if (range.from || range.to) match.createdAt = createdAt;
  const rows = await forwards(deps.connection)
    .collection.aggregate([
      { $match: match },
      {
        $group: {
          _id: keyOf[by],
          orders: { $sum: 1 },
          costed: { $sum: { $cond: [{ $gte: [{ $ifNull: ['$costDeci', -1] }, 0] }, 1, 0] } },
          costDeci: { $sum: { $ifNull: ['$costDeci', 0] } },
        },
      },
    ])
    .toArray();
  return rows
    .map((row) => ({ key: groupKey(row._id), orders: Number(row.orders), costed: Number(row.costed), costDeci: Number(row.costDeci) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const groupKey = (id: unknown): string => (typeof id === 'object' && id !== null ? `${String((id as { provider: unknown }).provider)}:${String((id as { product: unknown }).product)}` : String(id));

export type AttentionBody = {
  forwards: {
    queued: number;
    retrying: number;
    /** When the oldest forward still waiting to be sent (queued, claimed or sent) was taken; null when none waits. */
    oldestWaitingAt: string | null;
    review: number;
    unknown: number;
  };
  /** Admins only (provider screens are theirs); null for staff. */
  providers: Array<{ id: number; name: string; currency: string; balance: string | null; balanceState: 'negative' | 'low' | 'ok' | null; lastError: string | null }> | null;
};

/** Everything of fulfillment's that needs a person (the dashboard's 처리할 일, issue 41). */
export async function attention(deps: FulfillmentDeps, admin: boolean): Promise<AttentionBody> {
  const model = forwards(deps.connection);
  const [queued, retrying, review, unknown, oldest] = await Promise.all([
    model.countDocuments({ state: 'queued', attempts: 0 }),
    model.countDocuments({ state: 'queued', attempts: { $gt: 0 } }),
    model.countDocuments({ state: 'review' }),
    model.countDocuments({ state: 'unknown' }),
    model.find({ state: { $in: ['queued', 'claimed', 'sent'] } }, { createdAt: 1 }).sort({ createdAt: 1 }).limit(1).lean<Pick<Forward, 'createdAt'>[]>(),
  ]);
  const providers = admin
    ? (await deps.providers.list()).map((p) => ({
        id: p._id,
        name: p.name,
        currency: p.currency,
        balance: p.balance,
        balanceState: balanceState(p.balance, p.lowBalanceThreshold, p.wonDeciPerUnit),
        lastError: p.lastError === null ? null : faultText(p.lastError),
      }))
    : null;
  return { forwards: { queued, retrying, oldestWaitingAt: oldest[0]?.createdAt.toISOString() ?? null, review, unknown }, providers };
}

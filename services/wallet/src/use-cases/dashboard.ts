import type { WalletDeps } from './context.ts';

/** One Korean calendar day of money movements, in deci-won (exact integers). */
export type MoneyDay = { date: string; salesDeci: number; refundsDeci: number; topUpsDeci: number; topUpCount: number };
export type MoneySummary = { days: MoneyDay[]; pendingTopUps: number };

const kstOffsetMs = 9 * 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;
const kstDate = (ms: number) => new Date(ms + kstOffsetMs).toISOString().slice(0, 10);

/**
 * The operators' dashboard (issue 12): per Korean day, the last `days` days ending today — sales
 * (order debits), refunds and approved top-ups (their credits), read from the ledger so they match
 * the balances exactly — and the top-ups waiting for an operator now.
 */
export async function moneySummary(deps: WalletDeps, days: number, now = Date.now()): Promise<MoneySummary> {
  const todayStartKst = Math.floor((now + kstOffsetMs) / dayMs) * dayMs - kstOffsetMs;
  const since = new Date(todayStartKst - (days - 1) * dayMs);
  const rows = await deps.store.ledger.model.aggregate<{ _id: { date: string; source: string }; sum: number; count: number }>([
    { $match: { createdAt: { $gte: since }, source: { $in: ['order', 'refund', 'topup'] } } },
    { $group: { _id: { date: { $dateToString: { date: '$createdAt', format: '%Y-%m-%d', timezone: '+09:00' } }, source: '$source' }, sum: { $sum: '$deltaDeci' }, count: { $sum: 1 } } },
  ]);
  const byDate = new Map<string, MoneyDay>();
  for (let i = 0; i < days; i++) {
    const date = kstDate(since.getTime() + i * dayMs);
    byDate.set(date, { date, salesDeci: 0, refundsDeci: 0, topUpsDeci: 0, topUpCount: 0 });
  }
  for (const row of rows) {
    const day = byDate.get(row._id.date);
    if (!day) continue;
    // Order entries are debits (negative deltas); a sale is shown as a positive amount.
    if (row._id.source === 'order') day.salesDeci -= row.sum;
    else if (row._id.source === 'refund') day.refundsDeci += row.sum;
    else {
      day.topUpsDeci += row.sum;
      day.topUpCount += row.count;
    }
  }
  const pendingTopUps = await deps.store.topUps.model.countDocuments({ status: 0 });
  return { days: [...byDate.values()], pendingTopUps };
}

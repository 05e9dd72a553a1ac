import type { Connection } from 'mongoose';
import { orderCollections } from './models.ts';

/** Revenue groups of the profit report (issue 41): by KST day, by product or by member. */
export type RevenueGroupBy = 'day' | 'product' | 'member';
export type RevenueGroup = { key: string; label: string | null; orders: number; chargedDeci: number; refundedDeci: number };
export type Range = { from: Date | null; to: Date | null };
export type MemberTotals = { userId: string; orders: number; chargedDeci: number; refundedDeci: number };

/** Korean time has no daylight saving: a fixed offset names every KST day. */
const kst = '+09:00';

const keyOf: Record<RevenueGroupBy, unknown> = {
  day: { $dateToString: { format: '%Y-%m-%d', date: '$paidAt', timezone: kst } },
  product: '$serviceId',
  member: '$userId',
};

const paidIn = (range: Range) => {
  const paidAt = { ...(range.from && { $gte: range.from }), ...(range.to && { $lt: range.to }) };
  return { payment: 'paid', ...(range.from || range.to ? { paidAt } : { paidAt: { $ne: null } }) };
};

/**
 * What members paid, by the day the payment was taken (KST), the product or the member: each
 * payment once — a one-off order's, or an auto order's for all its runs (its runs' child orders
 * carry no payment of their own; their refunds are summed into the auto order's `refundedDeci`).
 * An order given up unpaid and refunded is not `paid`, so it counts nothing here, as in the
 * ledger, where its debit and refund cancel out.
 */
export async function revenueGroups(connection: Connection, by: RevenueGroupBy, range: Range): Promise<RevenueGroup[]> {
  const pipeline = (extra: Record<string, unknown>) => [
    { $match: { ...paidIn(range), ...extra } },
    { $group: { _id: keyOf[by], label: { $last: '$serviceText' }, orders: { $sum: 1 }, chargedDeci: { $sum: '$chargeDeci' }, refundedDeci: { $sum: '$refundedDeci' } } },
  ];
  const [single, auto] = await Promise.all([
    connection.collection(orderCollections.order).aggregate(pipeline({ autoOrderId: null })).toArray(),
    connection.collection(orderCollections.auto).aggregate(pipeline({})).toArray(),
  ]);
  const groups = new Map<string, RevenueGroup>();
  for (const row of [...single, ...auto]) {
    const key = String(row._id);
    const group = groups.get(key) ?? { key, label: by === 'product' ? ((row.label as string | undefined) ?? null) : null, orders: 0, chargedDeci: 0, refundedDeci: 0 };
    group.orders += Number(row.orders);
    group.chargedDeci += Number(row.chargedDeci);
    group.refundedDeci += Number(row.refundedDeci);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Totals of these members' paid orders (one-off and auto), whatever the date. */
export async function memberTotals(connection: Connection, userIds: readonly string[]): Promise<MemberTotals[]> {
  if (userIds.length === 0) return [];
  return totals(connection, { userId: { $in: [...userIds] } }, null);
}

export type MemberSort = 'spent' | 'refunded' | 'orders';
const sortField: Record<MemberSort, string> = { spent: 'netDeci', refunded: 'refundedDeci', orders: 'orders' };

/**
 * Members ranked by what they spent (charged − refunded), refunded, or their number of orders;
 * one page. Reads every paid order (an aggregation over both collections), so it is for the
 * console's member list, not a hot path.
 */
export async function rankedMembers(connection: Connection, sort: MemberSort, skip: number, limit: number): Promise<MemberTotals[]> {
  const all = await totals(connection, {}, null);
  const field = sortField[sort] as 'netDeci' | 'refundedDeci' | 'orders';
  const value = (t: MemberTotals) => (field === 'netDeci' ? t.chargedDeci - t.refundedDeci : t[field]);
  return all.sort((a, b) => value(b) - value(a) || (a.userId < b.userId ? -1 : 1)).slice(skip, skip + limit);
}

async function totals(connection: Connection, match: Record<string, unknown>, range: Range | null): Promise<MemberTotals[]> {
  const pipeline = (extra: Record<string, unknown>) => [
    { $match: { ...paidIn(range ?? { from: null, to: null }), ...match, ...extra } },
    { $group: { _id: '$userId', orders: { $sum: 1 }, chargedDeci: { $sum: '$chargeDeci' }, refundedDeci: { $sum: '$refundedDeci' } } },
  ];
  const [single, auto] = await Promise.all([
    connection.collection(orderCollections.order).aggregate(pipeline({ autoOrderId: null })).toArray(),
    connection.collection(orderCollections.auto).aggregate(pipeline({})).toArray(),
  ]);
  const byUser = new Map<string, MemberTotals>();
  for (const row of [...single, ...auto]) {
    const userId = String(row._id);
    const t = byUser.get(userId) ?? { userId, orders: 0, chargedDeci: 0, refundedDeci: 0 };
    t.orders += Number(row.orders);
    t.chargedDeci += Number(row.chargedDeci);
    t.refundedDeci += Number(row.refundedDeci);
    byUser.set(userId, t);
  }
  return [...byUser.values()];
}

export type OrderExportFilter = Range & { status?: number; userId?: string; serviceId?: number };

/**
 * Paid orders (one-off and auto runs) placed in the range, oldest first, as a cursor: the export
 * streams them one batch at a time.
 */
export function orderExportCursor(connection: Connection, filter: OrderExportFilter) {
  const createdAt = { ...(filter.from && { $gte: filter.from }), ...(filter.to && { $lt: filter.to }) };
  const query: Record<string, unknown> = { payment: 'paid' };
  if (filter.from || filter.to) query.createdAt = createdAt;
  if (filter.status !== undefined) query.status = filter.status;
  if (filter.userId !== undefined) query.userId = filter.userId;
  if (filter.serviceId !== undefined) query.serviceId = filter.serviceId;
  return connection
    .collection(orderCollections.order)
    .find(query, {
      projection: { _id: 1, createdAt: 1, paidAt: 1, userId: 1, serviceId: 1, serviceText: 1, link: 1, amount: 1, chargeDeci: 1, refundedDeci: 1, status: 1, startCount: 1, remains: 1, autoOrderId: 1, run: 1, source: 1 },
    })
    .sort({ _id: 1 })
    .batchSize(500);
}

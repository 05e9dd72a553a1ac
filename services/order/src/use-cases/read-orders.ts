import type { Model } from 'mongoose';
import { autoStatusFilter } from '../domain/auto-order.ts';
import type { AutoOrder, Order } from '../store/models.ts';
import type { Store } from '../store/store.ts';
import { type AutoOrderView, type OrderView, autoOrderView, orderView } from './views.ts';

export type Paging = { page: number; pageSize: number };
export type Page<T> = { items: T[]; page: number; pageSize: number; hasNext: boolean };

/**
 * Newest first by id (ids come from one increasing sequence), pageSize + 1 rows to know hasNext
 * without counting: every filter here is an equality prefix of an index ending in `_id: -1`.
 */
async function page<T, V>(model: Model<T>, filter: Record<string, unknown>, paging: Paging, view: (doc: T) => V): Promise<Page<V>> {
  const rows = await model
    .find(filter)
    .sort({ _id: -1 })
    .skip((paging.page - 1) * paging.pageSize)
    .limit(paging.pageSize + 1)
    .lean<T[]>();
  return { items: rows.slice(0, paging.pageSize).map(view), page: paging.page, pageSize: paging.pageSize, hasNext: rows.length > paging.pageSize };
}

/** A member's paid orders (auto-order runs included); `status` narrows to one spec §4 status. */
export function orderHistory(store: Store, userId: string, status: number | undefined, paging: Paging): Promise<Page<OrderView>> {
  const filter = status === undefined ? { userId, payment: 'paid' } : { userId, status };
  return page(store.orders, filter, paging, orderView);
}

/** A member's paid auto orders; the filter "completed" (1) includes partial (3). */
export function autoOrderHistory(store: Store, userId: string, status: number | undefined, paging: Paging): Promise<Page<AutoOrderView>> {
  const filter = status === undefined ? { userId, payment: 'paid' } : { userId, status: { $in: autoStatusFilter(status) } };
  return page(store.autoOrders, filter, paging, autoOrderView);
}

/** Operators' list across members: paid orders unless `payment` asks for another state. */
export function adminOrders(
  store: Store,
  query: { status?: number | undefined; userId?: string | undefined; payment?: 'awaiting' | 'paid' | 'rejected' | undefined },
  paging: Paging,
): Promise<Page<OrderView>> {
  const filter: Record<string, unknown> = {};
  if (query.userId !== undefined) filter.userId = query.userId;
  if (query.status !== undefined) filter.status = query.status;
  else filter.payment = query.payment ?? 'paid';
  return page(store.orders, filter, paging, orderView);
}

/** One order or auto order by id (they share the id sequence), with `kind`. */
export async function findAnyOrder(store: Store, id: number): Promise<OrderView | AutoOrderView | null> {
  const order = await store.orders.findById(id).lean<Order>();
  if (order) return orderView(order);
  const auto = await store.autoOrders.findById(id).lean<AutoOrder>();
  return auto ? autoOrderView(auto) : null;
}

/** Several at once (API v2 multi-status): those found and owned by `userId` (any when undefined). */
export async function findOrders(store: Store, ids: number[], userId: string | undefined): Promise<Array<OrderView | AutoOrderView>> {
  const owner = userId === undefined ? {} : { userId };
  const [orders, autos] = await Promise.all([
    store.orders.find({ _id: { $in: ids }, ...owner }).lean<Order[]>(),
    store.autoOrders.find({ _id: { $in: ids }, ...owner }).lean<AutoOrder[]>(),
  ]);
  const byId = new Map<number, OrderView | AutoOrderView>();
  for (const o of orders) byId.set(o._id, orderView(o));
  for (const a of autos) byId.set(a._id, autoOrderView(a));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

import { autoStatusFilter } from '../domain/auto-order.ts';
import type { Page, Paging } from '../store/newest-first.ts';
import type { Store } from '../store/store.ts';
import { type AutoOrderView, type OrderView, autoOrderView, orderView } from './views.ts';

/** A member's paid orders (auto-order runs included); `status` narrows to one spec §4 status. */
export async function orderHistory(store: Store, userId: string, status: number | undefined, paging: Paging): Promise<Page<OrderView>> {
  const filter = status === undefined ? { userId, payment: 'paid' } : { userId, status };
  return store.repository.orderPage(filter, paging, orderView);
}

/** A member's paid auto orders; the filter "completed" (1) includes partial (3). */
export async function autoOrderHistory(store: Store, userId: string, status: number | undefined, paging: Paging): Promise<Page<AutoOrderView>> {
  const filter = status === undefined ? { userId, payment: 'paid' } : { userId, status: { $in: autoStatusFilter(status) } };
  return store.repository.autoOrderPage(filter, paging, autoOrderView);
}

/** Operators' list across members: paid orders unless `payment` asks for another state. */
export async function adminOrders(
  store: Store,
  query: { status?: number | undefined; userId?: string | undefined; payment?: 'awaiting' | 'paid' | 'rejected' | undefined },
  paging: Paging,
): Promise<Page<OrderView>> {
  const filter: Record<string, unknown> = {};
  if (query.userId !== undefined) filter.userId = query.userId;
  if (query.status !== undefined) filter.status = query.status;
  else filter.payment = query.payment ?? 'paid';
  return store.repository.orderPage(filter, paging, orderView);
}

/** One order or auto order by id (they share the id sequence), with `kind`. */
export async function findAnyOrder(store: Store, id: number): Promise<OrderView | AutoOrderView | null> {
  const order = await store.repository.order(id);
  if (order) return orderView(order);
  const auto = await store.repository.autoOrder(id);
  if (!auto) return null;
  const view = autoOrderView(auto);
  // A subscription also lists its posts' orders (API v2 `status` answers them as `orders`).
  if (view.subscription) return { ...view, subscription: { ...view.subscription, orders: await store.repository.runOrderIds(id) } };
  return view;
}

/** Several at once (API v2 multi-status): those found and owned by `userId` (any when undefined). */
export async function findOrders(store: Store, ids: number[], userId: string | undefined): Promise<Array<OrderView | AutoOrderView>> {
  const { orders, autos } = await store.repository.findMany(ids, userId);
  const byId = new Map<number, OrderView | AutoOrderView>();
  for (const o of orders) byId.set(o._id, orderView(o));
  for (const a of autos) {
    const view = autoOrderView(a);
    byId.set(a._id, view.subscription ? { ...view, subscription: { ...view.subscription, orders: await store.repository.runOrderIds(a._id) } } : view);
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export type { Page, Paging };

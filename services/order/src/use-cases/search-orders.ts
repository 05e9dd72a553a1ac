import type { Store } from '../store/store.ts';
import type { Page, Paging } from '../store/newest-first.ts';
import { orderView } from './views.ts';

export type OrderSearch = { id?: number | undefined; ids?: number[] | undefined; userId?: string | undefined; status?: number | undefined; serviceId?: number | undefined; link?: string | undefined };

/**
 * The operators' order search (issue 12): any mix of member, status, product and exact link, paid
 * orders newest first. Read through the id-bucket windows, so the first pages stay cheap over a
 * million orders whatever the filter.
 */
export async function searchOrders(store: Store, search: OrderSearch, paging: Paging): Promise<Page<ReturnType<typeof orderView>>> {
  const filter: Record<string, unknown> = { payment: 'paid' };
  if (search.id !== undefined) filter._id = search.id;
  // A list of ids (at most 100: the orders another service found, e.g. fulfillment's per provider)
  // is a direct lookup of each; with `id` too, only that one if it is in the list.
  if (search.ids !== undefined) filter._id = search.id === undefined ? { $in: search.ids } : search.ids.includes(search.id) ? search.id : { $in: [] };
  if (search.userId !== undefined) filter.userId = search.userId;
  if (search.status !== undefined) filter.status = search.status;
  if (search.serviceId !== undefined) filter.serviceId = search.serviceId;
  if (search.link !== undefined) filter.link = search.link;
  return store.repository.orderPage(filter, paging, orderView);
}

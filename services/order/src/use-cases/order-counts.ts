import { OrderStatus } from '@smm/contracts';
import type { Store } from '../store/store.ts';

/**
 * Paid orders per status for the console's dashboard (issue 12): `{ "0": n, …, "5": n }`. One count
 * per status so each reads the status index; orders whose payment was refused are left out.
 */
export async function orderCounts(store: Store): Promise<Record<string, number>> {
  const statuses = Object.values(OrderStatus.values);
  const counts = await store.repository.paidPerStatus(statuses);
  return Object.fromEntries(statuses.map((status, i) => [String(status), counts[i]!]));
}

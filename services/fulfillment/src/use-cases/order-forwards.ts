import type { OrderForwardBody, ProviderNamesBody, ProviderOrderChunkBody } from '@smm/contracts/http';
import type { Forward } from '../store/forward.model.ts';
import { forwards } from '../store/forward.model.ts';
import type { FulfillmentDeps } from './context.ts';

/** What the operators' order list shows of an order's forwarding (issue 12): no notes, no keys. */
export type OrderForwardRow = {
  orderId: number;
  state: Forward['state'];
  providerId: number | null;
  providerName: string | null;
  providerOrderId: string | null;
  providerStatus: string | null;
  updatedAt: string;
};

const fields = { _id: 1, state: 1, providerId: 1, providerOrderId: 1, providerStatus: 1, updatedAt: 1 } as const;
type Picked = Pick<Forward, '_id' | 'state' | 'providerId' | 'providerOrderId' | 'providerStatus' | 'updatedAt'>;

async function rowsOf(deps: FulfillmentDeps, docs: Picked[]): Promise<OrderForwardRow[]> {
  // A panel has a handful of providers: one small read names them all.
  const names = new Map((await deps.providers.list()).map((p) => [p._id, p.name]));
  return docs.map((f) => ({
    orderId: f._id,
    state: f.state,
    providerId: f.providerId,
    providerName: f.providerId === null ? null : (names.get(f.providerId) ?? null),
    providerOrderId: f.providerOrderId,
    providerStatus: f.providerStatus,
    updatedAt: f.updatedAt.toISOString(),
  }));
}

/** The forwarding of up to 100 orders at once (one `_id $in` lookup): a page of the order list. */
export async function forwardsOfOrders(deps: FulfillmentDeps, ids: number[]): Promise<OrderForwardRow[]> {
  if (ids.length === 0) return [];
  const docs = await forwards(deps.connection).find({ _id: { $in: ids } }, fields).lean<Picked[]>();
  return (await rowsOf(deps, docs.sort((a, b) => b._id - a._id))) satisfies OrderForwardBody[];
}

export type ProviderOrderSearch = {
  providerId: number;
  userId?: string | undefined;
  productId?: number | undefined;
  link?: string | undefined;
  orderId?: number | undefined;
  /** Only orders with a smaller id (the cursor: the last id of the previous chunk). */
  before?: number | undefined;
  limit: number;
};

/**
 * Orders forwarded to one provider, newest first, `limit` at a time below `before`. Each mix of
 * filters is read from an index {providerId[, userId | productId | link], _id}: equalities, then a
 * range and the sort on `_id`, so a chunk costs `limit` index entries however many orders the
 * provider carried. The filters are what the order was placed with (never changed afterwards), so
 * fulfillment's copy answers exactly what the order service would.
 */
export async function ordersOfProvider(deps: FulfillmentDeps, search: ProviderOrderSearch): Promise<{ items: OrderForwardRow[]; hasMore: boolean }> {
  const filter: Record<string, unknown> = { providerId: search.providerId };
  if (search.userId !== undefined) filter.userId = search.userId;
  if (search.productId !== undefined) filter.productId = search.productId;
  if (search.link !== undefined) filter.link = search.link;
  if (search.orderId !== undefined) {
    if (search.before !== undefined && search.orderId >= search.before) return { items: [], hasMore: false };
    filter._id = search.orderId;
  } else if (search.before !== undefined) filter._id = { $lt: search.before };
  const docs = await forwards(deps.connection).find(filter, fields).sort({ _id: -1 }).limit(search.limit + 1).lean<Picked[]>();
  return { items: await rowsOf(deps, docs.slice(0, search.limit)), hasMore: docs.length > search.limit } satisfies ProviderOrderChunkBody;
}

/** Provider names for the order list's filter (staff may not open the providers screen). */
export async function providerNames(deps: FulfillmentDeps): Promise<ProviderNamesBody> {
  return (await deps.providers.list()).map((p) => ({ id: p._id, name: p.name })) satisfies ProviderNamesBody;
}

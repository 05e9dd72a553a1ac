import { type ForwardingViewBody, type OrderForwardBody, type OrderViewBody, type Page, orderForwards, orderPage, providerOrderChunk } from '@smm/contracts/http';
import { readAnswer } from '../upstream/read-answer.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';

/** An order's forwarding as the operators' order list shows it (fulfillment's /admin/order-forwards). */
export type Forwarding = OrderForwardBody;
type Row = { id: number; userId: string };

const view = (f: Forwarding): ForwardingViewBody => ({ state: f.state, providerId: f.providerId, providerName: f.providerName, providerOrderId: f.providerOrderId, providerStatus: f.providerStatus });
export type ForwardingView = ForwardingViewBody;

/**
 * Adds `forwarding` to each row of a page with one batched lookup (never one call per row); null
 * for an order fulfillment holds no record of. When fulfillment cannot answer, the page is still
 * served (the orders are order's), marked `forwardingUnavailable` so the screen can say so.
 */
export async function withForwarding<T extends Row>(fulfillment: ServiceClient, ctx: CallContext, page: Page<T>): Promise<Page<T & { forwarding: ForwardingView | null }> & { forwardingUnavailable?: true }> {
  if (page.items.length === 0) return { ...page, items: [] };
  let found: Forwarding[] | null = null;
  try {
    const answer = await fulfillment.call(ctx, 'GET', '/admin/order-forwards', { query: new URLSearchParams({ ids: page.items.map((i) => i.id).join(',') }) });
    // An answer off the contract is logged by readAnswer and lands below: the page without forwarding.
    if (answer.status === 200) found = readAnswer(ctx, answer, orderForwards).items;
    else ctx.log.warn({ status: answer.status }, 'forwarding lookup refused');
  } catch (error) {
    ctx.log.warn({ err: error }, 'forwarding lookup failed');
  }
  if (found === null) return { ...page, items: page.items.map((i) => ({ ...i, forwarding: null })), forwardingUnavailable: true };
  const byId = new Map(found.map((f) => [f.orderId, view(f)]));
  return { ...page, items: page.items.map((i) => ({ ...i, forwarding: byId.get(i.id) ?? null })) };
}

/** What the order list asks of the orders forwarded to one provider. */
export type ProviderSearch = { providerId: string; userId?: string; serviceId?: string; link?: string; orderId?: string; status?: string; page: number; pageSize: number };

/** Ids asked of fulfillment per step (order's id list takes at most 100). */
const chunk = 100;
/** Forward records read for one page at most: a status rarer than this among a provider's orders answers a short page, marked `scanLimited`. */
export const maxScanned = 5_000;

/**
 * The provider filter (issue 12). Fulfillment holds which orders went to which provider, indexed
 * {providerId[, userId | productId | link], _id}; order holds the orders. Fulfillment is asked for
 * the provider's order ids newest first, a chunk below the last id read (its copy of member,
 * product, link and id is what the order was placed with, so those filters apply there exactly);
 * order answers those ids (a direct `_id` lookup each) with the status filter, which only order
 * knows. Chunks are read until the page and one more row are in hand, so hasNext needs no count.
 * Without a status, page n costs about n × pageSize / 100 + 1 call pairs.
 */
export async function searchByProvider(fulfillment: ServiceClient, order: ServiceClient, ctx: CallContext, search: ProviderSearch) {
  const skip = (search.page - 1) * search.pageSize;
  const need = skip + search.pageSize + 1;
  const rows: Array<OrderViewBody & { forwarding: ForwardingView }> = [];
  let before: number | undefined;
  let scanned = 0;
  let exhausted = false;
  while (rows.length < need) {
    if (scanned >= maxScanned) break;
    const q = new URLSearchParams({ providerId: search.providerId, limit: String(search.status === undefined ? Math.min(chunk, need - rows.length) : chunk) });
    if (search.userId !== undefined) q.set('userId', search.userId);
    if (search.serviceId !== undefined) q.set('productId', search.serviceId);
    if (search.link !== undefined) q.set('link', search.link);
    if (search.orderId !== undefined) q.set('orderId', search.orderId);
    if (before !== undefined) q.set('before', String(before));
    const answer = await fulfillment.call(ctx, 'GET', '/admin/order-forwards/search', { query: q });
    if (answer.status !== 200) return { relayed: answer, from: 'fulfillment' as const };
    const found = readAnswer(ctx, answer, providerOrderChunk);
    scanned += found.items.length;
    if (found.items.length > 0) {
      const oq = new URLSearchParams({ ids: found.items.map((f) => f.orderId).join(','), pageSize: String(chunk) });
      if (search.status !== undefined) oq.set('status', search.status);
      const orders = await order.call(ctx, 'GET', '/admin/orders/search', { query: oq });
      if (orders.status !== 200) return { relayed: orders, from: 'order' as const };
      const byId = new Map(found.items.map((f) => [f.orderId, view(f)]));
      // Both lists are newest first and every id of this chunk is below the last one's.
      for (const o of readAnswer(ctx, orders, orderPage).items) rows.push({ ...o, forwarding: byId.get(o.id)! });
      before = found.items.at(-1)!.orderId;
    }
    if (!found.hasMore) {
      exhausted = true;
      break;
    }
  }
  if (rows.length > need) rows.length = need;
  const items = rows.slice(skip, skip + search.pageSize);
  const page = { items, page: search.page, pageSize: search.pageSize, hasNext: rows.length > skip + search.pageSize };
  return { page: !exhausted && rows.length < need ? { ...page, scanLimited: true as const } : page };
}

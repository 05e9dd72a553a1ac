import { z } from 'zod';
import { itemList } from './common.ts';

/** Fulfillment service answers the BFF reads (services/fulfillment/src/use-cases). */

/** An order's forwarding as the operators' order list shows it (order-forwards.ts). */
export const orderForward = z.looseObject({
  orderId: z.number().int(),
  state: z.string(),
  providerId: z.number().int().nullable(),
  providerName: z.string().nullable(),
  providerOrderId: z.string().nullable(),
  providerStatus: z.string().nullable(),
  updatedAt: z.string(),
});
export type OrderForwardBody = z.infer<typeof orderForward>;

/** `GET /admin/order-forwards?ids=`. */
export const orderForwards = itemList(orderForward);
export type OrderForwardsBody = z.infer<typeof orderForwards>;
/** `GET /admin/order-forwards/search`: one cursor chunk of a provider's orders, newest first. */
export const providerOrderChunk = z.looseObject({ items: z.array(orderForward), hasMore: z.boolean() });
export type ProviderOrderChunkBody = z.infer<typeof providerOrderChunk>;

/** `GET /admin/providers` (providerView): the fields the dashboard shows. */
export const providerView = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  currency: z.string(),
  balance: z.string().nullable(),
  balanceLow: z.boolean(),
  lastError: z.string().nullable(),
});
export type ProviderViewBody = z.infer<typeof providerView>;
export const providerList = z.array(providerView);
export type ProviderListBody = z.infer<typeof providerList>;

/** `GET /admin/forwards`: the dashboard counts them only. */
export const forwardList = z.array(z.looseObject({ orderId: z.number().int() }));
export type ForwardListBody = z.infer<typeof forwardList>;

/** `GET /admin/notices`: the newest notices and how many are unread. */
export const noticeList = z.looseObject({ unread: z.number().int(), items: z.array(z.unknown()) });
export type NoticeListBody = z.infer<typeof noticeList>;

/** `POST /orders/:id/refill` (201) and `GET /refills/:id`. */
export const refillView = z.looseObject({ refill: z.number().int(), orderId: z.number().int(), status: z.string() });
export type RefillViewBody = z.infer<typeof refillView>;

/** `GET /products/flags`: refill and cancel per product forwarded to a provider. */
export const productFlags = z.array(z.looseObject({ productId: z.number().int(), refill: z.boolean(), cancel: z.boolean() }));
export type ProductFlagsBody = z.infer<typeof productFlags>;

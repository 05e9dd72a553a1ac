import { z } from 'zod';
import { isoDateText, itemList, page, requestNumber } from './common.ts';
import { orderDetailsSchema, subscriptionTermsSchema } from '../events/order.ts';
import { serviceTypes, subscriptionStates } from '../service-types.ts';

/** Order service answers (services/order/src/use-cases/views.ts and http/*.ts). */

const paymentLabel = z.enum(['awaiting_payment', 'paid', 'rejected']);
const orderSource = z.enum(['web', 'api']);

/** What every order view starts with, one-off or auto. */
const placedFields = {
  id: z.number().int(),
  userId: z.string(),
  createdAt: isoDateText,
  serviceId: z.number().int(),
  serviceText: z.string(),
  link: z.string(),
  linkUrl: z.string().nullable(),
  point: z.number(),
  pointDeci: z.number().int(),
};

/** One one-off order (or an auto order's run): `orderView`. `status` is null until paid. */
export const orderView = z.looseObject({
  kind: z.literal('order'),
  ...placedFields,
  amount: z.number().int(),
  status: z.number().int().nullable(),
  startCount: z.number().int().nullable(),
  remains: z.number().int(),
  autoOrderId: z.number().int().nullable(),
  run: z.number().int().nullable(),
  payment: paymentLabel,
  refundedDeci: z.number().int(),
  source: orderSource,
  reason: z.string().nullable(),
  /** The product's type when it was placed (service-types.ts) and what the member gave for it: comments, usernames, a username; null for default orders (absent from an order service that predates types). */
  serviceType: z.enum(serviceTypes).optional(),
  details: orderDetailsSchema.nullable().optional(),
});
export type OrderViewBody = z.infer<typeof orderView>;

/**
 * A subscription's part of its auto order's view: the terms, the state (active, paused, completed,
 * expired, canceled), posts done (= the auto order's `completed`), the price of one post and when it ended.
 */
export const subscriptionView = subscriptionTermsSchema.extend({
  state: z.enum(subscriptionStates),
  postsDone: z.number().int(),
  perPostDeci: z.number().int(),
  endedAt: isoDateText.nullable(),
  /** The posts' order ids, oldest first (`GET /orders/:id` only). */
  orders: z.array(z.number().int()).optional(),
});
export type SubscriptionViewBody = z.infer<typeof subscriptionView>;

/** An auto order: `autoOrderView`; `point` is what it finally cost (charge less refunds). */
export const autoOrderView = z.looseObject({
  kind: z.literal('auto'),
  ...placedFields,
  chargeDeci: z.number().int(),
  refundedDeci: z.number().int(),
  amount: z.number().int(),
  completed: z.number().int(),
  runs: z.number().int(),
  interval: z.number().int(),
  totalQuantity: z.number().int(),
  status: z.number().int().nullable(),
  payment: paymentLabel,
  source: orderSource,
  /** A subscription (service type `subscriptions`): its terms, state and when it ended; null for other auto orders. */
  subscription: subscriptionView.nullable().optional(),
});
export type AutoOrderViewBody = z.infer<typeof autoOrderView>;

/** `GET /orders/:id`: an id may name an order or an auto order. */
export const anyOrderView = z.discriminatedUnion('kind', [orderView, autoOrderView]);
export type AnyOrderViewBody = z.infer<typeof anyOrderView>;

/** `GET /orders`, `GET /admin/orders`, `GET /admin/orders/search`. */
export const orderPage = page(orderView);
/** `GET /auto-orders`. */
export const autoOrderPage = page(autoOrderView);
/** `GET /orders?ids=`: those found and owned, in the order asked. */
export const orderList = itemList(anyOrderView);
export type OrderPageBody = z.infer<typeof orderPage>;
export type AutoOrderPageBody = z.infer<typeof autoOrderPage>;
export type OrderListBody = z.infer<typeof orderList>;

/** `POST /orders` 201 (paid) or 202 (still awaiting the payment): the order, or the auto order with runs. */
export const placedOrder = z.looseObject({ outcome: z.enum(['accepted', 'awaiting_payment']), order: anyOrderView });
export type PlacedOrderBody = z.infer<typeof placedOrder>;

/** `POST /auto-orders/:id/cancel`: the canceled auto order and the refund of its runs not placed (won and deci-won). */
export const autoOrderCancel = z.looseObject({ autoOrder: autoOrderView, refund: z.number(), refundDeci: z.number().int() });
export type AutoOrderCancelBody = z.infer<typeof autoOrderCancel>;

/** `GET /admin/dashboard`: paid orders per status number. */
export const orderCounts = z.looseObject({ byStatus: z.record(z.string(), z.number().int()) });
export type OrderCountsBody = z.infer<typeof orderCounts>;

/*
 * Requests (see common.ts): what the BFF sends and order reads.
 */

/**
 * `POST /orders`: a one-off order, or an auto order with `runs` and `interval`. Only the shape here;
 * order's rules (spec §5) judge the values in their order with their Korean messages: a number of
 * another type reads as NaN (refused, and a garbled `runs` never turns an auto order into a one-off
 * one), a link of another type as empty. `source` names the caller's channel (web app or API).
 */
export const placeOrderRequest = z.object({
  serviceId: requestNumber(),
  link: z.string().nullish().catch(''),
  amount: requestNumber(),
  runs: requestNumber(),
  interval: requestNumber(),
  /**
   * The unit price (deci-won) the caller showed the member — the web's order screen: charged at it,
   * or refused with 409 PRICE_CHANGED when the product was repriced. API callers send none.
   */
  unitPriceDeci: requestNumber(),
  source: orderSource.default('web'),
  /**
   * A typed product's fields (service-types.ts), as sent (API v2 names): comments one per line,
   * usernames one per line (or comma-separated), the comment author's username. Text of another
   * type reads as absent, which the product's own rule then refuses.
   */
  comments: z.string().max(200_000).nullish().catch(undefined),
  usernames: z.string().max(200_000).nullish().catch(undefined),
  username: z.string().max(200).nullish().catch(undefined),
  /** A subscription's fields (service-types.ts, API v2 names); `expiry` a `yyyy-mm-dd` date (also `dd/mm/yyyy`, the standard's). */
  min: requestNumber(),
  max: requestNumber(),
  posts: requestNumber(),
  delay: requestNumber(),
  expiry: z.string().max(40).nullish().catch(undefined),
  /**
   * The caller's Idempotency-Key with a hash of what it asked (the BFF's): the order service places
   * at most one order per member and key, so a retry after an answer that never arrived (a timeout,
   * a crash) is the first order's answer, not a second charge. Another request under a stored key
   * is refused with 409 IDEMPOTENCY_KEY_REUSED. A key whose order was given up, or was placed more than
   * 24 hours ago (as long as the BFF keeps a key's answer by default), is free again.
   */
  request: z.object({ key: z.string().min(1).max(255), hash: z.string().min(1).max(128) }).optional(),
});
export type PlaceOrderRequest = z.input<typeof placeOrderRequest>;

/**
 * A placement id: the `request.key` the BFF gives a placement that came without an Idempotency-Key,
 * chosen before it calls the order service, so that after a lost or failed call it can ask what became
 * of that placement (`POST /orders/placement`). Starts with a space-separated prefix no client key can
 * have (client keys are printable ASCII without spaces).
 */
export const placementIdPrefix = 'bff-placement ';
export const isPlacementId = (key: string): boolean => key.startsWith(placementIdPrefix);

/** `POST /orders/placement`: what became of the placement made under this request (key and hash as sent). */
export const placementLookupRequest = z.object({ request: placeOrderRequest.shape.request.unwrap() });

/**
 * `PATCH /admin/orders/:id`: an operator's (or fulfillment's) change — a status number, a start count
 * (or null) and the remains, with an optional member-facing reason. Order's own rules judge every
 * value with their own codes (STATUS_INVALID, START_COUNT_INVALID, REMAINS_INVALID,
 * NOTHING_TO_UPDATE), so the values pass as sent; a reason of another type, like a body that is no
 * object, stays refused (VALIDATION_FAILED). Order adds the reason's length rule with its message.
 */
export const orderStatusPatchRequest = z.object({
  status: z.unknown().optional(),
  startCount: z.unknown().optional(),
  remains: z.unknown().optional(),
  reason: z.string().optional(),
});
export type OrderStatusPatchRequest = z.input<typeof orderStatusPatchRequest>;

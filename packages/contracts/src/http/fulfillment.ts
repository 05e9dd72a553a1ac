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
  /** The last call's failure; null once a call succeeds. */
  lastError: z.string().nullable(),
  /**
   * From the provider's last call (check, balance, status, add, refill, cancel): `unchecked` before
   * any, `failing` while the last failed (`lastError`, since `failingSince`), else `ok`. Optional
   * for answers of a fulfillment older than these fields.
   */
  health: z.enum(['unchecked', 'ok', 'failing']).optional(),
  lastCallAt: z.string().nullable().optional(),
  lastCallAction: z.string().nullable().optional(),
  lastErrorAt: z.string().nullable().optional(),
  failingSince: z.string().nullable().optional(),
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

/**
 * `POST /orders/:id/refill` (201; 200 with `existing` when a refill of the order is still open —
 * it is answered, not forwarded again) and `GET /refills/:id`. `status` in panels' words;
 * `state` the request queue's (sending, forwarded, failed, done, closed).
 */
export const refillView = z.looseObject({ refill: z.number().int(), orderId: z.number().int(), status: z.string(), state: z.string().optional(), existing: z.literal(true).optional() });
export type RefillViewBody = z.infer<typeof refillView>;

/** `GET /products/flags`: refill and cancel per product forwarded to a provider. */
export const productFlags = z.array(z.looseObject({ productId: z.number().int(), refill: z.boolean(), cancel: z.boolean() }));
export type ProductFlagsBody = z.infer<typeof productFlags>;

/*
 * The operators' fulfillment screens (providers, mappings, review, notices), relayed by the BFF
 * (`/api/admin/fulfillment/*`) and read by the console.
 */

const nullableInt = z.number().int().nullable();

/** A provider as operators see it (`providerView`): the key only masked ("****abcd"). */
export const adminProviderView = providerView.extend({
  url: z.string(),
  key: z.string(),
  wonDeciPerUnit: z.number().int(),
  lowBalanceThreshold: z.string(),
  /** The provider replays `add` for a repeated Idempotency-Key. */
  idempotentAdd: z.boolean(),
  balanceCheckedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminProviderViewBody = z.infer<typeof adminProviderView>;
export const adminProviderList = z.array(adminProviderView);
export type AdminProviderListBody = z.infer<typeof adminProviderList>;

/** `POST /admin/providers/:id/check`: the balance call's outcome and the provider after it. */
export const providerCheck = z.looseObject({ ok: z.boolean(), balance: z.string().nullable(), currency: z.string().nullable(), error: z.string().nullable(), provider: adminProviderView });
export type ProviderCheckBody = z.infer<typeof providerCheck>;

/** One service of a provider's imported list (`providerServiceView`); `listed` false once a later import drops it. */
export const providerServiceView = z.looseObject({
  service: z.string(),
  name: z.string(),
  type: z.string(),
  category: z.string(),
  rate: z.string(),
  min: z.number().int(),
  max: z.number().int(),
  dripfeed: z.boolean(),
  refill: z.boolean(),
  cancel: z.boolean(),
  listed: z.boolean(),
});
export type ProviderServiceViewBody = z.infer<typeof providerServiceView>;
export const providerServiceList = z.array(providerServiceView);
export type ProviderServiceListBody = z.infer<typeof providerServiceList>;

/** How a mapped product's price follows its provider's rate. */
export const priceRule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('markup'), percent: z.number().int() }),
  z.object({ kind: z.literal('fixed'), unitPriceDeci: z.number().int() }),
]);
export type PriceRuleBody = z.infer<typeof priceRule>;

/** A product's mapping (`mappingView`): manual, or a provider's service with a price rule. */
export const mappingView = z.looseObject({
  productId: z.number().int(),
  mode: z.enum(['manual', 'provider']),
  providerId: nullableInt,
  providerServiceId: z.string().nullable(),
  rule: priceRule.nullable(),
  allowBelowCost: z.boolean(),
  costDeci: nullableInt,
  unitPriceDeci: nullableInt,
  min: nullableInt,
  max: nullableInt,
  dripfeed: z.boolean(),
  refill: z.boolean(),
  cancel: z.boolean(),
  /** Set by the price sync when the provider dropped or disabled the service, or the price fell below cost. */
  suspendedReason: z.string().nullable(),
  updatedAt: z.string(),
});
export type MappingViewBody = z.infer<typeof mappingView>;
export const mappingList = z.array(mappingView);
export type MappingListBody = z.infer<typeof mappingList>;

/** A forward as the review screen shows it (`forwardView`); product, link and amount null for a run not yet read. */
export const forwardRecord = z.looseObject({
  orderId: z.number().int(),
  userId: z.string(),
  productId: nullableInt,
  link: z.string().nullable(),
  amount: nullableInt,
  state: z.string(),
  providerId: nullableInt,
  providerOrderId: z.string().nullable(),
  attempts: z.number().int(),
  note: z.string().nullable(),
  /** The provider's answer that put it here (not understood, or not a success), as sent, ≤ 500 characters. */
  providerAnswer: z.string().nullable().optional(),
  /** 'accepted': the provider holds the order (a status answer was not understood); resume instead of resend. */
  reviewFrom: z.enum(['accepted']).nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ForwardRecordBody = z.infer<typeof forwardRecord>;
export const forwardRecordList = z.array(forwardRecord);
export type ForwardRecordListBody = z.infer<typeof forwardRecordList>;

/** One notice of the price and balance syncs (`GET /admin/notices` items). */
export const fulfillmentNotice = z.looseObject({
  id: z.string(),
  kind: z.enum(['repriced', 'suspended', 'resumed', 'balance-low']),
  providerId: z.number().int(),
  productId: nullableInt,
  text: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type FulfillmentNoticeBody = z.infer<typeof fulfillmentNotice>;
/** `GET /admin/notices` with its items read whole (the console's notice card). */
export const fulfillmentNoticeList = noticeList.extend({ items: z.array(fulfillmentNotice) });
export type FulfillmentNoticeListBody = z.infer<typeof fulfillmentNoticeList>;

/** `POST /orders/:id/cancel` (member or API key): canceled before sending (refunded), or asked of the provider. */
export const cancelAnswer = z.looseObject({ orderId: z.number().int(), cancel: z.enum(['canceled', 'requested']) });
export type CancelAnswerBody = z.infer<typeof cancelAnswer>;

/** `POST /admin/providers/:id/import`: how many services the provider listed, and how many lacked an id, a rate or sane limits. */
export const importResult = z.looseObject({ imported: z.number().int(), skipped: z.number().int() });
export type ImportResultBody = z.infer<typeof importResult>;

/** `GET /admin/order-forwards/providers`: the order list's provider filter (staff see names only). */
export const providerNames = z.array(z.looseObject({ id: z.number().int(), name: z.string() }));
export type ProviderNamesBody = z.infer<typeof providerNames>;

/**
 * A refill or cancel request in fulfillment's queue (`GET /admin/requests`, issue 41): what was
 * asked of the provider, its answer as sent (`answer`, ≤ 500 characters), and where it stands.
 * `unclear`: failed without a clear answer (the provider may hold it; never re-sent by itself).
 */
export const providerRequest = z.looseObject({
  id: z.string(),
  kind: z.enum(['refill', 'cancel']),
  number: z.number().int(),
  orderId: z.number().int(),
  userId: z.string(),
  providerId: z.number().int(),
  providerName: z.string().nullable(),
  providerOrderId: z.string(),
  state: z.enum(['sending', 'waiting', 'forwarded', 'failed', 'done', 'closed']),
  open: z.boolean(),
  unclear: z.boolean(),
  providerRequestId: z.string().nullable(),
  status: z.string().nullable(),
  answer: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  note: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  checkedAt: z.string().nullable(),
});
export type ProviderRequestBody = z.infer<typeof providerRequest>;
/** `GET /admin/requests?state=failed|open|all&kind=&limit=`: the queue and the counts the dashboard shows. */
export const providerRequestList = z.looseObject({
  items: z.array(providerRequest),
  counts: z.looseObject({ failed: z.number().int(), open: z.number().int() }),
  oldestFailedAt: z.string().nullable(),
});
export type ProviderRequestListBody = z.infer<typeof providerRequestList>;

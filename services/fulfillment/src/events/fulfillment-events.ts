import {
  type EventOrigin,
  OrderForwardFailed,
  OrderForwarded,
  ProductRepricedFromProvider,
  ProductResumedByProvider,
  ProductSuspendedByProvider,
  ProviderBalanceLow,
  ProviderOrderStatusChanged,
  type forwardFailureReasons,
  type productSuspendReasons,
} from '@smm/contracts';

/** Builders for what fulfillment publishes on fulfillment.events.v1. */
const forwardKey = (orderId: number) => `forward-${orderId}`;

export const orderForwarded = (d: { orderId: number; userId: string; providerId: number; providerServiceId: string; providerOrderId: string; attempts: number }, origin: EventOrigin) =>
  OrderForwarded.create(forwardKey(d.orderId), d, origin);

export const orderForwardFailed = (
  d: { orderId: number; userId: string; providerId: number | null; reason: (typeof forwardFailureReasons)[number]; detail: string; retryAt: Date | null },
  origin: EventOrigin,
) => OrderForwardFailed.create(forwardKey(d.orderId), { ...d, retryAt: d.retryAt?.toISOString() ?? null }, origin);

export const providerOrderStatusChanged = (
  d: { orderId: number; providerId: number; providerOrderId: string; providerStatus: string; status: number; startCount: number | null; remains: number },
  origin: EventOrigin,
) => ProviderOrderStatusChanged.create(forwardKey(d.orderId), d, origin);

export const providerBalanceLow = (d: { providerId: number; name: string; balance: string; threshold: string; currency: string }, origin: EventOrigin) =>
  ProviderBalanceLow.create(`provider-${d.providerId}`, d, origin);

const productKey = (productId: number) => `product-${productId}`;

export const productRepriced = (d: { productId: number; providerId: number; providerServiceId: string; fromUnitPriceDeci: number | null; toUnitPriceDeci: number; costDeci: number }, origin: EventOrigin) =>
  ProductRepricedFromProvider.create(productKey(d.productId), d, origin);

export const productSuspended = (d: { productId: number; providerId: number; providerServiceId: string; reason: (typeof productSuspendReasons)[number]; detail: string }, origin: EventOrigin) =>
  ProductSuspendedByProvider.create(productKey(d.productId), d, origin);

export const productResumed = (d: { productId: number; providerId: number; providerServiceId: string; unitPriceDeci: number }, origin: EventOrigin) =>
  ProductResumedByProvider.create(productKey(d.productId), d, origin);

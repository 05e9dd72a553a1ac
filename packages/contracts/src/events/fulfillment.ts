import { z } from 'zod';
import { defineEvent } from '../envelope.ts';

const orderId = z.number().int().positive();
const userId = z.string().min(1);
const providerId = z.number().int().positive();
/** Provider amounts (balance, rate) are decimal text in the provider's currency, kept exact. */
const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/);

/**
 * An order reached its upstream provider: `add` answered with the provider's order id.
 * Aggregate: `forward-<orderId>`.
 */
export const OrderForwarded = defineEvent(
  'OrderForwarded',
  1,
  z.object({ orderId, userId, providerId, providerServiceId: z.string().min(1), providerOrderId: z.string().min(1), attempts: z.number().int().positive() }),
);

/** Why a forward did not (yet) succeed. */
export const forwardFailureReasons = ['not-enough-funds', 'refused', 'provider-error', 'unreachable', 'unknown-outcome', 'missing-details'] as const;

/**
 * A forward attempt failed. `retryAt` is set when fulfillment will try again by itself; otherwise
 * the order was canceled with a refund (`refused`) or waits in the operators' review queue.
 * Aggregate: `forward-<orderId>`.
 */
export const OrderForwardFailed = defineEvent(
  'OrderForwardFailed',
  1,
  z.object({
    orderId,
    userId,
    providerId: providerId.nullable(),
    reason: z.enum(forwardFailureReasons),
    /** The provider's own words, or what went wrong on the way. */
    detail: z.string(),
    retryAt: z.iso.datetime({ offset: true }).nullable(),
  }),
);

/** The provider reported a new status for a forwarded order (`status` is our spec §4 value). Aggregate: `forward-<orderId>`. */
export const ProviderOrderStatusChanged = defineEvent(
  'ProviderOrderStatusChanged',
  1,
  z.object({
    orderId,
    providerId,
    providerOrderId: z.string().min(1),
    providerStatus: z.string().min(1),
    status: z.number().int().min(0).max(5),
    startCount: z.number().int().nonnegative().nullable(),
    remains: z.number().int().nonnegative(),
  }),
);

/** A provider's balance fell below the operators' threshold. Aggregate: `provider-<providerId>`. */
export const ProviderBalanceLow = defineEvent(
  'ProviderBalanceLow',
  1,
  z.object({ providerId, name: z.string().min(1), balance: decimalText, threshold: decimalText, currency: z.string().min(1) }),
);

const productId = z.number().int().positive();
const deci = z.number().int().nonnegative();

/**
 * The price sync repriced a product from its provider's new rate (through the catalog's API, so
 * ServiceUpserted follows as for any edit). Aggregate: `product-<productId>`.
 */
export const ProductRepricedFromProvider = defineEvent(
  'ProductRepricedFromProvider',
  1,
  z.object({ productId, providerId, providerServiceId: z.string().min(1), fromUnitPriceDeci: deci.nullable(), toUnitPriceDeci: deci, costDeci: deci }),
);

/** Why the price sync stopped selling a product. */
export const productSuspendReasons = ['service-gone', 'below-cost'] as const;

/**
 * The price sync made a product read-only: its provider service disappeared (or was disabled), or
 * its fixed price fell below the provider's cost without the operator's say-so. `detail` is the
 * Korean text operators see. Aggregate: `product-<productId>`.
 */
export const ProductSuspendedByProvider = defineEvent(
  'ProductSuspendedByProvider',
  1,
  z.object({ productId, providerId, providerServiceId: z.string().min(1), reason: z.enum(productSuspendReasons), detail: z.string().min(1) }),
);

/** The cause of a suspension went away and the price sync sells the product again. Aggregate: `product-<productId>`. */
export const ProductResumedByProvider = defineEvent(
  'ProductResumedByProvider',
  1,
  z.object({ productId, providerId, providerServiceId: z.string().min(1), unitPriceDeci: deci }),
);

export const fulfillmentEvents = [OrderForwarded, OrderForwardFailed, ProviderOrderStatusChanged, ProviderBalanceLow, ProductRepricedFromProvider, ProductSuspendedByProvider, ProductResumedByProvider] as const;

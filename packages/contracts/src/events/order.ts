import { z } from 'zod';
import { deciWonSchema } from '../money.ts';
import { defineEvent } from '../envelope.ts';
import { paymentKindSchema } from './wallet.ts';
import { serviceTypes, subscriptionStates } from '../service-types.ts';

const userId = z.string().min(1);
/** Orders and auto orders share one id sequence, so an id names exactly one of them. */
const orderId = z.number().int().positive();
const statusValue = z.number().int().min(0).max(5);
/** What an order of a typed product carries (service-types.ts `OrderDetails`), as the order service checked it. */
export const orderDetailsSchema = z.object({
  comments: z.array(z.string().min(1)).min(1).optional(),
  usernames: z.array(z.string().min(1)).min(1).optional(),
  username: z.string().min(1).optional(),
});

/** A subscription's terms as the order service checked them (service-types.ts `SubscriptionTerms`). */
export const subscriptionTermsSchema = z.object({
  username: z.string().min(1),
  min: z.number().int().positive(),
  max: z.number().int().positive(),
  posts: z.number().int().positive(),
  delay: z.number().int().nonnegative(),
  expiry: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
});

/**
 * An order or auto order was stored and awaits payment: wallet debits `chargeDeci`
 * (unit price × amount × max(runs, 1)). Aggregate id: `order-<orderId>` (auto orders too).
 */
export const OrderPlaced = defineEvent(
  'OrderPlaced',
  1,
  z.object({
    orderId,
    kind: paymentKindSchema,
    userId,
    serviceId: z.number().int().positive(),
    amount: z.number().int().positive(),
    /** 0 for a one-off order. */
    runs: z.number().int().nonnegative(),
    /** Minutes between runs; 0 for a one-off order. */
    interval: z.number().int().nonnegative(),
    chargeDeci: deciWonSchema.positive(),
  }),
);

/**
 * Payment arrived: a one-off order is now pending (0), an auto order active (0). For auto orders
 * the scheduler starts firing runs: the first at once, then every `interval` minutes.
 */
export const OrderAccepted = defineEvent(
  'OrderAccepted',
  1,
  z.object({
    orderId,
    kind: paymentKindSchema,
    userId,
    runs: z.number().int().nonnegative(),
    interval: z.number().int().nonnegative(),
    /** What to deliver (fulfillment); optional so events recorded before these fields still parse. For an auto order, `amount` is per run. */
    serviceId: z.number().int().positive().optional(),
    link: z.string().min(1).optional(),
    amount: z.number().int().positive().optional(),
    /** The product's type and what the member gave for it (service-types.ts), for the provider; absent for default products. */
    serviceType: z.enum(serviceTypes).optional(),
    details: orderDetailsSchema.optional(),
    /**
     * A subscription (kind `auto`, runs = posts, interval 0): its terms. Nothing is scheduled for it —
     * a run is a new post, recorded by an operator or by fulfillment from the provider's status.
     */
    subscription: subscriptionTermsSchema.optional(),
  }),
);

/**
 * Payment was refused, or did not arrive while the member waited (PAYMENT_TIMEOUT: the order was
 * given up; a debit that still arrives is refunded as `order-<id>-unpaid`). The order is kept as
 * rejected and never runs.
 */
export const OrderRejected = defineEvent(
  'OrderRejected',
  1,
  z.object({ orderId, kind: paymentKindSchema, userId, reason: z.enum(['INSUFFICIENT_POINTS', 'NO_ACCOUNT', 'PAYMENT_TIMEOUT']) }),
);

/** An operator (later: fulfillment) moved an accepted order between spec §4 statuses. */
export const OrderStatusChanged = defineEvent(
  'OrderStatusChanged',
  1,
  z.object({ orderId, userId, from: statusValue, to: statusValue, startCount: z.number().int().nullable(), remains: z.number().int().nonnegative() }),
);

/** Run `run` (1-based) of an auto order became child order `childOrderId` (already paid). Aggregate: `order-<autoOrderId>`. */
export const AutoOrderRunPlaced = defineEvent(
  'AutoOrderRunPlaced',
  1,
  z.object({
    autoOrderId: orderId,
    userId,
    run: z.number().int().positive(),
    runs: z.number().int().positive(),
    childOrderId: orderId,
    /** The child order's service, link and amount (fulfillment); optional so older events still parse. */
    serviceId: z.number().int().positive().optional(),
    link: z.string().min(1).optional(),
    amount: z.number().int().positive().optional(),
    /** True when the run is a post of a subscription (its order is for the subscription's max). */
    subscription: z.boolean().optional(),
  }),
);

/** Every run was placed. The scheduler forgets the auto order. */
export const AutoOrderCompleted = defineEvent('AutoOrderCompleted', 1, z.object({ autoOrderId: orderId, userId, runs: z.number().int().positive() }));

/**
 * The member cancelled an active auto order; the runs not yet placed are refunded (RefundRequested
 * follows). A subscription ends the same way: `ended` says whether it was canceled or expired.
 */
export const AutoOrderCanceled = defineEvent(
  'AutoOrderCanceled',
  1,
  z.object({
    autoOrderId: orderId,
    userId,
    runsDone: z.number().int().nonnegative(),
    runs: z.number().int().positive(),
    refundDeci: deciWonSchema.nonnegative(),
    ended: z.enum(subscriptionStates).optional(),
  }),
);

/**
 * Money goes back to a member: wallet credits `amountDeci` exactly once per `refundId`
 * (e.g. `order-12-canceled`, `order-12-partial`, `auto-40-canceled`; a subscription's unused
 * posts `auto-40-canceled` or `auto-40-expired`, reason `subscription-ended`).
 */
export const RefundRequested = defineEvent(
  'RefundRequested',
  1,
  z.object({ refundId: z.string().min(1), userId, orderId, amountDeci: deciWonSchema.positive(), reason: z.enum(['canceled', 'partial', 'auto-canceled', 'subscription-ended']) }),
);

export const orderEvents = [OrderPlaced, OrderAccepted, OrderRejected, OrderStatusChanged, AutoOrderRunPlaced, AutoOrderCompleted, AutoOrderCanceled, RefundRequested] as const;

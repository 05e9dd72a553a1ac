import { type Connection, Schema } from 'mongoose';
import { modelOn } from '@smm/platform';
import { type OrderDetails, OrderStatus, type ServiceType, type SubscriptionState, type SubscriptionTerms, serviceTypes, subscriptionStates } from '@smm/contracts';
import type { PaymentState } from '../domain/payment.ts';
import type { Product } from '../domain/product.ts';

/** The collections of one-off orders and auto orders (the outbox relay reads their kept OrderPlaced). */
export const orderCollections = { order: 'orders', auto: 'auto_orders' } as const;

/** A one-off order, or one run (child) of an auto order. `status` is null until paid. */
export type Order = {
  _id: number;
  /** idBucketOf(_id): lets "newest first" read a few id ranges instead of all a member's rows. */
  idBucket: number;
  userId: string;
  serviceId: number;
  serviceText: string;
  platformId: number;
  link: string;
  amount: number;
  unitPriceDeci: number;
  chargeDeci: number;
  payment: PaymentState;
  /** True when the order was given up because the wallet did not answer while the member waited. */
  abandoned?: boolean;
  status: number | null;
  startCount: number | null;
  remains: number;
  refundedDeci: number;
  autoOrderId: number | null;
  run: number | null;
  source: 'web' | 'api';
  createdAt: Date;
  paidAt: Date | null;
  /** Why the order last changed status, for the member (e.g. the provider refused the link); absent on most. */
  statusReason?: string | null;
  /** The member's Idempotency-Key it was placed under, with the request's hash; absent without one. */
  request?: PlacementRequest;
  /** The product's type when it was placed, and what the member gave for it; absent on default orders. */
  serviceType?: ServiceType;
  details?: OrderDetails;
};

/** An Idempotency-Key a placement came with: at most one live order per member and key (per kind). */
export type PlacementRequest = { key: string; hash: string };

/** An auto order: charged in full up front, then one child order per due run. */
export type AutoOrder = {
  _id: number;
  idBucket: number;
  userId: string;
  serviceId: number;
  serviceText: string;
  platformId: number;
  link: string;
  amount: number;
  runs: number;
  interval: number;
  unitPriceDeci: number;
  chargeDeci: number;
  perRunDeci: number;
  completed: number;
  refundedDeci: number;
  payment: PaymentState;
  abandoned?: boolean;
  status: number | null;
  source: 'web' | 'api';
  createdAt: Date;
  paidAt: Date | null;
  canceledAt: Date | null;
  request?: PlacementRequest;
  /** A subscription (service type `subscriptions`): runs are its posts, `amount` its max per post. */
  subscription?: StoredSubscription;
};

/**
 * A subscription's terms and state. `expiresAt` is the end of the expiry day (KST) or null, for the
 * expiry sweep; `endedAt` when it was completed, expired or canceled.
 */
export type StoredSubscription = SubscriptionTerms & { state: SubscriptionState; expiresAt: Date | null; endedAt: Date | null };

/** The catalogue as order needs it (ServiceUpserted), keyed by service id. */
export type ProductDoc = Omit<Product, 'serviceId'> & { _id: number };

export type SettingDoc = { _id: string; value: string };
export type Counter = { _id: string; seq: number };

const paymentField = { type: String, required: true, enum: ['awaiting', 'paid', 'rejected'] };

/** Ids per bucket: one bucket is one contiguous range of the shared order-id sequence. */
export const idBucketSize = 100;
export function idBucketOf(id: number): number {
  return Math.floor(id / idBucketSize);
}

/**
 * The order one run of an auto order places (a subscription's post is one): paid from the auto
 * order's charge, pending, for the auto order's amount — at `link` when the post has its own.
 */
export function runOrderOf(auto: AutoOrder, childId: number, run: number, now: Date, link = auto.link): Order {
  return {
    _id: childId,
    idBucket: idBucketOf(childId),
    userId: auto.userId,
    serviceId: auto.serviceId,
    serviceText: auto.serviceText,
    platformId: auto.platformId,
    link,
    amount: auto.amount,
    unitPriceDeci: auto.unitPriceDeci,
    chargeDeci: auto.perRunDeci,
    payment: 'paid',
    status: OrderStatus.values.PENDING,
    startCount: null,
    remains: auto.amount,
    refundedDeci: 0,
    autoOrderId: auto._id,
    run,
    source: auto.source,
    createdAt: now,
    paidAt: now,
  };
}

const placementRequestSchema = new Schema<PlacementRequest>({ key: { type: String, required: true }, hash: { type: String, required: true } }, { _id: false });
// At most one live order per member and Idempotency-Key (given-up orders drop theirs): a retry finds it.
const requestIndex = [{ userId: 1, 'request.key': 1 }, { unique: true, partialFilterExpression: { 'request.key': { $type: 'string' } } }] as const;

export const orderSchema = new Schema<Order>(
  {
    _id: { type: Number, required: true },
    idBucket: { type: Number, required: true },
    userId: { type: String, required: true },
    serviceId: { type: Number, required: true },
    serviceText: { type: String, required: true },
    platformId: { type: Number, required: true },
    link: { type: String, required: true },
    amount: { type: Number, required: true },
    unitPriceDeci: { type: Number, required: true },
    chargeDeci: { type: Number, required: true },
    payment: paymentField,
    abandoned: { type: Boolean },
    status: { type: Number, default: null },
    startCount: { type: Number, default: null },
    remains: { type: Number, required: true },
    refundedDeci: { type: Number, default: 0 },
    autoOrderId: { type: Number, default: null },
    run: { type: Number, default: null },
    source: { type: String, required: true },
    createdAt: { type: Date, required: true },
    paidAt: { type: Date, default: null },
    statusReason: { type: String, default: null },
    request: { type: placementRequestSchema, default: undefined },
    serviceType: { type: String, enum: serviceTypes },
    details: { type: Schema.Types.Mixed, default: undefined },
  },
  { collection: orderCollections.order, versionKey: false, minimize: false },
);
// Member history: paid orders newest first, all or by status (status is null until paid). The
// bucket lets a page be read from the newest id ranges by equality (see store/newest-first.ts).
// The relay's poll for OrderPlaced events kept in their orders (withEvent): waiting ones only.
orderSchema.index({ outboxPending: 1, _id: 1 });
orderSchema.index({ userId: 1, payment: 1, idBucket: -1, _id: -1 });
orderSchema.index({ userId: 1, status: 1, idBucket: -1, _id: -1 });
// Operators' list, across members.
orderSchema.index({ payment: 1, idBucket: -1, _id: -1 });
// Operators' search by status, exact link or product (issue 12). The search always filters on
// `payment` too, so it sits in each index: otherwise the planner may take the payment index above
// for a filter that would name one link or product, and read every paid order (1 s at 200,000).
orderSchema.index({ status: 1, payment: 1, idBucket: -1, _id: -1 });
orderSchema.index({ link: 1, payment: 1, idBucket: -1, _id: -1 });
orderSchema.index({ serviceId: 1, payment: 1, idBucket: -1, _id: -1 });
// One child order per run of an auto order, whatever redelivers the run.
orderSchema.index({ autoOrderId: 1, run: 1 }, { unique: true, partialFilterExpression: { autoOrderId: { $type: 'number' } } });
orderSchema.index(...requestIndex);

export const autoOrderSchema = new Schema<AutoOrder>(
  {
    _id: { type: Number, required: true },
    idBucket: { type: Number, required: true },
    userId: { type: String, required: true },
    serviceId: { type: Number, required: true },
    serviceText: { type: String, required: true },
    platformId: { type: Number, required: true },
    link: { type: String, required: true },
    amount: { type: Number, required: true },
    runs: { type: Number, required: true },
    interval: { type: Number, required: true },
    unitPriceDeci: { type: Number, required: true },
    chargeDeci: { type: Number, required: true },
    perRunDeci: { type: Number, required: true },
    completed: { type: Number, default: 0 },
    refundedDeci: { type: Number, default: 0 },
    payment: paymentField,
    abandoned: { type: Boolean },
    status: { type: Number, default: null },
    source: { type: String, required: true },
    createdAt: { type: Date, required: true },
    paidAt: { type: Date, default: null },
    canceledAt: { type: Date, default: null },
    request: { type: placementRequestSchema, default: undefined },
    subscription: {
      type: new Schema<StoredSubscription>(
        {
          username: { type: String, required: true },
          min: { type: Number, required: true },
          max: { type: Number, required: true },
          posts: { type: Number, required: true },
          delay: { type: Number, required: true },
          expiry: { type: String, default: null },
          state: { type: String, required: true, enum: subscriptionStates },
          expiresAt: { type: Date, default: null },
          endedAt: { type: Date, default: null },
        },
        { _id: false },
      ),
      default: undefined,
    },
  },
  { collection: orderCollections.auto, versionKey: false, minimize: false },
);
// The expiry sweep: live subscriptions whose expiry day is over.
autoOrderSchema.index({ 'subscription.expiresAt': 1 }, { partialFilterExpression: { 'subscription.expiresAt': { $type: 'date' } } });
autoOrderSchema.index({ outboxPending: 1, _id: 1 });
autoOrderSchema.index({ userId: 1, payment: 1, idBucket: -1, _id: -1 });
autoOrderSchema.index({ userId: 1, status: 1, idBucket: -1, _id: -1 });
autoOrderSchema.index(...requestIndex);

export const productSchema = new Schema<ProductDoc>(
  {
    _id: { type: Number, required: true },
    text: { type: String, required: true },
    platformId: { type: Number, required: true },
    categoryId: { type: Number, required: true },
    min: { type: Number, required: true },
    max: { type: Number, required: true },
    unitPriceDeci: { type: Number, required: true },
    enableAuto: { type: Boolean, required: true },
    isReadOnly: { type: Boolean, required: true },
    visible: { type: Boolean, required: true },
    type: { type: String, enum: serviceTypes },
  },
  { collection: 'products', versionKey: false },
);

export const settingSchema = new Schema<SettingDoc>(
  { _id: { type: String, required: true }, value: { type: String, required: true } },
  { collection: 'settings', versionKey: false },
);

export const counterSchema = new Schema<Counter>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  { collection: 'counters', versionKey: false },
);

/**
 * The stored orders and the id sequence as mongoose models, for tests and benchmarks that seed or
 * inspect them directly. The service itself reads and changes orders through `OrderRepository`.
 */
export function storedOrders(connection: Connection) {
  return { orders: modelOn(connection, 'Order', orderSchema), counters: modelOn(connection, 'Counter', counterSchema) };
}

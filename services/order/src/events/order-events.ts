import {
  AutoOrderCanceled,
  AutoOrderCompleted,
  AutoOrderRunPlaced,
  type EventOrigin,
  OrderAccepted,
  OrderRejected,
  OrderStatusChanged,
  type OrderDetails,
  type PaymentKind,
  type ServiceType,
  type SubscriptionTerms,
  RefundRequested,
} from '@smm/contracts';
import type { StatusChange } from '../domain/order-status.ts';

/** Builders for what order publishes on order.events.v1; every event is keyed `order-<id>`. */
const key = (orderId: number) => `order-${orderId}`;

export const orderAccepted = (
  o: { orderId: number; kind: PaymentKind; userId: string; runs: number; interval: number; serviceId: number; link: string; amount: number; serviceType?: ServiceType; details?: OrderDetails; subscription?: SubscriptionTerms },
  origin: EventOrigin,
) =>
  OrderAccepted.create(key(o.orderId), o, origin);

export const orderRejected = (o: { orderId: number; kind: PaymentKind; userId: string; reason: 'INSUFFICIENT_POINTS' | 'NO_ACCOUNT' | 'PAYMENT_TIMEOUT' }, origin: EventOrigin) =>
  OrderRejected.create(key(o.orderId), o, origin);

export const orderStatusChanged = (orderId: number, userId: string, change: StatusChange, origin: EventOrigin) =>
  OrderStatusChanged.create(key(orderId), { orderId, userId, from: change.from, to: change.to, startCount: change.startCount, remains: change.remains }, origin);

export const refundRequested = (
  r: { refundId: string; userId: string; orderId: number; amountDeci: number; reason: 'canceled' | 'partial' | 'auto-canceled' | 'subscription-ended' },
  origin: EventOrigin,
) => RefundRequested.create(key(r.orderId), r, origin);

export const autoOrderRunPlaced = (
  r: { autoOrderId: number; userId: string; run: number; runs: number; childOrderId: number; serviceId: number; link: string; amount: number; subscription?: boolean },
  origin: EventOrigin,
) =>
  AutoOrderRunPlaced.create(key(r.autoOrderId), r, origin);

export const autoOrderCompleted = (r: { autoOrderId: number; userId: string; runs: number }, origin: EventOrigin) =>
  AutoOrderCompleted.create(key(r.autoOrderId), r, origin);

export const autoOrderCanceled = (r: { autoOrderId: number; userId: string; runsDone: number; runs: number; refundDeci: number; ended?: 'expired' | 'canceled' }, origin: EventOrigin) =>
  AutoOrderCanceled.create(key(r.autoOrderId), r, origin);

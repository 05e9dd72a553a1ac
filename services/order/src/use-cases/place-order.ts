import { OrderPlaced, OrderStatus, type EventOrigin, settingEnabled, settingKeys } from '@smm/contracts';
import { type OrderRequest, type Refusal, checkOrder } from '../domain/place-order-rules.ts';
import type { PaymentOutcome } from '../domain/payment.ts';
import { type AutoOrder, type Order, idBucketOf } from '../store/models.ts';
import type { OrderDeps } from './context.ts';
import { type AutoOrderView, type OrderView, autoOrderView, orderView } from './views.ts';

export type PlaceOrderInput = OrderRequest & { userId: string; source: 'web' | 'api'; waitMs: number };

export type PlaceOrderResult =
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'accepted'; order: OrderView | AutoOrderView }
  | { kind: 'rejected'; orderId: number }
  | { kind: 'awaiting_payment'; order: OrderView | AutoOrderView };

/**
 * Saga step 1: validate against the local catalogue replica, store the order awaiting payment
 * together with OrderPlaced (one transaction), then wait a bounded time for the wallet's answer.
 * A timeout loses nothing: the answer is applied whenever it comes.
 */
export async function placeOrder(deps: OrderDeps, origin: EventOrigin, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const serviceId = typeof input.serviceId === 'number' ? input.serviceId : Number(input.serviceId);
  const [product, serviceCheck] = await Promise.all([
    Number.isSafeInteger(serviceId) && serviceId > 0 ? deps.store.product(serviceId) : null,
    deps.store.setting(settingKeys.enableServiceCheck),
  ]);
  const verdict = checkOrder(input, product, settingEnabled(serviceCheck));
  if (!verdict.ok) return { kind: 'refused', refusal: verdict.refusal };
  const valid = verdict.order;

  const id = await deps.store.nextOrderId();
  const now = new Date();
  const common = {
    _id: id,
    idBucket: idBucketOf(id),
    userId: input.userId,
    serviceId: valid.product.serviceId,
    serviceText: valid.product.text,
    platformId: valid.product.platformId,
    link: valid.link,
    amount: valid.amount,
    unitPriceDeci: valid.product.unitPriceDeci,
    chargeDeci: valid.chargeDeci,
    payment: 'awaiting' as const,
    status: null,
    source: input.source,
    createdAt: now,
    paidAt: null,
  };
  const order: Order | AutoOrder =
    valid.kind === 'auto'
      ? { ...common, runs: valid.runs, interval: valid.interval, perRunDeci: valid.perRunDeci, completed: 0, refundedDeci: 0, canceledAt: null }
      : { ...common, startCount: null, remains: valid.amount, refundedDeci: 0, autoOrderId: null, run: null };
  const placed = OrderPlaced.create(
    `order-${id}`,
    { orderId: id, kind: valid.kind, userId: input.userId, serviceId: valid.product.serviceId, amount: valid.amount, runs: valid.runs, interval: valid.interval, chargeDeci: valid.chargeDeci },
    origin,
    now,
  );

  // Waiting starts before the event can leave, so even an instant answer is heard.
  const outcome = input.waitMs > 0 ? deps.waiter.wait(id, valid.kind, input.waitMs) : Promise.resolve('timeout' as const);
  try {
    // The order and its OrderPlaced in one transaction, shared with orders placed at the same moment.
    await deps.placements.place(order, valid.kind, placed);
  } catch (error) {
    deps.waiter.notify(id, 'rejected'); // releases the registration; nothing was stored
    throw error;
  }
  deps.logger.info({ orderId: id, kind: valid.kind, userId: input.userId, chargeDeci: valid.chargeDeci, correlationId: origin.correlationId }, 'order placed');

  const answer = await outcome;
  if (answer === 'rejected') return { kind: 'rejected', orderId: id };
  if (answer === 'timeout') return { kind: 'awaiting_payment', order: view(order) };
  return { kind: 'accepted', order: view(paid(order, answer, now)) };
}

/** The stored order as the payment handler left it, without reading it back. */
function paid<T extends Order | AutoOrder>(order: T, _answer: PaymentOutcome, at: Date): T {
  return { ...order, payment: 'paid', status: OrderStatus.values.PENDING, paidAt: at };
}

function view(order: Order | AutoOrder) {
  return 'runs' in order ? autoOrderView(order) : orderView(order);
}

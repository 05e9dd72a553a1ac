import { OrderPlaced, type EventOrigin, expiryEnd, settingEnabled, settingKeys } from '@smm/contracts';
import { isPlacementId } from '@smm/contracts/http';
import { priceForMember } from '../domain/member-price.ts';
import { paymentChange } from '../domain/payment.ts';
import { type OrderRequest, type Refusal, checkOrder, toNumber } from '../domain/place-order-rules.ts';
import { orderRejected } from '../events/order-events.ts';
import { type AutoOrder, type Order, type PlacementRequest, idBucketOf } from '../store/models.ts';
import { RequestKeyTaken } from '../store/order-repository.ts';
import { type OrderDeps, commit } from './context.ts';
import type { Settlement } from './payment-waiter.ts';
import { type AutoOrderView, type OrderView, autoOrderView, orderView } from './views.ts';

export type PlaceOrderInput = OrderRequest & { userId: string; source: 'web' | 'api'; waitMs: number; request?: PlacementRequest };

/** How long an order answers for its Idempotency-Key: as long as the BFF keeps a key's answer by default (24 hours). */
const requestKeyLifetimeMs = 24 * 60 * 60 * 1000;

export type PlaceOrderResult =
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'accepted'; order: OrderView | AutoOrderView }
  | { kind: 'rejected'; orderId: number }
  /** No answer within the wait: the order was given up; it costs nothing (a debit that still comes is refunded). */
  | { kind: 'timed-out'; orderId: number }
  /** Only when the caller asked not to wait (waitMs 0): the saga finishes later. */
  | { kind: 'awaiting_payment'; order: OrderView | AutoOrderView }
  /** The Idempotency-Key holds an order placed for another request. */
  | { kind: 'key-reused' };

/**
 * Saga step 1: validate against the local catalogue replica, store the order awaiting payment
 * with its OrderPlaced kept in the same document (one insert, no transaction), then wait a bounded
 * time for the wallet's answer, so the caller is told at once whether the order was placed (paid)
 * or not.
 */
export async function placeOrder(deps: OrderDeps, origin: EventOrigin, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const serviceId = toNumber(input.serviceId);
  // The client's Idempotency-Key; not a placement id the BFF chose for this one call (new: nothing
  // can hold it yet, and no one but that call can ask about its order).
  const clientKey = input.request && !isPlacementId(input.request.key) ? input.request.key : undefined;
  const [catalogueProduct, serviceCheck, placedBefore, rates] = await Promise.all([
    Number.isSafeInteger(serviceId) && serviceId > 0 ? deps.store.product(serviceId) : null,
    deps.store.setting(settingKeys.enableServiceCheck),
    clientKey !== undefined ? deps.store.repository.findByRequest(input.userId, clientKey) : null,
    deps.store.rates.forPricing(input.userId),
  ]);
  // Issue 40: the member's own price (their rate over the replica's price) is the price checked
  // against the one shown (409 PRICE_CHANGED covers a rate change too), stored and charged.
  const product = catalogueProduct && priceForMember(catalogueProduct, rates);
  // A retry under the Idempotency-Key of an order already placed: that order's answer, no second one
  // (whatever the catalogue says now). A key older than a key lives (the BFF's IDEMPOTENCY_TTL_SECONDS
  // default) is let go: the request is a new order.
  if (placedBefore && placedBefore.order.createdAt.getTime() > Date.now() - requestKeyLifetimeMs) return answerFor(deps, origin, placedBefore.order, placedBefore.kind, input);
  if (placedBefore) await deps.store.repository.releaseRequest(placedBefore.kind, placedBefore.order._id);

  const now = new Date();
  const verdict = checkOrder(input, product, settingEnabled(serviceCheck), now);
  if (!verdict.ok) return { kind: 'refused', refusal: verdict.refusal };
  const valid = verdict.order;

  const id = await deps.store.nextOrderId();
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
    ...(input.request ? { request: input.request } : {}),
  };
  const order: Order | AutoOrder =
    valid.kind === 'auto'
      ? {
          ...common,
          runs: valid.runs,
          interval: valid.interval,
          perRunDeci: valid.perRunDeci,
          completed: 0,
          refundedDeci: 0,
          canceledAt: null,
          ...(valid.subscription ? { subscription: { ...valid.subscription, state: 'active' as const, expiresAt: valid.subscription.expiry ? expiryEnd(valid.subscription.expiry) : null, endedAt: null } } : {}),
        }
      : {
          ...common,
          startCount: null,
          remains: valid.amount,
          refundedDeci: 0,
          autoOrderId: null,
          run: null,
          ...(valid.serviceType === 'default' ? {} : { serviceType: valid.serviceType }),
          ...(valid.details ? { details: valid.details } : {}),
        };
  const placed = OrderPlaced.create(
    `order-${id}`,
    { orderId: id, kind: valid.kind, userId: input.userId, serviceId: valid.product.serviceId, amount: valid.amount, runs: valid.runs, interval: valid.interval, chargeDeci: valid.chargeDeci },
    origin,
    now,
  );

  // Waiting starts before the event can leave, so even an instant answer is heard. A placement no
  // one else can ask about (no client key) hears it as soon as it is decided.
  const outcome = input.waitMs > 0 ? deps.waiter.wait(id, input.waitMs, { early: clientKey === undefined }) : Promise.resolve('timeout' as const);
  try {
    // The order with its OrderPlaced in one document, in one insert shared with orders placed at the same moment.
    await deps.placements.place(order, valid.kind, placed);
  } catch (error) {
    deps.waiter.forget(id);
    // The same key placed by a request that ran at the same time (another replica): its answer.
    const holder = error instanceof RequestKeyTaken && input.request ? await deps.store.repository.findByRequest(input.userId, input.request.key) : null;
    if (holder) return answerFor(deps, origin, holder.order, holder.kind, input);
    throw error;
  }
  deps.logger.info({ orderId: id, kind: valid.kind, userId: input.userId, chargeDeci: valid.chargeDeci, correlationId: origin.correlationId }, 'order placed');
  // A subscription with an expiry may now be the soonest to expire: the expiry timer looks again.
  if (valid.subscription?.expiry) deps.expiry.rearm();

  if (input.waitMs === 0) return { kind: 'awaiting_payment', order: view(order) };
  return answered(deps, origin, order, valid.kind, await outcome);
}

/**
 * The answer for the placement made under `request` (the caller's Idempotency-Key, or the placement
 * id the BFF chose before calling), for a caller whose placement call failed in transport or with a
 * temporary error: the order's own answer — paid, refused by the wallet, or (still awaiting) after
 * the same bounded wait, given up if no answer comes — and `not-placed` when no order holds the key
 * (never stored, or given up: either way nothing is charged, a debit that still comes is refunded).
 */
export async function answerPlacement(deps: OrderDeps, origin: EventOrigin, input: { userId: string; request: PlacementRequest; waitMs: number }): Promise<PlaceOrderResult | { kind: 'not-placed' }> {
  const placed = await deps.store.repository.findByRequest(input.userId, input.request.key);
  if (!placed) return { kind: 'not-placed' };
  return answerFor(deps, origin, placed.order, placed.kind, input);
}

/**
 * The answer for an order already placed under the request's Idempotency-Key: refused if the key
 * came with another request; otherwise as its own placement would have been answered — paid,
 * refused by the wallet, or (still awaiting) after waiting for the wallet the same bounded time,
 * giving it up if no answer comes. A given-up order holds no key, so it is never found here.
 */
async function answerFor(deps: OrderDeps, origin: EventOrigin, order: Order | AutoOrder, kind: 'order' | 'auto', input: { request?: PlacementRequest | undefined; waitMs: number }): Promise<PlaceOrderResult> {
  if (order.request?.hash !== input.request?.hash) return { kind: 'key-reused' };
  if (order.payment === 'paid') return { kind: 'accepted', order: view(order) };
  if (order.payment === 'rejected') return order.abandoned ? { kind: 'timed-out', orderId: order._id } : { kind: 'rejected', orderId: order._id };
  if (input.waitMs === 0) return { kind: 'awaiting_payment', order: view(order) };
  const outcome = deps.waiter.wait(order._id, input.waitMs);
  // An answer applied between the read and the registration is not heard: read once more.
  const now = await deps.store.repository.find(kind, order._id);
  if (now && now.payment !== 'awaiting') return answerFor(deps, origin, now, kind, input);
  return answered(deps, origin, order, kind, await outcome);
}

/** What a wait for an order's payment ends in: its answer, or — none in time — the order given up. */
async function answered(deps: OrderDeps, origin: EventOrigin, order: Order | AutoOrder, kind: 'order' | 'auto', answer: Settlement | 'timeout'): Promise<PlaceOrderResult> {
  if (answer === 'timeout') return giveUp(deps, origin, order, kind);
  if (answer.outcome === 'rejected') return { kind: 'rejected', orderId: order._id };
  return { kind: 'accepted', order: view({ ...order, ...answer.change }) };
}

/**
 * The member waited and the wallet did not answer: the order is given up (rejected, OrderRejected
 * PAYMENT_TIMEOUT) so the answer "not placed" stays true — a debit that still arrives is refunded
 * (see onPaymentAnswers). If an answer was applied meanwhile (here or by another replica), that
 * answer is the outcome.
 */
async function giveUp(deps: OrderDeps, origin: EventOrigin, order: Order | AutoOrder, kind: 'order' | 'auto'): Promise<PlaceOrderResult> {
  const id = order._id;
  const change = paymentChange('abandoned', kind, new Date());
  const gaveUp = await commit(deps, async (session, emit) => {
    if (!(await deps.store.repository.giveUp(kind, id, change, session))) return false;
    emit(orderRejected({ orderId: id, kind, userId: order.userId, reason: 'PAYMENT_TIMEOUT' }, origin));
    return true;
  });
  if (gaveUp) {
    deps.logger.warn({ orderId: id, kind, correlationId: origin.correlationId }, 'no payment answer in time; order given up');
    return { kind: 'timed-out', orderId: id };
  }
  const stored = await deps.store.repository.find(kind, id);
  if (stored?.payment === 'paid') return { kind: 'accepted', order: view(stored) };
  return stored?.abandoned ? { kind: 'timed-out', orderId: id } : { kind: 'rejected', orderId: id };
}

function view(order: Order | AutoOrder) {
  return 'runs' in order ? autoOrderView(order) : orderView(order);
}

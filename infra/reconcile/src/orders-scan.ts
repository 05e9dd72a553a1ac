import type { Db } from 'mongodb';
import { AutoOrderStatus, OrderStatus } from '@smm/contracts';
import { type Books, type Movement, type RefundMovement, sumOf } from './ledger-scan.ts';
import type { Findings } from './report.ts';
import { type Members, type OrderKind, paymentKey } from './references.ts';

type StoredOrder = {
  _id: number;
  userId: string;
  chargeDeci: number;
  payment: 'awaiting' | 'paid' | 'rejected';
  abandoned?: boolean;
  status: number | null;
  refundedDeci?: number;
  autoOrderId?: number | null;
  /** A subscription's state (issue 40): its refunds are `auto-<id>-canceled` or `auto-<id>-expired`. */
  subscription?: { state?: string } | null;
};

/** An auto order, kept while its runs (child orders) are read: they refund against its debit. */
type AutoFacts = { order: StoredOrder; u: number; childLedgerDeci: number; childRecordedDeci: number };

/** What the referral rule needs of an order a referral credit names. */
export type DeliveryFacts = { u: number; kind: OrderKind; status: number | null; chargeDeci: number; refundedDeci: number };

/**
 * A refund the ledger is short of, to be read again once the pass is over: order's refund request
 * reaches the wallet through Kafka, so an order canceled a moment ago may not be refunded yet.
 */
export type ShortRefund = { rule: 'refund-missing' | 'debit-for-refused-order'; userId: string; reference: string; references: string[]; expectedDeci: number; detail: string };

export type OrderFacts = {
  /** Paid orders (runs included) and paid subscriptions: order id → member, for the forwards. */
  paid: Map<number, number>;
  delivery: Map<string, DeliveryFacts>;
  short: ShortRefund[];
  orders: number;
  autoOrders: number;
};

const projection = { userId: 1, chargeDeci: 1, payment: 1, abandoned: 1, status: 1, refundedDeci: 1, autoOrderId: 1, 'subscription.state': 1 };
const refundStatus = { order: { canceled: OrderStatus.values.CANCELED, partial: OrderStatus.values.PARTIAL }, auto: { canceled: AutoOrderStatus.values.CANCELED, partial: -1 } };

/**
 * Whether the order's state allows a refund of this reason: canceled and partial by status; an
 * expiry refund only for a subscription that expired (its status is canceled with no post done,
 * partial with some).
 */
function refundAllowed(kind: OrderKind, order: StoredOrder, reason: Exclude<RefundMovement['reason'], 'unpaid'>): boolean {
  if (order.payment !== 'paid') return false;
  if (reason === 'expired') return kind === 'auto' && order.subscription?.state === 'expired';
  if (kind === 'auto' && order.subscription && reason === 'canceled') return order.subscription.state === 'canceled' && order.status === AutoOrderStatus.values.CANCELED;
  return order.status === refundStatus[kind][reason];
}

/**
 * Pairs the order service's orders and auto orders with the wallet's debits and refunds, in one
 * cursor over each collection. What is paired leaves `books`; what is left names nothing.
 */
export async function scanOrders(orderDb: Db, books: Books, members: Members, wanted: ReadonlySet<string>, findings: Findings): Promise<OrderFacts> {
  const facts: OrderFacts = { paid: new Map(), delivery: new Map(), short: [], orders: 0, autoOrders: 0 };
  const autos = new Map<number, AutoFacts>();
  for await (const auto of orderDb.collection<StoredOrder>('auto_orders').find({}, { projection, batchSize: 1000 })) {
    facts.autoOrders += 1;
    autos.set(auto._id, { order: auto, u: members.of(auto.userId), childLedgerDeci: 0, childRecordedDeci: 0 });
    // A subscription goes to its provider itself (issue 40): its forward names the auto order.
    if (auto.subscription && auto.payment === 'paid') facts.paid.set(auto._id, members.of(auto.userId));
  }
  for await (const order of orderDb.collection<StoredOrder>('orders').find({}, { projection, batchSize: 1000 })) {
    facts.orders += 1;
    const u = members.of(order.userId);
    if (order.payment === 'paid') facts.paid.set(order._id, u);
    const refunds = takeRefunds(books.refunds.order, order._id);
    const ledgerDeci = sumOf(refunds);
    checkRefunds('order', order, u, refunds, members, findings);
    const parentId = order.autoOrderId ?? null;
    if (parentId !== null) {
      const own = take(books.debits.order, order._id);
      if (own) findings.add('debit-mismatch', `order ${order._id} is run of auto order ${parentId}, paid by auto-${parentId}, yet debited on its own (${own.amount} deci-won)`, { userId: members.name(own.u), reference: paymentKey('order', order._id) });
      if (ledgerDeci > order.chargeDeci) findings.add('refund-exceeds-debit', `run order ${order._id} was refunded ${ledgerDeci} deci-won, its share of the charge is ${order.chargeDeci}`, { userId: order.userId, reference: paymentKey('order', order._id) });
      const parent = autos.get(parentId);
      if (parent) {
        parent.childLedgerDeci += ledgerDeci;
        parent.childRecordedDeci += order.refundedDeci ?? 0;
      } else if (ledgerDeci > 0) {
        findings.add('refund-without-debit', `run order ${order._id} was refunded ${ledgerDeci} deci-won, but its auto order ${parentId} does not exist`, { userId: order.userId, reference: refunds[0]!.reference });
      }
    } else {
      checkPayment('order', order, u, take(books.debits.order, order._id), ledgerDeci, members, findings, facts);
    }
    noteShortRefund('order', order, ledgerDeci, facts);
    const key = paymentKey('order', order._id);
    if (wanted.has(key)) facts.delivery.set(key, { u, kind: 'order', status: order.status, chargeDeci: order.chargeDeci, refundedDeci: ledgerDeci });
  }
  for (const [id, { order, u, childLedgerDeci, childRecordedDeci }] of autos) {
    // Order names the refund of a debit that came after a given-up auto order `order-<id>-unpaid` too.
    const refunds = [...takeRefunds(books.refunds.auto, id), ...takeRefunds(books.refunds.order, id)];
    checkRefunds('auto', order, u, refunds, members, findings);
    const ownDeci = sumOf(refunds);
    checkPayment('auto', order, u, take(books.debits.auto, id), ownDeci + childLedgerDeci, members, findings, facts);
    noteShortRefund('auto', { ...order, refundedDeci: (order.refundedDeci ?? 0) - childRecordedDeci }, ownDeci, facts);
    const key = paymentKey('auto', id);
    if (wanted.has(key)) facts.delivery.set(key, { u, kind: 'auto', status: order.status, chargeDeci: order.chargeDeci, refundedDeci: ownDeci + childLedgerDeci });
  }
  for (const kind of ['order', 'auto'] as const) {
    for (const [id, debit] of books.debits[kind]) {
      findings.add('debit-without-order', `debit ${paymentKey(kind, id)} of ${debit.amount} deci-won names no ${kind === 'order' ? 'order' : 'auto order'}`, { userId: members.name(debit.u), reference: paymentKey(kind, id) });
    }
    books.debits[kind].clear();
    for (const [id, refunds] of books.refunds[kind]) {
      for (const r of refunds) findings.add('refund-without-debit', `refund ${r.reference} of ${r.amount} deci-won names no ${kind === 'order' ? 'order' : 'auto order'} ${id}`, { userId: members.name(r.u), reference: r.reference });
    }
    books.refunds[kind].clear();
  }
  return facts;
}

/** Takes an order's entry out of the books: what remains at the end names no order. */
function take<T>(map: Map<number, T>, id: number): T | undefined {
  const value = map.get(id);
  map.delete(id);
  return value;
}
const takeRefunds = (map: Map<number, RefundMovement[]>, id: number): RefundMovement[] => take(map, id) ?? [];

/** The debit of an order or auto order against its payment state, and its refunds against the debit. */
function checkPayment(kind: OrderKind, order: StoredOrder, u: number, debit: Movement | undefined, refundedDeci: number, members: Members, findings: Findings, facts: OrderFacts): void {
  const reference = paymentKey(kind, order._id);
  const what = kind === 'order' ? 'order' : 'auto order';
  if (debit === undefined) {
    if (order.payment === 'paid') findings.add('order-without-debit', `${what} ${order._id} is paid (${order.chargeDeci} deci-won) but the wallet holds no debit ${reference}`, { userId: order.userId, reference });
    if (refundedDeci > 0) findings.add('refund-without-debit', `${what} ${order._id} was refunded ${refundedDeci} deci-won but never debited`, { userId: order.userId, reference });
    return;
  }
  if (debit.u !== u || debit.amount !== order.chargeDeci) {
    findings.add('debit-mismatch', `debit ${reference} takes ${debit.amount} deci-won from ${members.name(debit.u)}; the ${what} is ${order.userId}'s for ${order.chargeDeci}`, { userId: members.name(debit.u), reference });
  }
  if (order.payment === 'rejected' && order.abandoned !== true) {
    findings.add('debit-for-refused-order', `${what} ${order._id} was refused payment, yet debit ${reference} took ${debit.amount} deci-won`, { userId: members.name(debit.u), reference });
  }
  if (order.payment === 'rejected' && order.abandoned === true && refundedDeci < debit.amount) {
    const unpaid = `order-${order._id}-unpaid`;
    facts.short.push({ rule: 'debit-for-refused-order', userId: order.userId, reference: unpaid, references: [unpaid], expectedDeci: debit.amount, detail: `${what} ${order._id} was given up, debit ${reference} took ${debit.amount} deci-won and refund ${unpaid} gave back` });
  }
  if (refundedDeci > debit.amount) findings.add('refund-exceeds-debit', `refunds of ${reference} give back ${refundedDeci} deci-won of a debit of ${debit.amount}`, { userId: members.name(debit.u), reference });
}

/** Each refund is the member's own, of a reason the order's state allows. */
function checkRefunds(kind: OrderKind, order: StoredOrder, u: number, refunds: readonly RefundMovement[], members: Members, findings: Findings): void {
  for (const r of refunds) {
    if (r.u !== u) findings.add('refund-without-debit', `refund ${r.reference} credits ${members.name(r.u)}; the order is ${order.userId}'s`, { userId: members.name(r.u), reference: r.reference });
    const allowed = r.reason === 'unpaid' ? order.payment === 'rejected' && order.abandoned === true : refundAllowed(kind, order, r.reason);
    if (!allowed) {
      findings.add('refund-state', `refund ${r.reference} (${r.amount} deci-won) but the ${kind === 'order' ? 'order' : 'auto order'} is ${order.payment}, status ${String(order.status)}`, { userId: members.name(r.u), reference: r.reference });
    }
  }
}

/** Order's own record of what it gave back, against the wallet's: short = missing (read again later). */
function noteShortRefund(kind: OrderKind, order: StoredOrder, ledgerDeci: number, facts: OrderFacts): void {
  const canceled = order.payment === 'paid' && order.status === refundStatus[kind].canceled;
  const expectedDeci = Math.max(order.refundedDeci ?? 0, canceled && kind === 'order' ? order.chargeDeci : 0);
  if (expectedDeci <= ledgerDeci || (order.payment === 'rejected' && order.abandoned === true)) return;
  const references = kind === 'order' ? ['canceled', 'partial', 'unpaid'].map((r) => `order-${order._id}-${r}`) : [`auto-${order._id}-canceled`, `auto-${order._id}-expired`, `order-${order._id}-unpaid`];
  facts.short.push({
    rule: 'refund-missing',
    userId: order.userId,
    reference: references[0]!,
    references,
    expectedDeci,
    detail: `${kind === 'order' ? 'order' : 'auto order'} ${order._id} (status ${String(order.status)}) gave back ${expectedDeci} deci-won; the wallet credited`,
  });
}

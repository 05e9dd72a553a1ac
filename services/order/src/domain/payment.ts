import { AutoOrderStatus, OrderStatus } from '@smm/contracts';

/**
 * The payment leg of the saga, shared by orders and auto orders: stored awaiting payment, then
 * exactly one of paid (PointDebited) or rejected (PointDebitRejected, or given up when the wallet
 * did not answer while the member waited). Anything that arrives later (a duplicate, a replay, the
 * other answer) finds the order no longer awaiting and changes nothing — except a debit for an
 * order that was given up, whose money goes back once (RefundRequested `order-<id>-unpaid`).
 */
export const paymentStates = ['awaiting', 'paid', 'rejected'] as const;
export type PaymentState = (typeof paymentStates)[number];

export type PaymentOutcome = 'paid' | 'rejected';

/** What the payment rules read of a stored order or auto order. */
export type PaymentFacts = { payment: PaymentState; userId: string; chargeDeci: number; abandoned?: boolean; refundedDeci: number };

export type PaymentAnswer = { outcome: PaymentOutcome; userId: string; amountDeci: number };

export type PaymentDecision = { kind: 'settle'; to: PaymentOutcome } | { kind: 'refund-unpaid'; amountDeci: number } | { kind: 'ignore'; reason: string };

export function decidePayment(current: PaymentFacts | undefined, answer: PaymentAnswer): PaymentDecision {
  if (!current) return { kind: 'ignore', reason: 'unknown order' };
  if (current.userId !== answer.userId) return { kind: 'ignore', reason: 'payment answer names another member' };
  if (current.chargeDeci !== answer.amountDeci) return { kind: 'ignore', reason: 'payment answer is for another amount' };
  if (current.payment === 'awaiting') return { kind: 'settle', to: answer.outcome };
  if (current.payment === 'rejected' && current.abandoned === true && answer.outcome === 'paid' && current.refundedDeci === 0) {
    return { kind: 'refund-unpaid', amountDeci: current.chargeDeci };
  }
  return { kind: 'ignore', reason: `payment already ${current.payment}` };
}

/** The refund of a debit that arrived after its order was given up; one per order. */
export const unpaidRefundId = (orderId: number) => `order-${orderId}-unpaid`;

/**
 * The fields a settled payment sets — the one definition of "paid" (status 0: pending, or active
 * for an auto order) and "rejected", used for the write and for the view answered to the member.
 */
export function paymentChange(to: PaymentOutcome | 'abandoned', kind: 'order' | 'auto', at: Date) {
  if (to === 'paid') return { payment: 'paid' as const, status: kind === 'auto' ? AutoOrderStatus.values.ACTIVE : OrderStatus.values.PENDING, paidAt: at };
  if (to === 'abandoned') return { payment: 'rejected' as const, abandoned: true };
  return { payment: 'rejected' as const };
}
export type PaymentChange = ReturnType<typeof paymentChange>;

/** The guard of a settlement as a filter on the stored order: still awaiting, that member, that amount. */
export function settleableBy(answer: { userId: string; amountDeci: number }): { payment: 'awaiting'; userId: string; chargeDeci: number } {
  return { payment: 'awaiting', userId: answer.userId, chargeDeci: answer.amountDeci };
}

/** What the member-facing answer calls each state. */
export const paymentLabels = {
  awaiting: 'awaiting_payment',
  paid: 'paid',
  rejected: 'rejected',
} as const satisfies Readonly<Record<PaymentState, string>>;

/**
 * The payment leg of the saga, shared by orders and auto orders: stored awaiting payment, then
 * exactly one of paid (PointDebited) or rejected (PointDebitRejected). Anything that arrives later
 * (a duplicate, a replay, the other answer) finds the order no longer awaiting and changes nothing.
 */
export const paymentStates = ['awaiting', 'paid', 'rejected'] as const;
export type PaymentState = (typeof paymentStates)[number];

export type PaymentOutcome = 'paid' | 'rejected';

export type PaymentTransition = { ok: true; from: 'awaiting'; to: PaymentOutcome } | { ok: false; reason: string };

export function settlePayment(current: { payment: PaymentState; userId: string; chargeDeci: number }, answer: { outcome: PaymentOutcome; userId: string; amountDeci: number }): PaymentTransition {
  if (current.payment !== 'awaiting') return { ok: false, reason: `payment already ${current.payment}` };
  if (current.userId !== answer.userId) return { ok: false, reason: 'payment answer names another member' };
  if (current.chargeDeci !== answer.amountDeci) return { ok: false, reason: 'payment answer is for another amount' };
  return { ok: true, from: 'awaiting', to: answer.outcome };
}

/** What the member-facing answer calls each state. */
export const paymentLabels: Readonly<Record<PaymentState, string>> = {
  awaiting: 'awaiting_payment',
  paid: 'paid',
  rejected: 'rejected',
};

/**
 * The same guard as a condition on the stored order, so the transition is one conditional write:
 * only an order still awaiting payment, of that member and that amount, is settled.
 */
export function settleableBy(answer: { userId: string; amountDeci: number }): { payment: 'awaiting'; userId: string; chargeDeci: number } {
  return { payment: 'awaiting', userId: answer.userId, chargeDeci: answer.amountDeci };
}

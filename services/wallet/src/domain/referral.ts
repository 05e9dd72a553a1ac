/**
 * Referrals that pay (pure rules). Source: the value delivered to a referred member — an order (a
 * one-off order, or a run of an auto order as its child order) that reached completed, or partial
 * (what was charged for it minus what was refunded of it). Never at debit time: money that can
 * still be refunded pays nobody. A refund after delivery takes the share back (reversal); what the
 * referrer already spent is carried against their next shares.
 * Why spending and not top-ups: top-ups are never refunded here, and an operator's panel earns from
 * delivered orders, so the referrer is paid from margin that exists.
 */

/** The referrer's share of a movement in whole deci-won, rounded down (never pays a fraction). */
export function referralShare(amountDeci: number, ratePercent: number): number {
  return Math.floor((amountDeci * ratePercent) / 100);
}

/** Ledger references of the referrer's entries: derived from the source, so each source pays once. */
export const referralReferences = {
  /**
   * `referral-order-12` for the delivered order 12 (a one-off order, or a child order of an auto
   * order); before rewards on delivery, `referral-order-12` / `referral-auto-40` for a payment.
   */
  credit: (paymentReference: string) => `referral-${paymentReference}`,
  /** `referral-reversal-order-12-canceled` for the refund `order-12-canceled`. */
  reversal: (refundId: string) => `referral-reversal-${refundId}`,
};

/**
 * The payment a refund gives back money of. Order names refunds `<kind>-<orderId>-<reason>`
 * (RefundRequested); anything else names no payment this rule knows and reverses nothing.
 */
export function paymentOfRefund(refundId: string): string | null {
  const match = /^(order|auto)-(\d+)-[a-z-]+$/.exec(refundId);
  return match ? `${match[1]}-${match[2]}` : null;
}

/** The order statuses (spec §4) that deliver: completed, and partial with nothing left undelivered. */
export const deliveredStatuses = { completed: 2, partial: 3 } as const;

/**
 * What an order status change means for the referral of that order: `now` (completed, or partial
 * with no remains: everything charged minus anything refunded was delivered), `after-refund`
 * (partial with remains: its refund follows and the share is decided when the wallet credited it)
 * or `none` (not delivered, or canceled).
 */
export function deliveryOf(change: { to: number; remains: number }): 'now' | 'after-refund' | 'none' {
  if (change.to === deliveredStatuses.completed) return 'now';
  if (change.to === deliveredStatuses.partial) return change.remains > 0 ? 'after-refund' : 'now';
  return 'none';
}

/** The order a partial refund (`order-12-partial`) delivered the rest of, or null for other refunds. */
export function orderOfPartialRefund(refundId: string): number | null {
  const match = /^order-(\d{1,15})-partial$/.exec(refundId);
  return match ? Number(match[1]) : null;
}

/**
 * What an order delivered, in deci-won: what was charged for it (a one-off order's debit, or an
 * auto order's debit divided by its runs for a child order, rounded down) minus what was refunded
 * of it, never below zero.
 */
export function deliveredValue(charge: { debitDeci: number; runs: number | null }, refundedDeci: number): number {
  const chargedDeci = charge.runs === null ? charge.debitDeci : Math.floor(charge.debitDeci / charge.runs);
  return Math.max(0, chargedDeci - refundedDeci);
}

/**
 * A share after what the referrer still owes from reversals they could not pay: the debt is
 * settled from the share first, the rest is paid.
 */
export function shareAfterCarry(shareDeci: number, owedDeci: number): { paidDeci: number; settledDeci: number } {
  const settledDeci = Math.min(shareDeci, Math.max(0, owedDeci));
  return { paidDeci: shareDeci - settledDeci, settledDeci };
}

/**
 * What a refund takes back from the referrer: the share of the refund at the rate the payment was
 * credited with, never more than is still unreversed of that payment, and never more than the
 * referrer holds (the balance never goes below zero). `shortfallDeci` is what could not be taken
 * because the referrer had already spent it; it is carried against their future shares.
 * `credit.amountDeci` is the credit's whole share (paid, or settling an earlier carry).
 */
export function referralReversal(
  refundDeci: number,
  credit: { amountDeci: number; ratePercent: number },
  alreadyRequestedDeci: number,
  referrerBalanceDeci: number,
): { requestedDeci: number; reversedDeci: number; shortfallDeci: number } {
  const requestedDeci = Math.max(0, Math.min(referralShare(refundDeci, credit.ratePercent), credit.amountDeci - alreadyRequestedDeci));
  const reversedDeci = Math.min(requestedDeci, Math.max(0, referrerBalanceDeci));
  return { requestedDeci, reversedDeci, shortfallDeci: requestedDeci - reversedDeci };
}

/** A referred member's login id as their referrer sees it: the first two characters, then `***`. */
export function maskLoginId(loginId: string): string {
  return `${[...loginId].slice(0, 2).join('')}***`;
}

/** The ledger check's rule for referral entries: a `referral` is a credit, a `referral-reversal` a debit. */
export function referralEntryProblem(entry: { source?: string; kind: string; referenceId: string }): string | null {
  if (entry.source === 'referral' && entry.kind !== 'credit') return `entry ${entry.referenceId} is a referral but a ${entry.kind}`;
  if (entry.source === 'referral-reversal' && entry.kind !== 'debit') return `entry ${entry.referenceId} is a referral reversal but a ${entry.kind}`;
  return null;
}

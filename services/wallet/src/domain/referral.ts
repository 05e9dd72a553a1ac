/**
 * Referrals that pay (pure rules). Source movement: what a referred member pays for orders
 * (PointDebited), reversed by what comes back to them as a refund (PointCredited, source refund).
 * Why spending and not top-ups: top-ups are never refunded here (so "reversed if refunded" would
 * never happen), and an operator's panel earns from orders, so the referrer is paid from margin
 * that exists, not from money a member may still leave unspent.
 */

/** The referrer's share of a movement in whole deci-won, rounded down (never pays a fraction). */
export function referralShare(amountDeci: number, ratePercent: number): number {
  return Math.floor((amountDeci * ratePercent) / 100);
}

/** Ledger references of the referrer's entries: derived from the source, so each source pays once. */
export const referralReferences = {
  /** `referral-order-12` for the payment `order-12` (or `auto-40`). */
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

/**
 * What a refund takes back from the referrer: the share of the refund at the rate the payment was
 * credited with, never more than is still unreversed of that payment, and never more than the
 * referrer holds (the balance never goes below zero). `shortfallDeci` is what could not be taken
 * because the referrer had already spent it; it is recorded, not collected later.
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

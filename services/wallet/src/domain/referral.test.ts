import { describe, expect, it } from 'vitest';
import { deliveredValue, deliveryOf, maskLoginId, orderOfPartialRefund, paymentOfRefund, referralEntryProblem, referralReversal, referralShare, shareAfterCarry } from './referral.ts';

describe('referral rules', () => {
  it('pays the share rounded down to whole deci-won', () => {
    expect(referralShare(10_000, 5)).toBe(500);
    expect(referralShare(199, 5)).toBe(9);
    expect(referralShare(19, 5)).toBe(0);
    expect(referralShare(10_000, 0)).toBe(0);
  });

  it('finds the payment a refund belongs to', () => {
    expect(paymentOfRefund('order-12-canceled')).toBe('order-12');
    expect(paymentOfRefund('order-12-partial')).toBe('order-12');
    expect(paymentOfRefund('auto-40-canceled')).toBe('auto-40');
    expect(paymentOfRefund('topup-3')).toBeNull();
  });

  it('reverses at the credit rate, capped by what is unreversed and by the balance', () => {
    const credit = { amountDeci: 500, ratePercent: 5 };
    expect(referralReversal(10_000, credit, 0, 10_000)).toEqual({ requestedDeci: 500, reversedDeci: 500, shortfallDeci: 0 });
    expect(referralReversal(4_000, credit, 0, 10_000)).toEqual({ requestedDeci: 200, reversedDeci: 200, shortfallDeci: 0 });
    expect(referralReversal(10_000, credit, 200, 10_000)).toEqual({ requestedDeci: 300, reversedDeci: 300, shortfallDeci: 0 });
    expect(referralReversal(10_000, credit, 0, 120)).toEqual({ requestedDeci: 500, reversedDeci: 120, shortfallDeci: 380 });
    expect(referralReversal(10_000, credit, 500, 10_000)).toEqual({ requestedDeci: 0, reversedDeci: 0, shortfallDeci: 0 });
  });

  it('lets the ledger check flag a referral entry of the wrong kind', () => {
    expect(referralEntryProblem({ source: 'referral', kind: 'credit', referenceId: 'referral-order-1' })).toBeNull();
    expect(referralEntryProblem({ source: 'referral-reversal', kind: 'debit', referenceId: 'referral-reversal-order-1-canceled' })).toBeNull();
    expect(referralEntryProblem({ source: 'referral', kind: 'debit', referenceId: 'referral-order-1' })).toContain('referral-order-1');
    expect(referralEntryProblem({ source: 'referral-reversal', kind: 'credit', referenceId: 'x' })).not.toBeNull();
    expect(referralEntryProblem({ source: 'order', kind: 'debit', referenceId: 'order-1' })).toBeNull();
  });

  it('pays on delivery only: completed, or partial once its refund is in', () => {
    expect(deliveryOf({ to: 2, remains: 0 })).toBe('now');
    expect(deliveryOf({ to: 3, remains: 0 })).toBe('now');
    expect(deliveryOf({ to: 3, remains: 40 })).toBe('after-refund');
    for (const to of [0, 1, 4, 5]) expect(deliveryOf({ to, remains: 0 })).toBe('none');
    expect(orderOfPartialRefund('order-12-partial')).toBe(12);
    expect(orderOfPartialRefund('order-12-canceled')).toBeNull();
    expect(orderOfPartialRefund('auto-12-partial')).toBeNull();
  });

  it('values a delivery at what was charged for it minus refunded: a run is its auto order\'s debit over the runs', () => {
    expect(deliveredValue({ debitDeci: 100_000, runs: null }, 40_000)).toBe(60_000);
    expect(deliveredValue({ debitDeci: 1_000_000, runs: 100 }, 0)).toBe(10_000);
    expect(deliveredValue({ debitDeci: 1_000, runs: 3 }, 0)).toBe(333);
    expect(deliveredValue({ debitDeci: 1_000, runs: null }, 1_500)).toBe(0);
  });

  it('settles what a referrer owes from the next shares before paying', () => {
    expect(shareAfterCarry(5_000, 3_000)).toEqual({ paidDeci: 2_000, settledDeci: 3_000 });
    expect(shareAfterCarry(1_000, 3_000)).toEqual({ paidDeci: 0, settledDeci: 1_000 });
    expect(shareAfterCarry(1_000, 0)).toEqual({ paidDeci: 1_000, settledDeci: 0 });
  });

  it('masks login ids', () => {
    expect(maskLoginId('abcdef')).toBe('ab***');
    expect(maskLoginId('a')).toBe('a***');
    expect(maskLoginId('김철수')).toBe('김철***');
  });
});

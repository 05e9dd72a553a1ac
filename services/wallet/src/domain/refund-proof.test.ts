import { describe, expect, it } from 'vitest';
import { type AutoRun, type PaymentBook, candidatePayments, refundTarget, refundVerdict } from './refund-proof.ts';

const book = (reference: string, userId: string, debitDeci: number, refundedDeci = 0): [string, PaymentBook] => [reference, { reference, userId, debitDeci, refundedDeci, refundIds: new Set() }];
const runs = new Map<number, AutoRun>([[41, { childOrderId: 41, autoOrderId: 40, userId: 'b', run: 1, runs: 100 }]]);

describe('refund proof', () => {
  it('reads the order a refund id names, and nothing else', () => {
    expect(refundTarget('order-12-canceled')).toEqual({ kind: 'order', id: 12 });
    expect(refundTarget('auto-40-canceled')).toEqual({ kind: 'auto', id: 40 });
    for (const id of ['refund-12', 'order-12', 'order-0-canceled', 'order-12-', 'auto-x-canceled', 'order-12-canceled ']) expect(refundTarget(id)).toBeNull();
  });

  it('looks for a child order refund in its auto order payment, and an order id refund also under auto (unpaid auto orders)', () => {
    expect(candidatePayments('auto-40-canceled', runs)).toEqual(['auto-40']);
    expect(candidatePayments('order-41-canceled', runs)).toEqual(['order-41', 'auto-41', 'auto-40']);
    expect(candidatePayments('order-12-unpaid', runs)).toEqual(['order-12', 'auto-12']);
  });

  it('credits only a debit of the same member, within what is left of it, for the order the event names', () => {
    const proof = { books: new Map([book('auto-40', 'b', 1_000_000, 990_000), book('order-12', 'a', 500)]), runs };
    expect(refundVerdict({ userId: 'b', refundId: 'order-41-canceled', amountDeci: 10_000, orderId: 41 }, proof)).toEqual({ ok: true, payment: 'auto-40' });
    expect(refundVerdict({ userId: 'b', refundId: 'order-41-canceled', amountDeci: 10_001 }, proof)).toMatchObject({ ok: false, reason: 'OVER_REFUND' });
    expect(refundVerdict({ userId: 'x', refundId: 'order-12-canceled', amountDeci: 1 }, proof)).toMatchObject({ ok: false, reason: 'OTHER_MEMBER' });
    expect(refundVerdict({ userId: 'a', refundId: 'order-12-canceled', amountDeci: 1, orderId: 13 }, proof)).toMatchObject({ ok: false, reason: 'ORDER_MISMATCH' });
    expect(refundVerdict({ userId: 'a', refundId: 'order-99-canceled', amountDeci: 1 }, proof)).toMatchObject({ ok: false, reason: 'NO_DEBIT' });
  });
});

import { describe, expect, it } from 'vitest';
import { type AccountState, type MoneyRequest, decideRequests } from './payments.ts';

const now = new Date('2026-11-22T00:00:00Z');
const accounts = (...list: AccountState[]) => new Map(list.map((a) => [a.userId, a]));
const refund = (userId: string, refundId: string, amountDeci: number): MoneyRequest => ({ type: 'refund', userId, refundId, amountDeci });
const pay = (userId: string, orderId: number, amountDeci: number): MoneyRequest => ({ type: 'pay', userId, kind: 'order', orderId, amountDeci });

describe('decideRequests', () => {
  it('debits in order while the balance covers the whole amount, then refuses; never below zero', () => {
    const { decisions, accounts: after, changed } = decideRequests([pay('a', 1, 60), pay('a', 2, 50), pay('a', 3, 40)], accounts({ userId: 'a', balanceDeci: 100, seq: 4 }), new Set(), now);
    expect(decisions.map((d) => d.type)).toEqual(['debited', 'rejected', 'debited']);
    expect(decisions[0]).toMatchObject({ entry: { seq: 5, deltaDeci: -60, balanceAfterDeci: 40, kind: 'debit', source: 'order', referenceId: 'order-1' } });
    expect(decisions[1]).toMatchObject({ reason: 'INSUFFICIENT_POINTS', balanceDeci: 40 });
    expect(decisions[2]).toMatchObject({ entry: { seq: 6, balanceAfterDeci: 0 } });
    expect(after.get('a')).toEqual({ userId: 'a', balanceDeci: 0, seq: 6 });
    expect([...changed]).toEqual(['a']);
  });

  it('decides each reference once, across batches and within one', () => {
    const proof = { books: new Map([['order-2', { reference: 'order-2', userId: 'a', debitDeci: 10, refundedDeci: 0, refundIds: new Set<string>() }]]), runs: new Map() };
    const { decisions } = decideRequests(
      [pay('a', 1, 10), pay('a', 1, 10), pay('a', 2, 10), refund('a', 'order-2-canceled', 10), refund('a', 'order-2-canceled', 10)],
      accounts({ userId: 'a', balanceDeci: 100, seq: 0 }),
      new Set(['order-2']),
      now,
      proof,
    );
    expect(decisions.map((d) => d.type)).toEqual(['debited', 'duplicate', 'duplicate', 'credited', 'duplicate']);
    expect(decisions[3]).toMatchObject({ entry: { source: 'refund', referenceId: 'order-2-canceled', paymentReference: 'order-2' } });
  });

  it('refuses payments of members without an account, and refunds their records do not prove', () => {
    const { decisions, changed } = decideRequests([pay('x', 1, 10), refund('x', 'order-1-canceled', 5), refund('x', 'r', 5)], accounts(), new Set(), now);
    expect(decisions[0]).toMatchObject({ type: 'rejected', reason: 'NO_ACCOUNT', balanceDeci: 0 });
    expect(decisions[1]).toMatchObject({ type: 'refused', code: 'NO_DEBIT' });
    expect(decisions[2]).toMatchObject({ type: 'refused', code: 'UNKNOWN_REFUND_ID' });
    expect(changed.size).toBe(0);
  });

  it('credits a refund of a debit earlier in the run, and two refunds of one payment only up to the debit', () => {
    const { decisions, accounts: after } = decideRequests(
      [pay('a', 7, 300), refund('a', 'order-7-partial', 200), refund('a', 'order-7-canceled', 101), refund('b', 'order-7-unpaid', 1)],
      accounts({ userId: 'a', balanceDeci: 300, seq: 1 }, { userId: 'b', balanceDeci: 0, seq: 0 }),
      new Set(),
      now,
    );
    expect(decisions.map((d) => (d.type === 'refused' ? d.code : d.type))).toEqual(['debited', 'credited', 'OVER_REFUND', 'OTHER_MEMBER']);
    expect(after.get('a')).toEqual({ userId: 'a', balanceDeci: 200, seq: 3 });
    expect(after.get('b')).toEqual({ userId: 'b', balanceDeci: 0, seq: 0 });
  });

  it('does not modify the accounts it is given', () => {
    const given = accounts({ userId: 'a', balanceDeci: 100, seq: 0 });
    decideRequests([pay('a', 1, 10)], given, new Set(), now);
    expect(given.get('a')).toEqual({ userId: 'a', balanceDeci: 100, seq: 0 });
  });
});

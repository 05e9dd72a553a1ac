import { describe, expect, it } from 'vitest';
import { type AccountState, type MoneyRequest, decideRequests } from './payments.ts';

const now = new Date('2026-11-22T00:00:00Z');
const accounts = (...list: AccountState[]) => new Map(list.map((a) => [a.userId, a]));
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
    const { decisions } = decideRequests(
      [pay('a', 1, 10), pay('a', 1, 10), pay('a', 2, 10), { type: 'refund', userId: 'a', refundId: 'order-2-canceled', amountDeci: 10 }],
      accounts({ userId: 'a', balanceDeci: 100, seq: 0 }),
      new Set(['order-2']),
      now,
    );
    expect(decisions.map((d) => d.type)).toEqual(['debited', 'duplicate', 'duplicate', 'credited']);
  });

  it('refuses payments and refunds of members without an account', () => {
    const { decisions, changed } = decideRequests([pay('x', 1, 10), { type: 'refund', userId: 'x', refundId: 'r', amountDeci: 5 }], accounts(), new Set(), now);
    expect(decisions[0]).toMatchObject({ type: 'rejected', reason: 'NO_ACCOUNT', balanceDeci: 0 });
    expect(decisions[1]).toMatchObject({ type: 'refused' });
    expect(changed.size).toBe(0);
  });

  it('does not modify the accounts it is given', () => {
    const given = accounts({ userId: 'a', balanceDeci: 100, seq: 0 });
    decideRequests([pay('a', 1, 10)], given, new Set(), now);
    expect(given.get('a')).toEqual({ userId: 'a', balanceDeci: 100, seq: 0 });
  });
});

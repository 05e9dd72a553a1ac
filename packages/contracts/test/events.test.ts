import { describe, expect, it } from 'vitest';
import {
  AutoOrderRunDue,
  OrderPlaced,
  PointDebited,
  RefundRequested,
  TopUpRequested,
  orderEvents,
  orderStatusApiNames,
  OrderStatus,
  parseEvent,
  schedulerEvents,
  walletEvents,
} from '../src/index.ts';

const origin = { correlationId: 'req-1' };

describe('money and order events', () => {
  it('round-trips an order placement through bytes', () => {
    const event = OrderPlaced.create('order-7', { orderId: 7, kind: 'auto', userId: 'u1', serviceId: 3, amount: 100, runs: 3, interval: 60, chargeDeci: 3_000 }, origin);
    const parsed = parseEvent(Buffer.from(JSON.stringify(event)), orderEvents);
    expect(parsed).toEqual({ ok: true, event });
  });

  it('refuses a fractional or negative amount of money', () => {
    expect(() => PointDebited.create('account-u1', { userId: 'u1', kind: 'order', orderId: 1, amountDeci: 10.5, balanceAfterDeci: 0 }, origin)).toThrow();
    const bad = { ...RefundRequested.create('order-1', { refundId: 'order-1-canceled', userId: 'u1', orderId: 1, amountDeci: 5, reason: 'canceled' }, origin) };
    bad.data = { ...bad.data, amountDeci: -5 };
    const parsed = parseEvent(JSON.stringify(bad), orderEvents);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain('data: amountDeci');
  });

  it('validates receipt types and timestamps of top-ups and due runs', () => {
    const topUp = TopUpRequested.create('topup-1', { topUpId: 1, userId: 'u1', pointDeci: 50_000, transferDeci: 55_000, receiptType: 'fee', expiresAt: '2026-11-22T10:00:00.000Z' }, origin);
    expect(parseEvent(JSON.stringify(topUp), walletEvents).ok).toBe(true);
    const wrong = { ...topUp, data: { ...topUp.data, receiptType: 'invoice' } };
    expect(parseEvent(JSON.stringify(wrong), walletEvents).ok).toBe(false);
    const due = AutoOrderRunDue.create('order-4', { autoOrderId: 4, userId: 'u1', run: 2, dueAt: '2026-11-22T10:00:00.000Z' }, origin);
    expect(parseEvent(JSON.stringify({ ...due, data: { ...due.data, run: 0 } }), schedulerEvents).ok).toBe(false);
  });

  it('names every order status for the reseller API', () => {
    for (const value of Object.values(OrderStatus.values)) expect(orderStatusApiNames[value]).toMatch(/^[A-Z]/);
  });
});

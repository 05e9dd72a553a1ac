import { describe, expect, it } from 'vitest';
import { AutoOrderRunPlaced, OrderAccepted, OrderPlaced, OrderStatusChanged, PointCredited, PointDebited, TopUpApproved } from '@smm/contracts';
import { memberUpdateOf } from './member-update.ts';

const origin = { correlationId: 'c-1' };

describe('memberUpdateOf', () => {
  it('a top-up credit updates the balance and the top-up list of its member, without a notice', () => {
    const event = PointCredited.create('account-u1', { userId: 'u1', source: 'topup', referenceId: 'topup-3', amountDeci: 100_000, balanceAfterDeci: 150_000 }, origin);
    expect(memberUpdateOf(event)).toEqual({ userId: 'u1', update: { type: 'PointCredited', touches: ['balance', 'topUps'], balanceDeci: 150_000 } });
  });

  it('a refund credit carries the refunded amount as a notice', () => {
    const event = PointCredited.create('account-u1', { userId: 'u1', source: 'refund', referenceId: 'order-9-canceled', amountDeci: 2_500, balanceAfterDeci: 7_500 }, origin);
    expect(memberUpdateOf(event)?.update).toMatchObject({ balanceDeci: 7_500, notice: { kind: 'refunded', amountDeci: 2_500 } });
  });

  it('a debit for an auto order touches the auto-order list, one for an order the order list', () => {
    const auto = PointDebited.create('account-u1', { userId: 'u1', kind: 'auto', orderId: 4, amountDeci: 10, balanceAfterDeci: 0 }, origin);
    const order = PointDebited.create('account-u1', { userId: 'u1', kind: 'order', orderId: 5, amountDeci: 10, balanceAfterDeci: 0 }, origin);
    expect(memberUpdateOf(auto)?.update.touches).toEqual(['balance', 'autoOrders']);
    expect(memberUpdateOf(order)?.update.touches).toEqual(['balance', 'orders']);
  });

  it('only a move to completed gives the completion notice', () => {
    const done = OrderStatusChanged.create('order-7', { orderId: 7, userId: 'u2', from: 1, to: 2, startCount: 10, remains: 0 }, origin);
    const started = OrderStatusChanged.create('order-7', { orderId: 7, userId: 'u2', from: 0, to: 1, startCount: 10, remains: 5 }, origin);
    expect(memberUpdateOf(done)).toEqual({ userId: 'u2', update: { type: 'OrderStatusChanged', touches: ['orders'], notice: { kind: 'orderCompleted', orderId: 7 } } });
    expect(memberUpdateOf(started)?.update.notice).toBeUndefined();
  });

  it('runs, acceptances and approvals reach their member; an order placement is not sent', () => {
    expect(memberUpdateOf(AutoOrderRunPlaced.create('order-3', { autoOrderId: 3, userId: 'u3', run: 1, runs: 2, childOrderId: 8 }, origin))?.update.touches).toEqual(['orders', 'autoOrders']);
    expect(memberUpdateOf(OrderAccepted.create('order-3', { orderId: 3, kind: 'auto', userId: 'u3', runs: 2, interval: 60 }, origin))?.userId).toBe('u3');
    expect(memberUpdateOf(TopUpApproved.create('topup-1', { topUpId: 1, userId: 'u4', pointDeci: 10 }, origin))?.update.touches).toEqual(['topUps']);
    expect(memberUpdateOf(OrderPlaced.create('order-3', { orderId: 3, kind: 'order', userId: 'u3', serviceId: 1, amount: 10, runs: 0, interval: 0, chargeDeci: 10 }, origin))).toBeNull();
  });
});

import { type EventOf, type LiveUpdate, OrderStatus, orderEvents, supportEvents, walletEvents } from '@smm/contracts';

/** The Kafka events the live channel reads: wallet's, order's and support's (issue 40). */
export const liveDefinitions = [...walletEvents, ...orderEvents, ...supportEvents] as const;
export type LiveSourceEvent = EventOf<(typeof liveDefinitions)[number]>;

/** An event for one member's open pages. */
export type MemberUpdate = { userId: string; update: LiveUpdate };

/**
 * Which member an event concerns and what their screen should do with it; null for events no
 * member screen shows (OrderPlaced: the page that placed it already knows; TopUpRequested: same).
 */
export function memberUpdateOf(event: LiveSourceEvent): MemberUpdate | null {
  const to = (update: Omit<LiveUpdate, 'type'>): MemberUpdate => ({ userId: event.data.userId, update: { type: event.type, ...update } });
  const list = (kind: 'order' | 'auto') => (kind === 'auto' ? 'autoOrders' : 'orders');
  switch (event.type) {
    case 'PointDebited':
      return to({ touches: ['balance', list(event.data.kind)], balanceDeci: event.data.balanceAfterDeci });
    case 'PointCredited':
      return event.data.source === 'refund'
        ? to({ touches: ['balance', 'orders', 'autoOrders'], balanceDeci: event.data.balanceAfterDeci, notice: { kind: 'refunded', amountDeci: event.data.amountDeci } })
        : to({ touches: ['balance', 'topUps'], balanceDeci: event.data.balanceAfterDeci });
    case 'PointAdjusted':
      return to({ touches: ['balance'], balanceDeci: event.data.balanceAfterDeci });
    case 'PointDebitRejected':
      return to({ touches: [list(event.data.kind)] });
    case 'TopUpApproved':
    case 'TopUpRejected':
    case 'TopUpExpired':
      return to({ touches: ['topUps'] });
    case 'OrderAccepted':
    case 'OrderRejected':
      return to({ touches: [list(event.data.kind)] });
    case 'OrderStatusChanged':
      return event.data.to === OrderStatus.values.COMPLETED
        ? to({ touches: ['orders'], notice: { kind: 'orderCompleted', orderId: event.data.orderId } })
        : to({ touches: ['orders'] });
    case 'AutoOrderRunPlaced':
      return to({ touches: ['orders', 'autoOrders'] });
    case 'AutoOrderCompleted':
    case 'AutoOrderCanceled':
      return to({ touches: ['autoOrders'] });
    case 'TicketAnswered':
      return to({ touches: ['tickets'], notice: { kind: 'ticketAnswered', ticketId: event.data.ticketId } });
    case 'TicketClosed':
      return to({ touches: ['tickets'] });
    case 'OrderPlaced':
    case 'TopUpRequested':
    case 'RefundRequested':
      return null;
  }
}

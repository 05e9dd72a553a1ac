import type { EventOrigin } from '@smm/contracts';
import { type StatusPatch, changeStatus } from '../domain/order-status.ts';
import { statusAfterChildRefund } from '../domain/auto-order.ts';
import { messages } from '../domain/messages.ts';
import { type Problem, problem } from '../domain/problem.ts';
import type { Order } from '../store/models.ts';
import { orderStatusChanged, refundRequested } from '../events/order-events.ts';
import { type OrderDeps, commit } from './context.ts';
import { type OrderView, orderView } from './views.ts';

export type ChangeResult = { ok: true; order: OrderView } | { ok: false; kind: 'not-found' | 'not-paid' | 'final' | 'invalid'; problem: Problem };

/**
 * An operator moves a paid order between spec §4 statuses: OrderStatusChanged always, and with
 * partial (3) or canceled (5) the refund (RefundRequested) in the same transaction. A run of an auto
 * order refunds into its auto order's tally, so the auto order's final amount stays true.
 */
export async function changeOrderStatus(deps: OrderDeps, origin: EventOrigin, id: number, patch: StatusPatch): Promise<ChangeResult> {
  const result = await commit(deps, async (session, emit): Promise<ChangeResult> => {
    const order = await deps.store.orders.findById(id).session(session).lean<Order>();
    if (!order) return { ok: false, kind: 'not-found', problem: problem('ORDER_NOT_FOUND', messages.orderNotFound) };
    if (order.payment !== 'paid' || order.status === null) return { ok: false, kind: 'not-paid', problem: problem('ORDER_NOT_PAID', messages.orderNotPaid) };
    const verdict = changeStatus(
      { id, status: order.status, amount: order.amount, unitPriceDeci: order.unitPriceDeci, chargeDeci: order.chargeDeci, startCount: order.startCount, remains: order.remains },
      patch,
    );
    if (!verdict.ok) return { ok: false, kind: verdict.kind, problem: verdict.problem };
    const { change } = verdict;
    const refundedDeci = order.refundedDeci + (change.refund?.amountDeci ?? 0);
    const set = { status: change.to, startCount: change.startCount, remains: change.remains, refundedDeci };
    const updated = await deps.store.orders.updateOne({ _id: id, status: order.status }, { $set: set }, { session });
    if (updated.modifiedCount !== 1 && updated.matchedCount !== 1) throw new Error(`order ${id} changed under the transaction`);
    emit(orderStatusChanged(id, order.userId, change, origin));
    if (change.refund) {
      emit(refundRequested({ ...change.refund, userId: order.userId, orderId: id }, origin));
      if (order.autoOrderId !== null) {
        const parent = await deps.store.autoOrders.findById(order.autoOrderId, { status: 1 }).session(session).lean<{ status: number | null }>();
        if (parent) {
          await deps.store.autoOrders.updateOne(
            { _id: order.autoOrderId },
            { $inc: { refundedDeci: change.refund.amountDeci }, $set: { status: statusAfterChildRefund(parent.status) } },
            { session },
          );
        }
      }
    }
    return { ok: true, order: orderView({ ...order, ...set }) };
  });
  if (result.ok) deps.logger.info({ orderId: id, status: result.order.status, correlationId: origin.correlationId }, 'order status changed');
  return result;
}

import type { EventOrigin } from '@smm/contracts';
import { type OperatorAction, auditDiff, recordOperatorAction } from '@smm/platform';
import { type StatusPatch, changeStatus } from '../domain/order-status.ts';
import { statusAfterChildRefund } from '../domain/auto-order.ts';
import { messages } from '../domain/messages.ts';
import { type Problem, problem } from '../domain/problem.ts';
import { orderStatusChanged, refundRequested } from '../events/order-events.ts';
import { type OrderDeps, commit } from './context.ts';
import { type OrderView, orderView } from './views.ts';

/** What the audit log keeps of an operator's change (issue 12). */
const auditedFields = ['status', 'startCount', 'remains', 'statusReason'] as const;

export type ChangeResult = { ok: true; order: OrderView } | { ok: false; kind: 'not-found' | 'not-paid' | 'final' | 'invalid' | 'forbidden'; problem: Problem };

/**
 * An operator moves a paid order between spec §4 statuses: OrderStatusChanged always, and with
 * partial (3) or canceled (5) the refund (RefundRequested) in the same transaction. A run of an auto
 * order refunds into its auto order's tally, so the auto order's final amount stays true.
 */
export async function changeOrderStatus(deps: OrderDeps, origin: EventOrigin, id: number, patch: StatusPatch, actor?: OperatorAction['caller']): Promise<ChangeResult> {
  const result = await commit(deps, async (session, emit): Promise<ChangeResult> => {
    const order = await deps.store.repository.order(id, session);
    if (!order) return { ok: false, kind: 'not-found', problem: problem('ORDER_NOT_FOUND', messages.orderNotFound) };
    if (order.payment !== 'paid' || order.status === null) return { ok: false, kind: 'not-paid', problem: problem('ORDER_NOT_PAID', messages.orderNotPaid) };
    // Issue 39: no operator changes their own order (a refund to themselves).
    if (actor && actor.userId === order.userId) return { ok: false, kind: 'forbidden', problem: problem('SELF_ACTION', messages.selfAction) };
    const verdict = changeStatus(
      { id, status: order.status, amount: order.amount, unitPriceDeci: order.unitPriceDeci, chargeDeci: order.chargeDeci, startCount: order.startCount, remains: order.remains, serviceType: order.serviceType },
      patch,
    );
    if (!verdict.ok) return { ok: false, kind: verdict.kind, problem: verdict.problem };
    const { change } = verdict;
    // Issue 39, one rule for every route that reaches here (the console's PATCH and its bulk change):
    // staff move orders along, but a change that refunds is an admin's.
    if (actor?.role === 'staff' && change.refund) return { ok: false, kind: 'forbidden', problem: problem('STAFF_REFUND_ADMIN_ONLY', messages.staffRefund) };
    const refundedDeci = order.refundedDeci + (change.refund?.amountDeci ?? 0);
    const set = { status: change.to, startCount: change.startCount, remains: change.remains, refundedDeci, statusReason: patch.reason ?? order.statusReason ?? null };
    await deps.store.repository.update('order', id, { status: order.status }, set, session);
    emit(orderStatusChanged(id, order.userId, change, origin));
    if (change.refund) {
      emit(refundRequested({ ...change.refund, userId: order.userId, orderId: id }, origin));
      if (order.autoOrderId !== null) await deps.store.repository.addRunRefund(order.autoOrderId, change.refund.amountDeci, statusAfterChildRefund, session);
    }
    if (actor) {
      const diff = auditDiff({ ...order, statusReason: order.statusReason ?? null }, { ...order, ...set }, auditedFields);
      const action = 'status' in diff.after ? 'order.status.change' : 'order.progress.set';
      // A refund is a money action: the record names the member it benefits (issue 39).
      const beneficiary = change.refund ? { beneficiaryId: order.userId } : {};
      await recordOperatorAction(deps.store.connection, session, { caller: actor, action, target: { type: 'order', id: String(id) }, ...diff, ...beneficiary }, origin);
    }
    return { ok: true, order: orderView({ ...order, ...set }) };
  });
  if (result.ok) deps.logger.info({ orderId: id, status: result.order.status, correlationId: origin.correlationId }, 'order status changed');
  return result;
}

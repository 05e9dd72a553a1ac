import { AutoOrderStatus, type EventOrigin } from '@smm/contracts';
import { type Problem, problem } from '../domain/problem.ts';
import { cancelAutoOrder } from '../domain/auto-order.ts';
import { messages } from '../domain/messages.ts';
import { autoOrderCanceled, refundRequested } from '../events/order-events.ts';
import { type OrderDeps, commit } from './context.ts';
import { type AutoOrderView, autoOrderView } from './views.ts';

export type CancelResult = { ok: true; autoOrder: AutoOrderView; refundDeci: number } | { ok: false; kind: 'not-found' | 'not-active'; problem: Problem };

/**
 * The member cancels an active auto order: status 2, and the runs not yet placed go back
 * (AutoOrderCanceled + RefundRequested `auto-<id>-canceled`), all in one transaction. The guard on
 * `completed` makes a run placed concurrently either land before (and be kept) or not at all.
 */
export async function cancelAuto(deps: OrderDeps, origin: EventOrigin, actor: { userId: string; admin: boolean }, id: number): Promise<CancelResult> {
  const result = await commit(deps, async (session, emit): Promise<CancelResult> => {
    const auto = await deps.store.repository.autoOrder(id, session);
    if (!auto || (!actor.admin && auto.userId !== actor.userId)) return { ok: false, kind: 'not-found', problem: problem('AUTO_ORDER_NOT_FOUND', messages.autoOrderNotFound) };
    // A subscription ends through its own rule (its provider may be running it): POST /admin/subscriptions/:id/end, asked by fulfillment.
    if (auto.subscription) return { ok: false, kind: 'not-active', problem: problem('SUBSCRIPTION_CANCEL_ELSEWHERE', messages.subscriptionCancelElsewhere) };
    const verdict = cancelAutoOrder({ id, status: auto.status, runs: auto.runs, completed: auto.completed, chargeDeci: auto.chargeDeci, perRunDeci: auto.perRunDeci, refundedDeci: auto.refundedDeci });
    if (!verdict.ok) return { ok: false, kind: 'not-active', problem: verdict.problem };
    const now = new Date();
    const set = { status: AutoOrderStatus.values.CANCELED, refundedDeci: auto.refundedDeci + verdict.refundDeci, canceledAt: now };
    await deps.store.repository.update('auto', id, { status: auto.status, completed: auto.completed }, set, session);
    emit(autoOrderCanceled({ autoOrderId: id, userId: auto.userId, runsDone: verdict.runsDone, runs: auto.runs, refundDeci: verdict.refundDeci }, origin));
    if (verdict.refundDeci > 0) {
      emit(refundRequested({ refundId: `auto-${id}-canceled`, userId: auto.userId, orderId: id, amountDeci: verdict.refundDeci, reason: 'auto-canceled' }, origin));
    }
    return { ok: true, autoOrder: autoOrderView({ ...auto, ...set }), refundDeci: verdict.refundDeci };
  });
  if (result.ok) deps.logger.info({ autoOrderId: id, refundDeci: result.refundDeci, correlationId: origin.correlationId }, 'auto order canceled');
  return result;
}

import { OrderStatus, type ServiceType, priceDeci } from '@smm/contracts';
import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';

const S = OrderStatus.values;

/** Completed, partial and canceled end an order: its money is settled. */
export const finalStatuses: ReadonlySet<number> = new Set([S.COMPLETED, S.PARTIAL, S.CANCELED]);
/** Operators (later: fulfillment) move an open order (0, 1, 4) to any of these. */
const targets: ReadonlySet<number> = new Set([S.IN_PROGRESS, S.COMPLETED, S.PARTIAL, S.PROCESSING, S.CANCELED]);

export type OrderFacts = { id: number; status: number; amount: number; unitPriceDeci: number; chargeDeci: number; startCount: number | null; remains: number; serviceType?: ServiceType | undefined };
export type StatusPatch = { status?: number | undefined; startCount?: number | null | undefined; remains?: number | undefined; reason?: string | undefined };

export type Refund = { refundId: string; amountDeci: number; reason: 'canceled' | 'partial' };
export type StatusChange = { from: number; to: number; startCount: number | null; remains: number; refund: Refund | null };

export type ChangeVerdict = { ok: true; change: StatusChange } | { ok: false; kind: 'final' | 'invalid'; problem: Problem };

const invalid = (code: string, message: string): ChangeVerdict => ({ ok: false, kind: 'invalid', problem: problem(code, message) });

/**
 * An operator's change to a paid order, as a guarded transition: final orders stay as they are;
 * partial refunds the unworked remains at the order's unit price, canceled refunds the whole charge.
 * Completed means nothing remains.
 */
export function changeStatus(order: OrderFacts, patch: StatusPatch): ChangeVerdict {
  if (finalStatuses.has(order.status)) return { ok: false, kind: 'final', problem: problem('ORDER_STATUS_FINAL', messages.orderStatusFinal) };
  const to = patch.status ?? order.status;
  if (patch.status !== undefined && !targets.has(patch.status)) return invalid('STATUS_TRANSITION_INVALID', messages.statusTransitionInvalid);
  const startCount = patch.startCount === undefined ? order.startCount : patch.startCount;
  if (startCount !== null && !(Number.isInteger(startCount) && startCount >= 0)) return invalid('START_COUNT_INVALID', messages.startCountInvalid);
  let remains = patch.remains ?? order.remains;
  if (!(Number.isInteger(remains) && remains >= 0 && remains <= order.amount)) return invalid('REMAINS_INVALID', messages.remainsInvalid);

  let refund: Refund | null = null;
  if (to === S.COMPLETED && patch.remains === undefined) remains = 0;
  if (to === S.CANCELED) {
    remains = order.amount;
    refund = { refundId: `order-${order.id}-canceled`, amountDeci: order.chargeDeci, reason: 'canceled' };
  }
  if (to === S.PARTIAL && remains > 0) {
    // Never more than was paid, whatever the unit price did since. A package's price is for the
    // whole package: its unworked share is the charge × remains / amount, rounded down.
    const amountDeci =
      order.serviceType === 'package' ? Math.floor((order.chargeDeci * remains) / order.amount) : Math.min(priceDeci(order.unitPriceDeci, remains), order.chargeDeci);
    refund = { refundId: `order-${order.id}-partial`, amountDeci, reason: 'partial' };
  }
  return { ok: true, change: { from: order.status, to, startCount, remains, refund } };
}

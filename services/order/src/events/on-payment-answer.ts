import { AutoOrderStatus, type EventOf, OrderStatus, type PointDebitRejected, type PointDebited, causedBy } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import type { Model } from 'mongoose';
import { type PaymentOutcome, type PaymentState, settleableBy, settlePayment } from '../domain/payment.ts';
import { type OrderDeps, withOutbox } from '../use-cases/context.ts';
import { orderAccepted, orderRejected } from './order-events.ts';

export const paymentsConsumer = 'order-payments';

type PaymentFacts = { _id: number; payment: PaymentState; userId: string; chargeDeci: number; status: number | null; paidAt: Date | null; runs?: number; interval?: number };

type Answer = EventOf<typeof PointDebited> | EventOf<typeof PointDebitRejected>;

/**
 * Saga step 3, for both wallet answers: PointDebited → paid, status 0 (pending, or active for an
 * auto order) + OrderAccepted; PointDebitRejected → rejected + OrderRejected. One transaction with
 * the processed-event mark; a duplicate or late answer finds the order settled and changes nothing.
 */
export async function onPaymentAnswer(deps: OrderDeps, event: Answer, log: Logger): Promise<void> {
  const outcome: PaymentOutcome = event.type === 'PointDebited' ? 'paid' : 'rejected';
  const { orderId, kind, userId, amountDeci } = event.data;
  let applied = false;
  let emitted = 0;
  const result = await handleOnce(deps.store.connection, paymentsConsumer, event, async (session) => {
    applied = false; // a retried transaction starts over
    const r = await withOutbox(deps, session, async (s, emit) => {
      // Orders and auto orders share these fields; the kind names the collection.
      const model = (kind === 'auto' ? deps.store.autoOrders : deps.store.orders) as unknown as Model<PaymentFacts>;
      const set =
        outcome === 'paid'
          ? { payment: 'paid', status: kind === 'auto' ? AutoOrderStatus.values.ACTIVE : OrderStatus.values.PENDING, paidAt: new Date() }
          : { payment: 'rejected' };
      // One conditional write: the guard of settlePayment as a filter (see domain/payment.ts).
      const current = await model
        .findOneAndUpdate({ _id: orderId, ...settleableBy({ userId, amountDeci }) }, { $set: set }, { session: s, projection: { runs: 1, interval: 1 } })
        .lean<Pick<PaymentFacts, 'runs' | 'interval'>>();
      if (!current) {
        const stored = await model.findById(orderId, { payment: 1, userId: 1, chargeDeci: 1 }).session(s).lean<PaymentFacts>();
        const transition = stored ? settlePayment(stored, { outcome, userId, amountDeci }) : { ok: false as const, reason: 'unknown order' };
        log.info({ orderId, kind, reason: transition.ok ? 'changed concurrently' : transition.reason }, 'payment answer changes nothing');
        return;
      }
      applied = true;
      if (event.type === 'PointDebited') {
        emit(orderAccepted({ orderId, kind, userId, runs: current.runs ?? 0, interval: current.interval ?? 0 }, causedBy(event)));
      } else {
        emit(orderRejected({ orderId, kind, userId, reason: event.data.reason }, causedBy(event)));
      }
    });
    emitted = r.emitted;
  });
  if (emitted > 0) deps.relay.kick();
  if (applied) {
    deps.waiter.notify(orderId, outcome);
    log.info({ orderId, kind, outcome }, outcome === 'paid' ? 'order paid' : 'order payment rejected');
  } else if (result === 'duplicate') {
    log.info({ orderId, kind }, 'duplicate payment answer ignored');
  }
}

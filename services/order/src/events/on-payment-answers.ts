import { type EventEnvelope, type EventOf, type PointDebitRejected, type PointDebited, Topics, causedBy } from '@smm/contracts';
import { type Logger, appendToOutbox, inTransaction, together } from '@smm/platform';
import { type PaymentChange, type PaymentOutcome, decidePayment, paymentChange, settleableBy, unpaidRefundId } from '../domain/payment.ts';
import type { PaymentWrite } from '../store/order-repository.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { orderAccepted, orderRejected, refundRequested } from './order-events.ts';
import { sagaDuration } from './saga-metrics.ts';

export const paymentsConsumer = 'order-payments';

export type PaymentAnswerEvent = EventOf<typeof PointDebited> | EventOf<typeof PointDebitRejected>;

/**
 * Saga step 3 for a run of wallet answers (one or many), in ONE transaction: PointDebited → paid,
 * status 0 (pending, or active for an auto order) + OrderAccepted; PointDebitRejected → rejected +
 * OrderRejected; a debit for an order given up at timeout → RefundRequested `order-<id>-unpaid`.
 * The order's payment state is the idempotency guard (no processed-event marks): answers apply in
 * topic order against the state the earlier ones left, every write is conditioned on the state it
 * was decided on (a concurrent delivery fails the guard and is retried against the new state), so
 * a duplicate, replayed or contradicting answer (same run or later) changes nothing. The waiting
 * requests of this process hear the outcome right after the commit.
 */
export async function onPaymentAnswers(deps: OrderDeps, answers: readonly PaymentAnswerEvent[], log: Logger): Promise<void> {
  const { repository } = deps.store;
  const value = await inTransaction(deps.store.connection, async (session) => {
    const facts = await repository.paymentFacts(answers.map((e) => ({ kind: e.data.kind, id: e.data.orderId })), session);
    const now = new Date();
    const writes: PaymentWrite[] = [];
    const events: EventEnvelope[] = [];
    const settled: Array<{ orderId: number; outcome: PaymentOutcome; change: PaymentChange; placedAt: Date }> = [];
    for (const event of answers) {
      const { orderId, kind, userId, amountDeci } = event.data;
      const outcome: PaymentOutcome = event.type === 'PointDebited' ? 'paid' : 'rejected';
      const current = facts.get(`${kind}:${orderId}`);
      const decision = decidePayment(current, { outcome, userId, amountDeci });
      if (decision.kind === 'ignore') {
        log.info({ orderId, kind, eventId: event.eventId, reason: decision.reason }, 'payment answer changes nothing');
        continue;
      }
      const order = current!;
      if (decision.kind === 'refund-unpaid') {
        writes.push({ kind, id: orderId, guard: { payment: 'rejected', abandoned: true, refundedDeci: 0 }, set: { refundedDeci: decision.amountDeci } });
        order.refundedDeci = decision.amountDeci;
        events.push(refundRequested({ refundId: unpaidRefundId(orderId), userId, orderId, amountDeci: decision.amountDeci, reason: 'canceled' }, causedBy(event)));
        log.warn({ orderId, kind, amountDeci }, 'debit arrived after the order was given up; refunding');
        continue;
      }
      const change = paymentChange(decision.to, kind, now);
      writes.push({ kind, id: orderId, guard: settleableBy({ userId, amountDeci }), set: change });
      order.payment = change.payment;
      settled.push({ orderId, outcome: decision.to, change, placedAt: order.createdAt });
      if (event.type === 'PointDebited') {
        const { serviceId, link, amount } = order;
        events.push(orderAccepted({ orderId, kind, userId, runs: order.runs ?? 0, interval: order.interval ?? 0, serviceId, link, amount }, causedBy(event)));
      } else {
        events.push(orderRejected({ orderId, kind, userId, reason: event.data.reason }, causedBy(event)));
      }
    }
    // The facts read started the transaction: the writes go together, one round trip.
    await together([repository.apply(writes, session), appendToOutbox(deps.store.connection, session, Topics.order, events)]);
    return { settled };
  });
  for (const { orderId, outcome, change, placedAt } of value.settled) {
    deps.waiter.notify(orderId, { outcome, change });
    sagaDuration.observeSince({ outcome }, placedAt);
  }
  log.info({ settled: value.settled.length, answers: answers.length }, 'payment answers applied');
}

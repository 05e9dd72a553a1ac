import { type EventEnvelope, type EventOf, type PointDebitRejected, type PointDebited, Topics, causedBy } from '@smm/contracts';
import { type Logger, appendToOutbox, inTransaction } from '@smm/platform';
import { type PaymentOutcome, decidePayment, paymentChange, settleableBy, unpaidRefundId } from '../domain/payment.ts';
import type { PaymentRecord, PaymentWrite, Settlement } from '../store/order-repository.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { orderAccepted, orderRejected, refundRequested } from './order-events.ts';
import { sagaDuration } from './saga-metrics.ts';

export const paymentsConsumer = 'order-payments';

export type PaymentAnswerEvent = EventOf<typeof PointDebited> | EventOf<typeof PointDebitRejected>;

/**
 * Saga step 3 for a run of wallet answers (one or many): PointDebited → paid, status 0 (pending,
 * or active for an auto order) + OrderAccepted; PointDebitRejected → rejected + OrderRejected; a
 * debit for an order given up at timeout → RefundRequested `order-<id>-unpaid`.
 * The order's payment state is the idempotency guard (no processed-event marks): answers are
 * decided in topic order against the state the earlier ones left, and every write is conditioned
 * on the state it was decided on, so a duplicate, replayed or contradicting answer (same run or
 * later) changes nothing. A write whose guard no longer matches (the order changed after it was
 * read: given up at the end of a wait, or settled by another delivery) is decided again against
 * the new state — a debit that lost to a give-up is refunded.
 * A settlement is one write per order, no transaction: the event is kept in the order document
 * beside its OrderPlaced (see `settle`). A refund of a given-up order follows the order's
 * OrderRejected in the outbox, so it goes there too, in a transaction (rare). The waiting requests
 * of this process hear each outcome right after its write; a placement waiting `early` (no
 * Idempotency-Key: no one else can ask for it) as soon as it is decided, before the write.
 */
export async function onPaymentAnswers(deps: OrderDeps, answers: readonly PaymentAnswerEvent[], log: Logger): Promise<void> {
  const { repository } = deps.store;
  let pending = answers;
  let settled = 0;
  // First against what this process remembers of the orders it placed (no read); whatever that
  // got wrong fails its guard and is decided again from a read.
  for (let remembered = true; pending.length > 0; remembered = false) {
    const facts = await repository.paymentFacts(
      pending.map((e) => ({ kind: e.data.kind, id: e.data.orderId })),
      { remembered },
    );
    const { settlements, refunds } = decideAll(pending, facts, log);
    const writing = repository.settle(deps.store.connection, Topics.order, settlements);
    // Saga decision 2: a placement waiting `early` is answered now, while the write goes (see
    // PaymentWaiter); this process's reads of orders wait for such writes.
    const answeredEarly = new Set(settlements.filter((s) => deps.waiter.notifyEarly(s.id, answerOf(s))));
    if (answeredEarly.size > 0) deps.waiter.track(writing);
    const applied = await writing;
    const changed = new Set<string>();
    settlements.forEach((s, i) => {
      if (!applied[i]) {
        // Cannot happen by PaymentWaiter's argument; if it ever does, the member was told an outcome the order does not have.
        if (answeredEarly.has(s)) log.error({ orderId: s.id, kind: s.kind, answered: s.set.payment }, 'an order answered early changed before its payment was written');
        return void changed.add(`${s.kind}:${s.id}`);
      }
      settled++;
      deps.waiter.notify(s.id, answerOf(s));
      sagaDuration.observeSince({ outcome: s.set.payment }, facts.get(`${s.kind}:${s.id}`)!.createdAt);
    });
    if (refunds.length > 0) {
      // The guarded write starts the transaction (it must go alone); a guard that no longer
      // matches fails the run, which is then delivered again and decided against the new state.
      await inTransaction(deps.store.connection, async (session) => {
        await repository.apply(refunds.map((r) => r.write), session);
        await appendToOutbox(deps.store.connection, session, Topics.order, refunds.map((r) => r.event));
      });
    }
    if (changed.size > 0) log.info({ orders: changed.size }, 'orders changed while their payment was settled; deciding again');
    pending = pending.filter((e) => changed.has(`${e.data.kind}:${e.data.orderId}`));
  }
  // One run per order at a low rate: counted at /metrics (order_saga_duration_seconds), logged only at debug.
  log.debug({ settled, answers: answers.length }, 'payment answers applied');
}

const answerOf = (s: Settlement) => ({ outcome: s.set.payment === 'paid' ? ('paid' as const) : ('rejected' as const), change: s.set });

/** Decides each answer in order against the facts read, as the earlier answers leave them. */
function decideAll(answers: readonly PaymentAnswerEvent[], facts: Map<string, PaymentRecord>, log: Logger) {
  const now = new Date();
  const settlements: Settlement[] = [];
  const refunds: Array<{ write: PaymentWrite; event: EventEnvelope }> = [];
  for (const event of answers) {
    const { orderId, kind, userId, amountDeci } = event.data;
    const outcome: PaymentOutcome = event.type === 'PointDebited' ? 'paid' : 'rejected';
    const order = facts.get(`${kind}:${orderId}`);
    const decision = decidePayment(order, { outcome, userId, amountDeci });
    if (decision.kind === 'ignore') {
      log.info({ orderId, kind, eventId: event.eventId, reason: decision.reason }, 'payment answer changes nothing');
    } else if (decision.kind === 'refund-unpaid') {
      const write = { kind, id: orderId, guard: { payment: 'rejected', abandoned: true, refundedDeci: 0 }, set: { refundedDeci: decision.amountDeci } };
      order!.refundedDeci = decision.amountDeci;
      refunds.push({ write, event: refundRequested({ refundId: unpaidRefundId(orderId), userId, orderId, amountDeci: decision.amountDeci, reason: 'canceled' }, causedBy(event)) });
      log.warn({ orderId, kind, amountDeci }, 'debit arrived after the order was given up; refunding');
    } else {
      const change = paymentChange(decision.to, kind, now);
      order!.payment = change.payment;
      const { serviceId, link, amount, runs, interval, serviceType, details, subscription } = order!;
      // A typed product's fields go along for the provider (fulfillment forwards them); a subscription's terms too.
      const typed = subscription
        ? { serviceType: 'subscriptions' as const, subscription: { username: subscription.username, min: subscription.min, max: subscription.max, posts: subscription.posts, delay: subscription.delay, expiry: subscription.expiry } }
        : serviceType && serviceType !== 'default'
          ? { serviceType, ...(details ? { details } : {}) }
          : {};
      const answer =
        event.type === 'PointDebited'
          ? orderAccepted({ orderId, kind, userId, runs: runs ?? 0, interval: interval ?? 0, serviceId, link, amount, ...typed }, causedBy(event))
          : orderRejected({ orderId, kind, userId, reason: event.data.reason }, causedBy(event));
      settlements.push({ kind, id: orderId, guard: settleableBy({ userId, amountDeci }), set: change, event: answer });
    }
  }
  return { settlements, refunds };
}

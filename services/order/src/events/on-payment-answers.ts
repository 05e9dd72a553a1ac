import type { Model } from 'mongoose';
import { AutoOrderStatus, type EventOf, OrderStatus, type PointDebitRejected, type PointDebited, causedBy } from '@smm/contracts';
import { type Logger, inTransaction } from '@smm/platform';
import { type PaymentOutcome, type PaymentState, settleableBy, settlePayment } from '../domain/payment.ts';
import { type OrderDeps, withOutbox } from '../use-cases/context.ts';
import { onPaymentAnswer, paymentsConsumer } from './on-payment-answer.ts';
import { orderAccepted, orderRejected } from './order-events.ts';

type Answer = EventOf<typeof PointDebited> | EventOf<typeof PointDebitRejected>;
type Facts = { _id: number; payment: PaymentState; userId: string; chargeDeci: number; runs?: number; interval?: number };
type Mark = { _id: string; consumer: string; eventId: string; type: string; processedAt: Date };

/**
 * Several wallet answers of one fetched batch in ONE transaction: the same effect and the same
 * processed-event marks (`processed_events`, `<consumer>:<eventId>`, as handleOnce writes them) as
 * handling each with onPaymentAnswer, for a handful of database commands instead of five per answer.
 * Answers are applied in topic order, so a duplicate within the batch finds its order settled. Any
 * failure (a conflicting concurrent delivery, say) falls back to one transaction per answer.
 */
export async function onPaymentAnswers(deps: OrderDeps, events: Answer[], log: Logger): Promise<void> {
  if (events.length === 1) return onPaymentAnswer(deps, events[0]!, log);
  let settled: Array<{ orderId: number; outcome: PaymentOutcome }> = [];
  let emitted = 0;
  try {
    await inTransaction(deps.store.connection, async (session) => {
      settled = [];
      const marks = deps.store.connection.collection<Mark>('processed_events');
      const ids = events.map((e) => `${paymentsConsumer}:${e.eventId}`);
      const seen = new Set((await marks.find({ _id: { $in: ids } }, { session, projection: { _id: 1 } }).toArray()).map((m) => m._id));
      const fresh: Answer[] = [];
      for (const event of events) {
        const id = `${paymentsConsumer}:${event.eventId}`;
        if (seen.has(id)) continue;
        seen.add(id);
        fresh.push(event);
      }
      if (fresh.length === 0) return;
      const now = new Date();
      await marks.insertMany(
        fresh.map((e) => ({ _id: `${paymentsConsumer}:${e.eventId}`, consumer: paymentsConsumer, eventId: e.eventId, type: e.type, processedAt: now })),
        { session },
      );
      const r = await withOutbox(deps, session, async (s, emit) => {
        const load = async (model: Model<Facts>, kind: 'order' | 'auto') => {
          const wanted = fresh.filter((e) => e.data.kind === kind).map((e) => e.data.orderId);
          if (wanted.length === 0) return [];
          return model.find({ _id: { $in: wanted } }, { payment: 1, userId: 1, chargeDeci: 1, runs: 1, interval: 1 }).session(s).lean<Facts[]>();
        };
        const models = { order: deps.store.orders as unknown as Model<Facts>, auto: deps.store.autoOrders as unknown as Model<Facts> };
        const state = new Map<string, Facts>();
        for (const kind of ['order', 'auto'] as const) for (const doc of await load(models[kind], kind)) state.set(`${kind}:${doc._id}`, doc);
        const writes = { order: [] as Array<Parameters<Model<Facts>['bulkWrite']>[0][number]>, auto: [] as Array<Parameters<Model<Facts>['bulkWrite']>[0][number]> };
        for (const event of fresh) {
          const { orderId, kind, userId, amountDeci } = event.data;
          const outcome: PaymentOutcome = event.type === 'PointDebited' ? 'paid' : 'rejected';
          const current = state.get(`${kind}:${orderId}`);
          const transition = current ? settlePayment(current, { outcome, userId, amountDeci }) : { ok: false as const, reason: 'unknown order' };
          if (!transition.ok) {
            log.info({ orderId, kind, eventId: event.eventId, reason: transition.reason }, 'payment answer changes nothing');
            continue;
          }
          const set = outcome === 'paid' ? { payment: 'paid', status: kind === 'auto' ? AutoOrderStatus.values.ACTIVE : OrderStatus.values.PENDING, paidAt: now } : { payment: 'rejected' };
          writes[kind].push({ updateOne: { filter: { _id: orderId, ...settleableBy({ userId, amountDeci }) }, update: { $set: set } } });
          current!.payment = outcome;
          settled.push({ orderId, outcome });
          if (event.type === 'PointDebited') emit(orderAccepted({ orderId, kind, userId, runs: current!.runs ?? 0, interval: current!.interval ?? 0 }, causedBy(event)));
          else emit(orderRejected({ orderId, kind, userId, reason: event.data.reason }, causedBy(event)));
        }
        for (const kind of ['order', 'auto'] as const) {
          if (writes[kind].length === 0) continue;
          const result = await models[kind].bulkWrite(writes[kind], { session: s, ordered: true });
          if (result.modifiedCount !== writes[kind].length) throw new Error('an order changed under the batch transaction');
        }
      });
      emitted = r.emitted;
    });
  } catch (error) {
    log.warn({ err: (error as Error).message, answers: events.length }, 'batched payment answers failed; applying one by one');
    for (const event of events) await onPaymentAnswer(deps, event, log);
    return;
  }
  if (emitted > 0) deps.relay.kick();
  for (const { orderId, outcome } of settled) deps.waiter.notify(orderId, outcome);
  if (settled.length > 0) log.info({ settled: settled.length, answers: events.length }, 'payment answers applied');
}

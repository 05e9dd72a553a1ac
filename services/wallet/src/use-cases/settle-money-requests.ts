import {
  type EventEnvelope,
  type EventOf,
  type OrderPlaced,
  PointCredited,
  PointDebitRejected,
  PointDebited,
  type RefundRequested,
  Topics,
  causedBy,
} from '@smm/contracts';
import { inTransaction } from '@smm/platform';
import { type AccountState, type Decision, type MoneyRequest, decideRequests, referenceOf } from '../domain/payments.ts';
import { appendManyToOutbox } from '../store/outbox.ts';
import type { WalletDeps } from './context.ts';

export type MoneyEvent = EventOf<typeof OrderPlaced> | EventOf<typeof RefundRequested>;

export function requestOf(event: MoneyEvent): MoneyRequest {
  if (event.type === 'OrderPlaced') {
    const { userId, kind, orderId, chargeDeci } = event.data;
    return { type: 'pay', userId, kind, orderId, amountDeci: chargeDeci };
  }
  const { userId, refundId, amountDeci } = event.data;
  return { type: 'refund', userId, refundId, amountDeci };
}

/** The wallet event that announces a decision (none for duplicates and refused refunds). */
function announce(decision: Decision, cause: EventEnvelope, now: Date): EventEnvelope | null {
  const origin = causedBy(cause);
  const aggregate = `account-${decision.request.userId}`;
  switch (decision.type) {
    case 'debited': {
      const { userId, kind, orderId, amountDeci } = decision.request;
      return PointDebited.create(aggregate, { userId, kind, orderId, amountDeci, balanceAfterDeci: decision.entry.balanceAfterDeci }, origin, now);
    }
    case 'rejected': {
      const { userId, kind, orderId, amountDeci } = decision.request;
      return PointDebitRejected.create(aggregate, { userId, kind, orderId, amountDeci, balanceDeci: decision.balanceDeci, reason: decision.reason }, origin, now);
    }
    case 'credited': {
      const { userId, refundId, amountDeci } = decision.request;
      return PointCredited.create(aggregate, { userId, source: 'refund', referenceId: refundId, amountDeci, balanceAfterDeci: decision.entry.balanceAfterDeci }, origin, now);
    }
    default:
      return null;
  }
}

/**
 * Steps 2 of the order saga and its compensation, for a run of events from the order topic in one
 * transaction: payments are debited (or refused) and refunds credited, each exactly once per
 * reference (`order-12`, `auto-40`, the refund id) — the ledger's primary key and the refusal
 * records are the idempotency keys, so a redelivered event, a copy under a new event id and a
 * replay of the whole topic all find their reference decided and emit nothing. The account
 * updates, ledger entries, refusal records and outbox events commit together; the writes per run
 * are one per touched account plus one insert each for entries, refusals and events, whatever
 * the run's length. Decisions come back in the events' order.
 */
export async function settleMoneyRequests(deps: WalletDeps, events: readonly MoneyEvent[]): Promise<Decision[]> {
  if (events.length === 0) return [];
  const { store } = deps;
  const requests = events.map(requestOf);
  const references = [...new Set(requests.map(referenceOf))];
  const paymentReferences = [...new Set(requests.filter((r) => r.type === 'pay').map(referenceOf))];
  const userIds = [...new Set(requests.map((r) => r.userId))];
  let announced = 0;
  const decisions = await inTransaction(store.connection, async (session) => {
    const now = new Date();
    const decided = new Set<string>();
    for (const doc of await store.ledger.model.collection.find({ _id: { $in: references } } as never, { session, projection: { _id: 1 } }).toArray()) {
      decided.add(String(doc._id));
    }
    if (paymentReferences.length > 0) {
      for (const doc of await store.rejections.model.collection.find({ _id: { $in: paymentReferences } } as never, { session, projection: { _id: 1 } }).toArray()) {
        decided.add(String(doc._id));
      }
    }
    const accounts = new Map<string, AccountState>();
    const docs = await store.accounts.model.collection.find({ _id: { $in: userIds } } as never, { session, projection: { balanceDeci: 1, seq: 1 } }).toArray();
    for (const doc of docs) {
      const userId = String(doc._id);
      accounts.set(userId, { userId, balanceDeci: Number(doc.balanceDeci), seq: Number(doc.seq ?? 0) });
    }

    const outcome = decideRequests(requests, accounts, decided, now);
    const changed = [...outcome.changed];
    if (changed.length > 0) {
      // Guarded by the balance read above: a concurrent change makes the transaction conflict and retry.
      const result = await store.accounts.model.collection.bulkWrite(
        changed.map((userId) => {
          const after = outcome.accounts.get(userId)!;
          return { updateOne: { filter: { _id: userId, balanceDeci: accounts.get(userId)!.balanceDeci } as never, update: { $set: { balanceDeci: after.balanceDeci, seq: after.seq } } } };
        }),
        { session, ordered: true },
      );
      if (result.matchedCount !== changed.length) throw new Error('a point account changed while its payments were decided');
    }
    const entries = outcome.decisions.flatMap((d) => (d.type === 'debited' || d.type === 'credited' ? [d.entry] : []));
    if (entries.length > 0) {
      await store.ledger.model.collection.insertMany(
        entries.map(({ referenceId, ...rest }) => ({ _id: referenceId, ...rest }) as never),
        { session, ordered: true },
      );
    }
    const refusals = outcome.decisions.flatMap((d) => (d.type === 'rejected' ? [{ _id: referenceOf(d.request), userId: d.request.userId, amountDeci: d.request.amountDeci, reason: d.reason, rejectedAt: now }] : []));
    if (refusals.length > 0) await store.rejections.model.collection.insertMany(refusals as never[], { session, ordered: true });
    const outgoing = outcome.decisions.flatMap((d, i) => announce(d, events[i]!, now) ?? []);
    await appendManyToOutbox(store.connection, session, Topics.wallet, outgoing);
    announced = outgoing.length;
    return outcome.decisions;
  });
  if (announced > 0) deps.relay.kick();
  return decisions;
}

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
import { appendToOutbox, inTransaction, together } from '@smm/platform';
import { type Decision, type MoneyRequest, decideRequests, referenceOf } from '../domain/payments.ts';
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
  const decisions = await inTransaction(store.connection, async (session) => {
    const now = new Date();
    // Round trips: the first read starts the transaction alone; the other reads go together, then
    // all the writes together (they touch different collections), then the commit.
    const accounts = new Map((await store.accounts.findMany(userIds, session)).map((a) => [a.userId, a]));
    const [entered, refused] = await together([store.ledger.existing(references, session), store.rejections.existing(paymentReferences, session)]);
    const decided = new Set([...entered, ...refused]);

    const outcome = decideRequests(requests, accounts, decided, now);
    const outgoing = outcome.decisions.flatMap((d, i) => announce(d, events[i]!, now) ?? []);
    await together([
      store.accounts.applyBalances([...outcome.changed].map((userId) => ({ before: accounts.get(userId)!, after: outcome.accounts.get(userId)! })), session),
      store.ledger.appendMany(outcome.decisions.flatMap((d) => (d.type === 'debited' || d.type === 'credited' ? [d.entry] : [])), session),
      store.rejections.recordMany(
        outcome.decisions.flatMap((d) => (d.type === 'rejected' ? [{ _id: referenceOf(d.request), userId: d.request.userId, amountDeci: d.request.amountDeci, reason: d.reason, rejectedAt: now }] : [])),
        session,
      ),
      appendToOutbox(store.connection, session, Topics.wallet, outgoing),
    ]);
    return outcome.decisions;
  });
  return decisions;
}

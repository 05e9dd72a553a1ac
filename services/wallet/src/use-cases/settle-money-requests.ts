import {
  type AutoOrderRunPlaced,
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
import { type AccountState, type Decision, type MoneyRequest, decideRequests, referenceOf } from '../domain/payments.ts';
import { type AutoRun, type RefundProof, candidatePayments, noProof, refundTarget } from '../domain/refund-proof.ts';
import { AccountChanged } from '../store/point-account.model.ts';
import type { WalletDeps } from './context.ts';

type RequestEvent = EventOf<typeof OrderPlaced> | EventOf<typeof RefundRequested>;
/** The order topic's events the payments consumer decides (runs of auto orders only inform refund proof). */
export type MoneyEvent = RequestEvent | EventOf<typeof AutoOrderRunPlaced>;

export function requestOf(event: RequestEvent): MoneyRequest {
  if (event.type === 'OrderPlaced') {
    const { userId, kind, orderId, chargeDeci } = event.data;
    return { type: 'pay', userId, kind, orderId, amountDeci: chargeDeci };
  }
  const { userId, refundId, amountDeci, orderId } = event.data;
  return { type: 'refund', userId, refundId, amountDeci, orderId };
}

const runOf = ({ data }: EventOf<typeof AutoOrderRunPlaced>): AutoRun => ({ childOrderId: data.childOrderId, autoOrderId: data.autoOrderId, userId: data.userId, run: data.run, runs: data.runs });

/**
 * Refund proof for a run's refunds, read in its transaction: the child orders they may name (stored
 * runs, and the run's own), then the ledger's debits and earlier refunds of every payment they may
 * come out of. The account writes of the transaction make two runs that credit one payment conflict.
 */
async function readProof(deps: WalletDeps, requests: readonly MoneyRequest[], runs: readonly AutoRun[], session: Parameters<WalletDeps['store']['ledger']['existing']>[1]): Promise<RefundProof> {
  const refundIds = requests.flatMap((r) => (r.type === 'refund' ? [r.refundId] : []));
  if (refundIds.length === 0) return noProof;
  const children = refundIds.flatMap((id) => {
    const target = refundTarget(id);
    return target?.kind === 'order' ? [target.id] : [];
  });
  const known = await deps.store.autoRuns.find(children, session);
  for (const run of runs) if (!known.has(run.childOrderId)) known.set(run.childOrderId, run);
  const candidates = [...new Set(refundIds.flatMap((id) => candidatePayments(id, known)))];
  return { books: await deps.store.ledger.paymentBooks(candidates, session), runs: known };
}

/** The wallet event that announces a decision (none for duplicates and refused refunds). */
function announce(decision: Decision, cause: EventEnvelope, now: Date): EventEnvelope | null {
  if (decision.request === null) return null;
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

/** A speculative run found a reference decided before: it is settled again the careful way. */
class DecidedBefore extends Error {}

const duplicateKey = (error: unknown) => (error as { code?: unknown }).code === 11000;

/**
 * `together`, except that when speculating a duplicate key among the failures means a reference
 * was decided before (the other statements then fail only because it aborted the transaction).
 */
async function togetherOrDecided<T extends readonly unknown[] | []>(mode: 'speculative' | 'checked', statements: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  if (mode === 'checked') return together(statements);
  const settled = await Promise.allSettled(statements as readonly unknown[]);
  if (settled.some((r) => r.status === 'rejected' && duplicateKey(r.reason))) throw new DecidedBefore();
  return together(settled.map((r) => (r.status === 'fulfilled' ? r.value : Promise.reject(r.reason))) as T);
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
 *
 * First speculatively, as if no reference was decided before (the rule: redeliveries are rare):
 * the checks for earlier decisions travel with the writes, in one round trip after the accounts'
 * read — a reference entered before fails its ledger or refusal insert (duplicate key), one
 * decided the other way shows in the read of the other collection. Either way the transaction is
 * abandoned and the run settled again with the checks read first.
 *
 * The accounts' read is skipped when this process remembers the state its last committed run left
 * every account of the run in, and the run only debits and credits: the guarded balance write goes
 * first instead (it starts the transaction) and fails if another writer moved an account meanwhile;
 * the run is then settled again from a read. A refusal is never decided from memory (the member may
 * have topped up since): such a run reads the accounts.
 *
 * Refund proof (domain/refund-proof.ts): a run with refunds always reads the accounts, then the
 * proof — the stored runs of the child orders its refunds may name, and the ledger's debits and
 * credited refunds of every payment they may come out of — before deciding. The run's own debits
 * and credits count in order (a debit and its refund in one run, two refunds of one payment in one
 * run). A refund the ledger already holds is a duplicate; one it does not prove credits nothing, is
 * recorded in refund_refusals (not final: decided again if it arrives again) and dead-lettered by
 * the consumer. Every credited refund's entry names its payment (`paymentReference`). Two
 * transactions crediting one payment both write its member's account, so they cannot both commit
 * on a proof read before the other's credit.
 */
export async function settleMoneyRequests(deps: WalletDeps, events: readonly MoneyEvent[]): Promise<Decision[]> {
  if (events.length === 0) return [];
  try {
    return await settle(deps, events, 'speculative', true);
  } catch (error) {
    if (error instanceof AccountChanged) {
      try {
        return await settle(deps, events, 'speculative', false);
      } catch (again) {
        if (!(again instanceof DecidedBefore)) throw again;
      }
    } else if (!(error instanceof DecidedBefore)) throw error;
    return settle(deps, events, 'checked', false);
  }
}

async function settle(deps: WalletDeps, allEvents: readonly MoneyEvent[], mode: 'speculative' | 'checked', fromMemory: boolean): Promise<Decision[]> {
  const { store } = deps;
  const events = allEvents.filter((e): e is RequestEvent => e.type !== 'AutoOrderRunPlaced');
  const runs = allEvents.flatMap((e) => (e.type === 'AutoOrderRunPlaced' ? [runOf(e)] : []));
  const requests = events.map(requestOf);
  // Refunds are decided from the ledger's proof, never from memory.
  if (requests.some((r) => r.type === 'refund')) fromMemory = false;
  const references = [...new Set(requests.map(referenceOf))];
  const paymentReferences = [...new Set(requests.filter((r) => r.type === 'pay').map(referenceOf))];
  const userIds = [...new Set(requests.map((r) => r.userId))];
  try {
    const outcome = await inTransaction(store.connection, async (session) => {
      const now = new Date();
      const remembered = fromMemory ? store.accounts.remembered(userIds) : undefined;
      let accounts = new Map(remembered?.map((a) => [a.userId, a]));
      let outcome = remembered && decideRequests(requests, accounts, new Set(), now);
      const balancesWritten = outcome?.decisions.every((d) => d.type === 'debited' || d.type === 'credited') === true;
      if (outcome && balancesWritten) {
        // The guarded write starts the transaction alone; it is the check of the remembered state.
        await store.accounts.applyBalances(balanceChanges(outcome, accounts), session);
      } else {
        // The first read starts the transaction alone; the rest goes together, then the commit.
        accounts = new Map((await store.accounts.findMany(userIds, session)).map((a) => [a.userId, a]));
        let decided = new Set<string>();
        const [entered, refused, proof] = await together([
          mode === 'checked' ? store.ledger.existing(references, session) : [],
          mode === 'checked' ? store.rejections.existing(paymentReferences, session) : [],
          readProof(deps, requests, runs, session),
        ]);
        decided = new Set([...entered, ...refused]);
        outcome = decideRequests(requests, accounts, decided, now, proof);
      }
      const outgoing = outcome.decisions.flatMap((d, i) => announce(d, events[i]!, now) ?? []);
      const rejected = outcome.decisions.filter((d): d is Extract<Decision, { type: 'rejected' }> => d.type === 'rejected');
      const refusedRefunds = outcome.decisions.filter((d): d is Extract<Decision, { type: 'refused' }> => d.type === 'refused');
      const creditedRefunds = outcome.decisions.flatMap((d) => (d.type === 'credited' ? [d.request.refundId] : []));
      const [enteredBefore, refusedBefore] = await togetherOrDecided(mode, [
        // Speculative only: a refusal now for a reference debited (or credited) before, a debit for one refused before.
        mode === 'speculative' ? store.ledger.existing([...rejected.map((d) => referenceOf(d.request)), ...refusedRefunds.map((d) => d.request.refundId)], session) : [],
        mode === 'speculative' ? store.rejections.existing(outcome.decisions.flatMap((d) => (d.type === 'debited' ? [referenceOf(d.request)] : [])), session) : [],
        balancesWritten ? undefined : store.accounts.applyBalances(balanceChanges(outcome, accounts), session),
        store.accounts.markRefusals(refusedOnly(rejected, outcome, accounts), now, session),
        store.ledger.appendMany(outcome.decisions.flatMap((d) => (d.type === 'debited' || d.type === 'credited' ? [d.entry] : [])), session),
        store.rejections.recordMany(
          rejected.map((d) => ({ _id: referenceOf(d.request), userId: d.request.userId, amountDeci: d.request.amountDeci, reason: d.reason, rejectedAt: now })),
          session,
        ),
        store.refundRefusals.recordMany(
          refusedRefunds.map((d) => {
            const { refundId, userId, amountDeci, orderId } = d.request;
            return { refundId, userId, orderId: orderId ?? null, amountDeci, code: d.code, reason: d.reason, eventId: events[outcome!.decisions.indexOf(d)]!.eventId };
          }),
          now,
          session,
        ),
        store.refundRefusals.markCredited(creditedRefunds, now, session),
        store.autoRuns.recordMany(runs, now, session),
        appendToOutbox(store.connection, session, Topics.wallet, outgoing),
      ]);
      if (enteredBefore.length > 0 || refusedBefore.length > 0) throw new DecidedBefore();
      return outcome;
    });
    store.accounts.remember(outcome.accounts.values());
    // Back in the order of every event of the run, runs of auto orders noted.
    const decided = [...outcome.decisions];
    return allEvents.map((e): Decision => (e.type === 'AutoOrderRunPlaced' ? { type: 'noted', request: null } : decided.shift()!));
  } catch (error) {
    store.accounts.forget(userIds); // whatever memory held may no longer be what is stored
    throw error;
  }
}

/** Accounts whose decisions in the run are refusals only (the others are written with their balance). */
function refusedOnly(rejected: ReadonlyArray<Extract<Decision, { type: 'rejected' }>>, outcome: ReturnType<typeof decideRequests>, accounts: ReadonlyMap<string, AccountState>): AccountState[] {
  const userIds = new Set(rejected.map((d) => d.request.userId).filter((userId) => accounts.has(userId) && !outcome.changed.has(userId)));
  return [...userIds].map((userId) => accounts.get(userId)!);
}

function balanceChanges(outcome: ReturnType<typeof decideRequests>, before: ReadonlyMap<string, AccountState>): Array<{ before: AccountState; after: AccountState }> {
  return [...outcome.changed].map((userId) => ({ before: before.get(userId)!, after: outcome.accounts.get(userId)! }));
}

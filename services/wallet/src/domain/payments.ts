import { type LedgerEntry, ledgerEntry, references } from './ledger.ts';
import { type DebitRefusal, assertAmount, debitRefusal } from './point-account.ts';
import { type PaymentBook, type RefundProof, type RefundRefusalReason, noProof, refundVerdict } from './refund-proof.ts';

/** What the order service asks of the wallet, in topic order. */
export type MoneyRequest =
  | { type: 'pay'; userId: string; kind: 'order' | 'auto'; orderId: number; amountDeci: number }
  | { type: 'refund'; userId: string; refundId: string; amountDeci: number; orderId?: number | undefined };

/** The reference a request's decision is recorded under (unique across the ledger and refusals). */
export const referenceOf = (request: MoneyRequest): string =>
  request.type === 'pay' ? references.payment(request.kind, request.orderId) : request.refundId;

export type AccountState = { userId: string; balanceDeci: number; seq: number };

export type Decision =
  | { type: 'debited'; request: Extract<MoneyRequest, { type: 'pay' }>; entry: LedgerEntry }
  | { type: 'rejected'; request: Extract<MoneyRequest, { type: 'pay' }>; reason: DebitRefusal; balanceDeci: number }
  /** A proven refund; `entry.paymentReference` names the payment it gives back money of. */
  | { type: 'credited'; request: Extract<MoneyRequest, { type: 'refund' }>; entry: LedgerEntry }
  /** A refund the wallet's records do not prove (or for a member without an account): nothing moves; operators look. */
  | { type: 'refused'; request: Extract<MoneyRequest, { type: 'refund' }>; code: RefundRefusalReason; reason: string; paymentReference: string | null }
  /** Already decided earlier (or earlier in the same batch): nothing happens, nothing is emitted. */
  | { type: 'duplicate'; request: MoneyRequest }
  /** Not a money request: a run of an auto order, remembered for the refunds of its child order. */
  | { type: 'noted'; request: null };

/**
 * Decides a run of requests against the accounts as they are, in order, the way one-at-a-time
 * processing would: a payment is debited only if the balance covers all of it (never below zero),
 * otherwise refused; a refund is credited only when `proof` (the ledger's payments and refunds, see
 * refund-proof.ts) with the run's own debits and credits before it proves it, otherwise refused;
 * each reference is decided at most once, ever. Returns the decisions and the accounts as they end
 * up; `accounts` and `proof` are not modified.
 */
export function decideRequests(
  requests: readonly MoneyRequest[],
  accounts: ReadonlyMap<string, AccountState>,
  decided: ReadonlySet<string>,
  now: Date,
  proof: RefundProof = noProof,
): { decisions: Decision[]; accounts: Map<string, AccountState>; changed: Set<string> } {
  const state = new Map([...accounts].map(([id, account]) => [id, { ...account }]));
  const books = new Map<string, PaymentBook>(proof.books);
  const changed = new Set<string>();
  // A refund the ledger already holds for its payment was decided before, whatever `decided` says.
  const seen = new Set([...decided, ...[...proof.books.values()].flatMap((b) => [...b.refundIds])]);
  const decisions: Decision[] = requests.map((request): Decision => {
    assertAmount(request.amountDeci);
    const referenceId = referenceOf(request);
    if (seen.has(referenceId)) return { type: 'duplicate', request };
    seen.add(referenceId);
    const account = state.get(request.userId) ?? null;
    if (request.type === 'pay') {
      const refusal = debitRefusal(account, request.amountDeci);
      if (refusal !== null || account === null) return { type: 'rejected', request, reason: refusal ?? 'NO_ACCOUNT', balanceDeci: account?.balanceDeci ?? 0 };
      account.balanceDeci -= request.amountDeci;
      account.seq += 1;
      changed.add(account.userId);
      books.set(referenceId, { reference: referenceId, userId: account.userId, debitDeci: request.amountDeci, refundedDeci: 0, refundIds: new Set() });
      return { type: 'debited', request, entry: ledgerEntry(account, -request.amountDeci, 'order', referenceId, now) };
    }
    const verdict = refundVerdict(request, { books, runs: proof.runs });
    if (!verdict.ok) return { type: 'refused', request, code: verdict.reason, reason: verdict.detail, paymentReference: null };
    if (account === null) {
      return { type: 'refused', request, code: 'NO_ACCOUNT', reason: `refund ${referenceId} names member ${request.userId} who has no point account`, paymentReference: verdict.payment };
    }
    const book = books.get(verdict.payment)!;
    books.set(verdict.payment, { ...book, refundedDeci: book.refundedDeci + request.amountDeci, refundIds: new Set([...book.refundIds, referenceId]) });
    account.balanceDeci += request.amountDeci;
    account.seq += 1;
    changed.add(account.userId);
    return { type: 'credited', request, entry: { ...ledgerEntry(account, request.amountDeci, 'refund', referenceId, now), paymentReference: verdict.payment } };
  });
  return { decisions, accounts: state, changed };
}

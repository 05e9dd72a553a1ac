import { type LedgerEntry, ledgerEntry, references } from './ledger.ts';
import { type DebitRefusal, assertAmount, debitRefusal } from './point-account.ts';

/** What the order service asks of the wallet, in topic order. */
export type MoneyRequest =
  | { type: 'pay'; userId: string; kind: 'order' | 'auto'; orderId: number; amountDeci: number }
  | { type: 'refund'; userId: string; refundId: string; amountDeci: number };

/** The reference a request's decision is recorded under (unique across the ledger and refusals). */
export const referenceOf = (request: MoneyRequest): string =>
  request.type === 'pay' ? references.payment(request.kind, request.orderId) : request.refundId;

export type AccountState = { userId: string; balanceDeci: number; seq: number };

export type Decision =
  | { type: 'debited'; request: Extract<MoneyRequest, { type: 'pay' }>; entry: LedgerEntry }
  | { type: 'rejected'; request: Extract<MoneyRequest, { type: 'pay' }>; reason: DebitRefusal; balanceDeci: number }
  | { type: 'credited'; request: Extract<MoneyRequest, { type: 'refund' }>; entry: LedgerEntry }
  /** A refund for a member without an account: nothing to give it back to; an operator must look. */
  | { type: 'refused'; request: Extract<MoneyRequest, { type: 'refund' }>; reason: string }
  /** Already decided earlier (or earlier in the same batch): nothing happens, nothing is emitted. */
  | { type: 'duplicate'; request: MoneyRequest };

/**
 * Decides a run of requests against the accounts as they are, in order, the way one-at-a-time
 * processing would: a payment is debited only if the balance covers all of it (never below zero),
 * otherwise refused; a refund is credited; each reference is decided at most once, ever. Returns
 * the decisions and the accounts as they end up; `accounts` is not modified.
 */
export function decideRequests(
  requests: readonly MoneyRequest[],
  accounts: ReadonlyMap<string, AccountState>,
  decided: ReadonlySet<string>,
  now: Date,
): { decisions: Decision[]; accounts: Map<string, AccountState>; changed: Set<string> } {
  const state = new Map([...accounts].map(([id, account]) => [id, { ...account }]));
  const changed = new Set<string>();
  const seen = new Set(decided);
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
      return { type: 'debited', request, entry: ledgerEntry(account, -request.amountDeci, 'order', referenceId, now) };
    }
    if (account === null) return { type: 'refused', request, reason: `refund ${referenceId} names member ${request.userId} who has no point account` };
    account.balanceDeci += request.amountDeci;
    account.seq += 1;
    changed.add(account.userId);
    return { type: 'credited', request, entry: ledgerEntry(account, request.amountDeci, 'refund', referenceId, now) };
  });
  return { decisions, accounts: state, changed };
}

/**
 * One money movement of an account. `seq` runs 1..n per account without gaps, `balanceAfterDeci`
 * is the balance right after this entry, and `referenceId` names what caused it (unique across the
 * ledger, so the same order, top-up or refund can never move money twice).
 */
export type LedgerEntry = {
  userId: string;
  seq: number;
  deltaDeci: number;
  balanceAfterDeci: number;
  kind: 'debit' | 'credit';
  source: LedgerSource;
  referenceId: string;
  createdAt: Date;
  /** Refunds: the payment (`order-12`, `auto-40`) they give money back of (refund proof; absent on entries before it). */
  paymentReference?: string;
};

/**
 * `adjustment`: an admin's correction with a reason (issue 12). `referral` / `referral-reversal`: a
 * referrer's share of a referred member's payment and its return (domain/referral.ts).
 */
export type LedgerSource = 'order' | 'topup' | 'refund' | 'adjustment' | 'referral' | 'referral-reversal';

/** Reference ids of the movements the wallet makes itself. */
export const references = {
  /** A debit: `order-12` for a one-off order, `auto-40` for an auto order (paid in full up front). */
  payment: (kind: 'order' | 'auto', orderId: number) => `${kind}-${orderId}`,
  topUp: (topUpId: number) => `topup-${topUpId}`,
  adjustment: (adjustmentId: string) => `adjustment-${adjustmentId}`,
};

/** The entry that follows an account's movement, given the account as it is after the movement. */
export function ledgerEntry(
  after: { userId: string; seq: number; balanceDeci: number },
  deltaDeci: number,
  source: LedgerSource,
  referenceId: string,
  createdAt: Date,
): LedgerEntry {
  return {
    userId: after.userId,
    seq: after.seq,
    deltaDeci,
    balanceAfterDeci: after.balanceDeci,
    kind: deltaDeci < 0 ? 'debit' : 'credit',
    source,
    referenceId,
    createdAt,
  };
}

export type LedgerViolation = { userId: string; rule: string; detail: string };

/**
 * Checks one account against its entries (any order): seq contiguous 1..n, each balanceAfter equal
 * to the previous one plus the delta (starting from 0), signs matching kinds, no balance below 0,
 * and the account's balance and seq equal to the last entry's.
 */
export function checkAccountLedger(
  account: { userId: string; balanceDeci: number; seq?: number | undefined },
  entries: ReadonlyArray<Pick<LedgerEntry, 'seq' | 'deltaDeci' | 'balanceAfterDeci' | 'kind' | 'referenceId'>>,
): LedgerViolation[] {
  const violations: LedgerViolation[] = [];
  const add = (rule: string, detail: string) => violations.push({ userId: account.userId, rule, detail });
  const sorted = [...entries].sort((a, b) => a.seq - b.seq);
  let balance = 0;
  let sum = 0;
  sorted.forEach((entry, index) => {
    if (entry.seq !== index + 1) add('seq-contiguous', `entry ${entry.referenceId} has seq ${entry.seq}, expected ${index + 1}`);
    if (!Number.isSafeInteger(entry.deltaDeci) || entry.deltaDeci === 0) add('delta-integer', `entry ${entry.referenceId} moves ${entry.deltaDeci}`);
    if ((entry.kind === 'debit') !== entry.deltaDeci < 0) add('kind-sign', `entry ${entry.referenceId} is a ${entry.kind} of ${entry.deltaDeci}`);
    balance += entry.deltaDeci;
    sum += entry.deltaDeci;
    if (entry.balanceAfterDeci !== balance) add('balance-chain', `entry ${entry.referenceId} (seq ${entry.seq}) says ${entry.balanceAfterDeci}, chain gives ${balance}`);
    if (entry.balanceAfterDeci < 0 || balance < 0) add('never-negative', `entry ${entry.referenceId} (seq ${entry.seq}) leaves ${balance}`);
    balance = entry.balanceAfterDeci; // report each break once, not every entry after it
  });
  if (sum !== account.balanceDeci) add('sum-equals-balance', `entries sum to ${sum}, balance is ${account.balanceDeci}`);
  if (account.balanceDeci < 0) add('never-negative', `balance is ${account.balanceDeci}`);
  const lastSeq = sorted.length === 0 ? 0 : sorted[sorted.length - 1]!.seq;
  if ((account.seq ?? 0) !== lastSeq) add('account-seq', `account seq is ${account.seq ?? 0}, last entry is ${lastSeq}`);
  return violations;
}

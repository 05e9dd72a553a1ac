/**
 * A member's prepaid point balance, in deci-won (0.1 won). It opens at zero; money moves only
 * through ledger entries (debits for orders, credits for top-ups and refunds), never below 0.
 * `seq` is the number of the account's last ledger entry (0 when it has none).
 */
export type PointAccount = {
  userId: string;
  balanceDeci: number;
  seq: number;
  openedAt: Date;
};

export function openAccount(userId: string, now: Date): PointAccount {
  if (userId.trim() === '') throw new Error('an account needs a user id');
  return { userId, balanceDeci: 0, seq: 0, openedAt: now };
}

export type DebitRefusal = 'INSUFFICIENT_POINTS' | 'NO_ACCOUNT';

/** Why a debit cannot happen, or null when it can: the balance must cover the whole amount. */
export function debitRefusal(account: Pick<PointAccount, 'balanceDeci'> | null, amountDeci: number): DebitRefusal | null {
  assertAmount(amountDeci);
  if (account === null) return 'NO_ACCOUNT';
  return account.balanceDeci >= amountDeci ? null : 'INSUFFICIENT_POINTS';
}

/** Amounts are positive whole deci-won: a zero or fractional movement is a caller's bug. */
export function assertAmount(amountDeci: number): void {
  if (!Number.isSafeInteger(amountDeci) || amountDeci <= 0) throw new RangeError(`amount must be a positive integer of deci-won, got ${amountDeci}`);
}

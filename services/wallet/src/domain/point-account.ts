/**
 * A member's prepaid point balance, in deci-won (0.1 won). It opens at zero; money moves only
 * through ledger entries (next: debits for orders, credits for top-ups and refunds), never below 0.
 */
export type PointAccount = {
  userId: string;
  balanceDeci: number;
  openedAt: Date;
};

export function openAccount(userId: string, now: Date): PointAccount {
  if (userId.trim() === '') throw new Error('an account needs a user id');
  return { userId, balanceDeci: 0, openedAt: now };
}

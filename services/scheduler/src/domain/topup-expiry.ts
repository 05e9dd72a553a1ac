/**
 * A pending top-up request's expiry: TopUpExpiryDue fires once at `dueAt` unless the wallet closed
 * the request first.
 */
export type TopUpExpiryState =
  /** Not due yet (or due and not yet fired). */
  | 'waiting'
  /** TopUpExpiryDue was recorded; the wallet decides (it expires the request only if still pending). */
  | 'fired'
  /** The wallet closed the request: nothing fires any more. */
  | 'approved'
  | 'rejected'
  | 'expired';

export type TopUpExpiry = { topUpId: number; userId: string; dueAt: Date | null; state: TopUpExpiryState };

export type TopUpOutcome = 'approved' | 'rejected' | 'expired';

/** The states a wallet outcome may end; an already closed request keeps its first outcome. */
export const closableTopUpStates: readonly TopUpExpiryState[] = ['waiting', 'fired'];

export function isExpiryDue(expiry: TopUpExpiry, now: Date): boolean {
  return expiry.state === 'waiting' && expiry.dueAt !== null && expiry.dueAt.getTime() <= now.getTime();
}

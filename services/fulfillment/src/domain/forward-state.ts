/**
 * A forward record's life. The claim and the `sent` mark are written (committed) before the
 * provider is called, so after a crash the record itself says whether a call may have happened:
 *
 *   queued ──claim──▶ claimed ──mark──▶ sent ──answer──▶ accepted ──final status──▶ closed
 *     ▲                  │                │  ├─ refused (link, quantity) ──▶ failed (order canceled)
 *     └── stale claim ───┘                │  ├─ not enough funds, or provably not received ──▶ queued (later)
 *         (never sent)                    │  └─ no clear answer ──▶ unknown ──▶ review
 *                                         └── stale send (crashed mid-call) ──▶ unknown ──▶ review
 *   unknown, at a provider that honours Idempotency-Key: queued again with the same reference
 *   (at most maxUnknownResends times, then review) — the provider answers the order it already took.
 *   manual: products without a provider; operators move the order by hand.
 *   review: operators decide (link the provider's order id, send again, or cancel with refund).
 */
export const forwardStates = ['queued', 'claimed', 'sent', 'accepted', 'failed', 'unknown', 'review', 'manual', 'closed'] as const;
export type ForwardState = (typeof forwardStates)[number];

const transitions: Record<ForwardState, readonly ForwardState[]> = {
  queued: ['claimed'],
  claimed: ['sent', 'queued'],
  sent: ['accepted', 'failed', 'queued', 'unknown'],
  unknown: ['review', 'queued'],
  review: ['queued', 'accepted', 'failed'],
  accepted: ['closed'],
  failed: [],
  manual: [],
  closed: [],
};

export function canMove(from: ForwardState, to: ForwardState): boolean {
  return transitions[from].includes(to);
}

/** Retry pause after the n-th (1-based) retryable failure: 5 s doubling, at most 10 minutes. */
export function backoffMs(attempt: number, baseMs = 5000, maxMs = 600_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** Re-sends with the same reference after unknown outcomes before an operator is asked. */
export const maxUnknownResends = 5;

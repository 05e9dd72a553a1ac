/**
 * What one `add` call told us, as the provider client reports it: an order id, the provider's
 * own error text, or a transport fault and whether the request provably never reached it.
 */
export type AddAnswer =
  | { kind: 'order'; providerOrderId: string }
  | { kind: 'error'; message: string; text?: string }
  /** An answer naming an order id that is not one (not a positive integer): never taken as a success. */
  | { kind: 'invalid'; detail: string; text: string }
  | { kind: 'fault'; reached: boolean; detail: string; text?: string };

export type AddOutcome =
  | { kind: 'accepted'; providerOrderId: string }
  /** The provider is out of money: try again later and tell operators. */
  | { kind: 'retry-funds'; detail: string }
  /** The request never left us (connection refused, no such host): sending again is safe. */
  | { kind: 'retry-unreached'; detail: string }
  /** The provider refused this order's link or quantity: cancel it with a full refund. */
  | { kind: 'refused'; detail: string }
  /** A definite error answer we cannot act on by ourselves (disabled service, bad key, …). */
  | { kind: 'provider-error'; detail: string }
  /** No clear answer after the request may have arrived: never resend blindly. */
  | { kind: 'unknown'; detail: string }
  /** An answer that claims success with an impossible order id: the operator looks (review), never re-sent by itself. */
  | { kind: 'invalid-answer'; detail: string };

/** A provider that honours Idempotency-Key answers this while the first request with it still runs. */
const inProgressPattern = /in progress/i;
const fundsPattern = /not enough funds|insufficient (funds|balance)|low balance|balance is (too )?low/i;
// A typed order's own fields (issue 40: comments, a subscription's posts, delay, expiry) are the order's, like its link.
const refusalPattern = /link|url|username|quantity|min(imum)?\b|max(imum)?\b|amount|private|not (found|exist)|comments?\b|posts?\b|delay|expiry/i;

/** Classifies an `add` answer. Error texts differ between panels; these are the common wordings. */
export function classifyAdd(answer: AddAnswer): AddOutcome {
  if (answer.kind === 'order') return { kind: 'accepted', providerOrderId: answer.providerOrderId };
  if (answer.kind === 'invalid') return { kind: 'invalid-answer', detail: answer.detail };
  if (answer.kind === 'fault') return answer.reached ? { kind: 'unknown', detail: answer.detail } : { kind: 'retry-unreached', detail: answer.detail };
  if (inProgressPattern.test(answer.message)) return { kind: 'unknown', detail: answer.message };
  if (fundsPattern.test(answer.message)) return { kind: 'retry-funds', detail: answer.message };
  if (refusalPattern.test(answer.message)) return { kind: 'refused', detail: answer.message };
  return { kind: 'provider-error', detail: answer.message };
}

/** The provider's answer text worth keeping on the record (anything but a clean order id). */
export const keptAnswer = (answer: AddAnswer): string | null => (answer.kind === 'order' ? null : (answer.text ?? null));

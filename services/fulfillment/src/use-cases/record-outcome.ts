import { randomUUID } from 'node:crypto';
import { OrderStatus, Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { type AddOutcome } from '../domain/add-outcome.ts';
import { backoffMs, maxUnknownResends } from '../domain/forward-state.ts';
import { messages } from '../domain/messages.ts';
import { orderForwardFailed, orderForwarded } from '../events/fulfillment-events.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import type { FulfillmentDeps } from './context.ts';

/** A change for the order service, with an id so clearing it never clears a newer one. */
export const orderPatch = (p: { status: number; startCount: number | null; remains: number; reason: string | null }) => ({ id: randomUUID(), ...p });

/**
 * An unknown outcome at a provider that honours Idempotency-Key is reconciled by sending the same
 * reference again (the provider answers the order it took, or takes it now); elsewhere, or after
 * `maxUnknownResends`, it waits for an operator.
 */
export function unknownOutcome(record: Forward, idempotent: boolean, detail: string, retryBaseMs: number, now = new Date()): { set: Partial<Forward>; retryAt: Date | null } {
  const resends = record.unknownResends ?? 0;
  if (!idempotent || resends >= maxUnknownResends || !record.reference) return { set: { state: 'review', note: `unknown: ${detail}` }, retryAt: null };
  const retryAt = new Date(now.getTime() + backoffMs(resends + 1, retryBaseMs));
  return {
    set: { state: 'queued', nextAttemptAt: retryAt, claimedBy: null, claimedAt: null, sentAt: null, unknownResends: resends + 1, note: `unknown: ${detail} (re-sent with the same reference)` },
    retryAt,
  };
}

/**
 * Writes what an `add` call told us, with its event, in one transaction — guarded on the record
 * still being this worker's `sent` claim. `applied` is false when the claim was lost (the recovery
 * moved it to review meanwhile); the answer is then kept on the review note for the operator.
 * `retryAt`: when the forward, queued again, falls due (null unless it was queued again).
 */
export async function recordOutcome(
  deps: FulfillmentDeps,
  record: Forward,
  owner: string,
  outcome: AddOutcome,
  idempotent: boolean,
  now = new Date(),
  /** The provider's answer text, kept on the record when it was not a clean order id. */
  providerAnswer: string | null = null,
): Promise<{ applied: boolean; retryAt: Date | null }> {
  const model = forwards(deps.connection);
  const origin = { correlationId: record.correlationId, causationId: null };
  const attempts = record.attempts + 1;
  const base = { orderId: record._id, userId: record.userId, providerId: record.providerId };
  let set: Partial<Forward>;
  let event;
  switch (outcome.kind) {
    case 'accepted':
      set = { state: 'accepted', providerOrderId: outcome.providerOrderId, note: null, status: OrderStatus.values.PENDING, remains: record.amount ?? 0 };
      event = orderForwarded({ ...base, providerId: record.providerId!, providerServiceId: record.providerServiceId!, providerOrderId: outcome.providerOrderId, attempts }, origin);
      break;
    case 'retry-funds':
    case 'retry-unreached': {
      const retryAt = new Date(now.getTime() + backoffMs(attempts, deps.retryBaseMs));
      // The provider took nothing: the next attempt is a new request, with a new reference (a
      // provider that stored this answer under the old one would replay it).
      set = { state: 'queued', nextAttemptAt: retryAt, claimedBy: null, claimedAt: null, sentAt: null, reference: null, note: outcome.detail };
      event = orderForwardFailed({ ...base, reason: outcome.kind === 'retry-funds' ? 'not-enough-funds' : 'unreachable', detail: outcome.detail, retryAt }, origin);
      break;
    }
    case 'refused':
      set = {
        state: 'failed',
        note: outcome.detail,
        status: OrderStatus.values.CANCELED,
        remains: record.amount ?? 0,
        orderPatch: orderPatch({ status: OrderStatus.values.CANCELED, startCount: null, remains: record.amount ?? 0, reason: messages.refusedReason }),
        patchPending: true,
      };
      event = orderForwardFailed({ ...base, reason: 'refused', detail: outcome.detail, retryAt: null }, origin);
      break;
    case 'provider-error':
      set = { state: 'review', note: `${outcome.kind}: ${outcome.detail}` };
      event = orderForwardFailed({ ...base, reason: 'provider-error', detail: outcome.detail, retryAt: null }, origin);
      break;
    case 'invalid-answer':
      // Not a success (the status sync would follow an order that is not one), not a clean
      // failure either (the provider may hold the order): an operator looks, with the answer.
      set = { state: 'review', note: `invalid answer: ${outcome.detail}` };
      event = orderForwardFailed({ ...base, reason: 'provider-error', detail: outcome.detail, retryAt: null }, origin);
      break;
    case 'unknown': {
      const next = unknownOutcome(record, idempotent, outcome.detail, deps.retryBaseMs, now);
      set = next.set;
      event = orderForwardFailed({ ...base, reason: 'unknown-outcome', detail: outcome.detail, retryAt: next.retryAt }, origin);
      break;
    }
  }
  const applied = await inTransaction(deps.connection, async (session) => {
    const updated = await model.updateOne({ _id: record._id, state: 'sent', claimedBy: owner }, { $set: { ...set, attempts, providerAnswer, updatedAt: now } }, { session });
    if (updated.modifiedCount !== 1) return false;
    await appendToOutbox(deps.connection, session, Topics.fulfillment, [event]);
    return true;
  });
  if (!applied) {
    const late = outcome.kind === 'accepted' ? `late answer: provider order ${outcome.providerOrderId}` : `late answer: ${outcome.kind} ${outcome.detail}`;
    await model.updateOne({ _id: record._id, state: 'review' }, { $set: { note: late, updatedAt: now } });
  }
  return { applied, retryAt: applied && set.state === 'queued' ? (set.nextAttemptAt ?? null) : null };
}

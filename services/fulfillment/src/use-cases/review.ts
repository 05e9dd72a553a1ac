import type { ForwardListBody, ForwardRecordBody } from '@smm/contracts/http';
import { OrderStatus, Topics } from '@smm/contracts';
import { type OperatorAction, appendToOutbox, auditDiff, conflict, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import { orderForwarded } from '../events/fulfillment-events.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import type { FulfillmentDeps } from './context.ts';
import { orderPatch } from './record-outcome.ts';

export function forwardView(f: Forward) {
  return {
    orderId: f._id,
    userId: f.userId,
    productId: f.productId,
    link: f.link,
    amount: f.amount,
    source: f.source,
    state: f.state,
    providerId: f.providerId,
    providerServiceId: f.providerServiceId,
    providerOrderId: f.providerOrderId,
    attempts: f.attempts,
    nextAttemptAt: f.nextAttemptAt.toISOString(),
    note: f.note,
    providerAnswer: f.providerAnswer ?? null,
    reviewFrom: f.reviewFrom ?? null,
    providerStatus: f.providerStatus,
    status: f.status,
    startCount: f.startCount,
    remains: f.remains,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  } satisfies ForwardRecordBody;
}

export async function listForwards(deps: FulfillmentDeps, query: { state?: Forward['state'] | undefined; limit: number }) {
  const filter = query.state === undefined ? {} : { state: query.state };
  const items = await forwards(deps.connection).find(filter).sort({ _id: -1 }).limit(query.limit).lean<Forward[]>();
  return items.map(forwardView) satisfies ForwardListBody;
}

export async function getForward(deps: FulfillmentDeps, orderId: number) {
  const f = await forwards(deps.connection).findById(orderId).lean<Forward>();
  if (!f) throw notFound(messages.forwardNotFound, 'FORWARD_NOT_FOUND');
  return forwardView(f);
}

export type ReviewAction = { action: 'resend' } | { action: 'link'; providerOrderId: string } | { action: 'cancel' } | { action: 'resume' };

/**
 * An operator settles an order in review after looking at the provider's panel: send it (again),
 * link the order the provider already holds, or cancel it with a full refund.
 */
export async function resolveReview(deps: FulfillmentDeps, orderId: number, action: ReviewAction, actorId: string, caller?: OperatorAction['caller']) {
  const model = forwards(deps.connection);
  const result = await inTransaction(deps.connection, async (session) => {
    const f = await model.findById(orderId).session(session).lean<Forward>();
    if (!f) throw notFound(messages.forwardNotFound, 'FORWARD_NOT_FOUND');
    if (f.state !== 'review') throw conflict(messages.notInReview, 'NOT_IN_REVIEW');
    const now = new Date();
    let set: Partial<Forward>;
    if (action.action === 'resend') {
      if (f.providerId === null || f.link === null || f.amount === null) throw conflict(messages.providerServiceNotFound, 'NOT_FORWARDABLE');
      // The provider holds this order (the status sync put it here): sending it again would be a second order.
      if (f.reviewFrom === 'accepted') throw conflict(messages.resendAccepted, 'ALREADY_AT_PROVIDER');
      set = { state: 'queued', nextAttemptAt: now, claimedBy: null, claimedAt: null, sentAt: null, note: `resend by ${actorId}` };
    } else if (action.action === 'resume') {
      if (f.reviewFrom !== 'accepted' || f.providerOrderId === null) throw conflict(messages.resumeNotAccepted, 'NOT_RESUMABLE');
      // Back to the status sync as it was (status and remains were never changed by the answer).
      set = { state: 'accepted', reviewFrom: null, note: `resumed by ${actorId}` };
    } else if (action.action === 'link') {
      if (f.providerId === null || f.providerServiceId === null) throw conflict(messages.providerServiceNotFound, 'NOT_FORWARDABLE');
      // A relink of an order the provider took keeps its progress; a first link starts it at Pending.
      set = f.reviewFrom === 'accepted'
        ? { state: 'accepted', reviewFrom: null, providerOrderId: action.providerOrderId, note: `linked by ${actorId}` }
        : { state: 'accepted', providerOrderId: action.providerOrderId, note: `linked by ${actorId}`, status: OrderStatus.values.PENDING, remains: f.amount ?? 0 };
      const event = orderForwarded({ orderId, userId: f.userId, providerId: f.providerId, providerServiceId: f.providerServiceId, providerOrderId: action.providerOrderId, attempts: Math.max(1, f.attempts) }, { correlationId: f.correlationId, causationId: null });
      await appendToOutbox(deps.connection, session, Topics.fulfillment, [event]);
    } else {
      set = {
        state: 'failed',
        note: `canceled by ${actorId}`,
        status: OrderStatus.values.CANCELED,
        patchPending: true,
        orderPatch: orderPatch({ status: OrderStatus.values.CANCELED, startCount: null, remains: f.amount ?? f.remains, reason: messages.reviewCanceledReason }),
      };
    }
    const updated = await model.findOneAndUpdate({ _id: orderId, state: 'review' }, { $set: { ...set, updatedAt: now } }, { session, returnDocument: 'after' }).lean<Forward>();
    if (caller) {
      const change = auditDiff(f, updated!, ['state', 'providerOrderId', 'status', 'remains']);
      const act = { caller, action: 'fulfillment.review.resolve', target: { type: 'order', id: String(orderId) } } as const;
      await recordOperatorAction(deps.connection, session, { ...act, before: change.before, after: { ...change.after, decision: action.action } }, { correlationId: f.correlationId, causationId: null });
    }
    return updated!;
  });
  deps.relay.kick();
  deps.logger.info({ orderId, action: action.action, actorId }, 'review resolved');
  return forwardView(result);
}

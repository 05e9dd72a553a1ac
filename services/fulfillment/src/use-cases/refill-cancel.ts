import type { CancelAnswerBody, ProductFlagsBody, RefillViewBody } from '@smm/contracts/http';
import { OrderStatus } from '@smm/contracts';
import { HttpError, conflict, notFound } from '@smm/platform';
import { fetchRefillStatus, requestCancel, requestRefill } from '../clients/provider-api.ts';
import { messages } from '../domain/messages.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import { type Mapping, mappings } from '../store/mapping.model.ts';
import { type Refill, refills } from '../store/refill.model.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { orderPatch } from './record-outcome.ts';

export type Requester = { userId: string; admin: boolean };

/** The member's own forwarded order (an operator's: any), with its mapping and provider. */
async function ownOrder(deps: FulfillmentDeps, orderId: number, who: Requester) {
  const forward = await forwards(deps.connection).findById(orderId).lean<Forward>();
  if (!forward || (!who.admin && forward.userId !== who.userId)) throw notFound(messages.orderNotFound, 'ORDER_NOT_FOUND');
  const mapping = forward.productId === null ? null : await mappings(deps.connection).findById(forward.productId).lean<Mapping>();
  const provider = forward.providerId === null ? null : await deps.providers.find(forward.providerId);
  return { forward, mapping, provider };
}

const providerAnswer = (detail: string, reached: boolean) =>
  reached ? conflict(messages.providerSaidNo(detail), 'PROVIDER_REFUSED') : new HttpError(502, 'PROVIDER_UNAVAILABLE', messages.providerDown);

/** A refill of a completed order of a refill-enabled product, forwarded with `action=refill`. */
export async function askRefill(deps: FulfillmentDeps, orderId: number, who: Requester) {
  const { forward, mapping, provider } = await ownOrder(deps, orderId, who);
  if (!mapping?.refill || !provider || forward.providerOrderId === null) throw conflict(messages.refillNotAvailable, 'REFILL_NOT_AVAILABLE');
  if (forward.status !== OrderStatus.values.COMPLETED) throw conflict(messages.refillNotCompleted, 'REFILL_NOT_COMPLETED');
  const answer = await requestRefill(endpointOf(deps, provider), forward.providerOrderId, deps.providerTimeoutMs);
  if (!answer.ok) throw providerAnswer(answer.detail, answer.fault !== true);
  const refill: Refill = { _id: await deps.providers.nextId(undefined, 'refill'), orderId, userId: forward.userId, providerId: provider._id, providerRefillId: answer.value, status: 'Pending', createdAt: new Date(), checkedAt: null };
  await refills(deps.connection).create(refill);
  deps.logger.info({ orderId, refillId: refill._id, providerRefillId: answer.value }, 'refill forwarded');
  return { refill: refill._id, orderId, status: refill.status } satisfies RefillViewBody;
}

/** A refill's status, asked of the provider (`refill_status`); the last known one when it cannot answer. */
export async function refillStatus(deps: FulfillmentDeps, refillId: number, who: Requester) {
  const refill = await refills(deps.connection).findById(refillId).lean<Refill>();
  if (!refill || (!who.admin && refill.userId !== who.userId)) throw notFound(messages.refillNotFound, 'REFILL_NOT_FOUND');
  const provider = await deps.providers.find(refill.providerId);
  if (provider) {
    const answer = await fetchRefillStatus(endpointOf(deps, provider), refill.providerRefillId, deps.providerTimeoutMs);
    if (answer.ok && answer.value !== refill.status) {
      await refills(deps.connection).updateOne({ _id: refillId }, { $set: { status: answer.value, checkedAt: new Date() } });
      return { refill: refillId, orderId: refill.orderId, status: answer.value } satisfies RefillViewBody;
    }
  }
  return { refill: refillId, orderId: refill.orderId, status: refill.status } satisfies RefillViewBody;
}

/**
 * A cancel of a not-yet-started order of a cancel-enabled product. Not yet sent: canceled here
 * (full refund through order). At the provider and still pending: `action=cancel`; the refund
 * follows when the status sync sees the provider's Canceled, so money moves only on a confirmed cancel.
 */
export async function askCancel(deps: FulfillmentDeps, orderId: number, who: Requester) {
  const { forward, mapping, provider } = await ownOrder(deps, orderId, who);
  if (!mapping?.cancel || !provider) throw conflict(messages.cancelNotAvailable, 'CANCEL_NOT_AVAILABLE');
  const model = forwards(deps.connection);
  // A queued order that still carries a reference was sent before with an unknown outcome (it
  // waits to be re-sent with that reference): the provider may hold it, so no refund here.
  if (forward.state === 'queued' && forward.reference) throw conflict(messages.cancelChecking, 'CANCEL_NOT_YET');
  if (forward.state === 'queued') {
    const patch = orderPatch({ status: OrderStatus.values.CANCELED, startCount: null, remains: forward.amount ?? forward.remains, reason: null });
    const done = await model.updateOne({ _id: orderId, state: 'queued', reference: null }, { $set: { state: 'failed', status: OrderStatus.values.CANCELED, note: 'canceled by the member before sending', orderPatch: patch, patchPending: true, updatedAt: new Date() } });
    if (done.modifiedCount === 1) return { orderId, cancel: 'canceled' } satisfies CancelAnswerBody;
    // It was claimed meanwhile: fall through to the provider path once it is accepted.
    throw conflict(messages.cancelNotPending, 'CANCEL_NOT_PENDING');
  }
  if (forward.state !== 'accepted' || forward.status !== OrderStatus.values.PENDING || forward.providerOrderId === null) throw conflict(messages.cancelNotPending, 'CANCEL_NOT_PENDING');
  if (forward.cancelRequestedAt) throw conflict(messages.cancelAlreadyRequested, 'CANCEL_ALREADY_REQUESTED');
  const answer = await requestCancel(endpointOf(deps, provider), forward.providerOrderId, deps.providerTimeoutMs);
  if (!answer.ok) throw providerAnswer(answer.detail, answer.fault !== true);
  await model.updateOne({ _id: orderId }, { $set: { cancelRequestedAt: new Date(), updatedAt: new Date() } });
  deps.logger.info({ orderId }, 'cancel forwarded to the provider');
  return { orderId, cancel: 'requested' } satisfies CancelAnswerBody;
}

/** Refill and cancel flags of every mapped product, for the public service lists. */
export async function productFlags(deps: FulfillmentDeps) {
  const items = await mappings(deps.connection).find({ mode: 'provider' }, { refill: 1, cancel: 1 }).lean<Mapping[]>();
  return items.map((m) => ({ productId: m._id, refill: m.refill, cancel: m.cancel })) satisfies ProductFlagsBody;
}

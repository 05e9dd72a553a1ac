import type { CancelAnswerBody, ProductFlagsBody, RefillViewBody } from '@smm/contracts/http';
import { OrderStatus } from '@smm/contracts';
import { HttpError, RetryLater, conflict, notFound } from '@smm/platform';
import { type RequestAnswer, fetchRefillStatus, requestCancel, requestRefill } from '../clients/provider-api.ts';
import { messages } from '../domain/messages.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import { type Mapping, mappings } from '../store/mapping.model.ts';
import type { Provider } from '../store/provider.model.ts';
import { type Refill, refills } from '../store/refill.model.ts';
import { type ProviderRequest, type RequestKind, requestId, requests } from '../store/request.model.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { orderPatch } from './record-outcome.ts';

export type Requester = { userId: string; admin: boolean };

/** The member's own forwarded order (an operator's: any), with its mapping and provider. */
async function ownOrder(deps: FulfillmentDeps, orderId: number, who: Requester, kind: RequestKind) {
  const forward = (await forwards(deps.connection).findById(orderId).lean<Forward>()) ?? (await recordOfNewOrder(deps, orderId, who, kind));
  if (!who.admin && forward.userId !== who.userId) throw notFound(messages.orderNotFound, 'ORDER_NOT_FOUND');
  const mapping = forward.productId === null ? null : await mappings(deps.connection).findById(forward.productId).lean<Mapping>();
  const provider = forward.providerId === null ? null : await deps.providers.find(forward.providerId);
  return { forward, mapping, provider };
}

/**
 * An order with no record here yet. A paid order's record is made from its OrderAccepted, which
 * reaches this service a moment after the order was answered — so a reseller's cancel or refill
 * sent right after `add` lands here first. The order exists and is paid: answering "no such
 * order" would be false (and a reselling panel would give up on it), so the order service is
 * asked, and for an order whose record is coming the request waits for it (`recordWaitMs`), then
 * goes on as usual; still missing, it is answered ORDER_NOT_READY (503: nothing was done, ask
 * again). Orders this service never holds (a drip-feed auto order itself, an order whose payment
 * was refused) get the answer that is true of them.
 */
async function recordOfNewOrder(deps: FulfillmentDeps, orderId: number, who: Requester, kind: RequestKind): Promise<Forward> {
  const order = await deps.order.findOrder(orderId);
  if (!order || (!who.admin && order.userId !== who.userId)) throw notFound(messages.orderNotFound, 'ORDER_NOT_FOUND');
  const unavailable = kind === 'refill' ? conflict(messages.refillNotAvailable, 'REFILL_NOT_AVAILABLE') : conflict(messages.cancelNotAvailable, 'CANCEL_NOT_AVAILABLE');
  if (order.kind === 'auto' && !order.subscription) throw unavailable;
  if (order.payment === 'rejected') throw kind === 'cancel' ? conflict(messages.orderAlreadyCanceled, 'ORDER_ALREADY_CANCELED') : unavailable;
  const model = forwards(deps.connection);
  const until = Date.now() + deps.recordWaitMs;
  for (;;) {
    const found = await model.findById(orderId).lean<Forward>();
    if (found) return found;
    if (Date.now() >= until) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(recordPollMs, Math.max(0, until - Date.now()))));
  }
  deps.logger.info({ orderId, kind, waitedMs: deps.recordWaitMs }, 'request for an order not taken in yet: asked to try again');
  throw orderNotReady();
}
const recordPollMs = 50;
const orderNotReady = () => new RetryLater('ORDER_NOT_READY', messages.orderNotReady);

/**
 * The record once its `add` is over. While the forwarder is sending it (claimed, sent) neither a
 * cancel here nor one at the provider is right yet: a moment later it is accepted (the cancel goes
 * to the provider) or back in the queue. Waited for up to `recordWaitMs`, then ORDER_NOT_READY.
 */
async function sentOrSettled(deps: FulfillmentDeps, forward: Forward): Promise<Forward> {
  const model = forwards(deps.connection);
  const until = Date.now() + deps.recordWaitMs;
  let current = forward;
  while (current.state === 'claimed' || current.state === 'sent') {
    if (Date.now() >= until) throw orderNotReady();
    await new Promise((resolve) => setTimeout(resolve, recordPollMs));
    current = (await model.findById(forward._id).lean<Forward>()) ?? current;
  }
  return current;
}

const isDuplicate = (error: unknown) => (error as { code?: number }).code === 11000;

/** Panels' words for a refill's state, for members and resellers (`refill_status`). */
function refillStatusOf(r: ProviderRequest): string {
  if (r.state === 'forwarded' || r.state === 'done') return r.status ?? 'Pending';
  if (r.state === 'sending' || r.state === 'waiting') return 'Pending';
  if (r.state === 'failed') return r.unclear ? 'Pending' : (r.status ?? 'Rejected');
  return r.status ?? 'Canceled';
}

export const refillView = (r: ProviderRequest, existing = false) =>
  ({ refill: r.number, orderId: r.orderId, status: refillStatusOf(r), state: r.state, ...(existing ? { existing: true } : {}) }) satisfies RefillViewBody;

/**
 * Opens a request (state `sending`, holding the order's slot) before the provider is called, so two
 * at once cannot both be forwarded: the second meets the unique index and gets the first.
 */
async function openRequest(deps: FulfillmentDeps, kind: RequestKind, forward: Forward, provider: Provider): Promise<{ request: ProviderRequest; existing: boolean }> {
  const model = requests(deps.connection);
  const number = await deps.providers.nextId(undefined, kind);
  const now = new Date();
  const request: ProviderRequest = {
    _id: requestId(kind, number),
    kind,
    number,
    orderId: forward._id,
    userId: forward.userId,
    providerId: provider._id,
    providerOrderId: forward.providerOrderId!,
    state: 'sending',
    open: true,
    providerRequestId: null,
    status: null,
    answer: null,
    error: null,
    unclear: false,
    attempts: 1,
    note: null,
    createdAt: now,
    updatedAt: now,
    checkedAt: null,
    sentAt: now,
  };
  try {
    await model.create(request);
    return { request, existing: false };
  } catch (error) {
    if (!isDuplicate(error)) throw error;
    const open = await model.findOne({ kind, orderId: forward._id, open: true }).lean<ProviderRequest>();
    if (!open) throw error; // closed in between: the caller may simply ask again
    return { request: open, existing: true };
  }
}

/**
 * Writes the provider's answer to a `sending` request. A definite refusal frees the order's slot
 * (nothing waits at the provider); an unclear answer keeps it (the provider may hold the request);
 * "not ready yet, ask again" (a provider that took the order a moment ago) keeps it `waiting`, and
 * the status sync sends it again — the member's request stands, nothing is refused.
 */
export async function recordAnswer<T>(deps: FulfillmentDeps, request: ProviderRequest, answer: RequestAnswer<T>, onOk: (value: T) => Partial<ProviderRequest>): Promise<ProviderRequest> {
  const now = new Date();
  const update = answer.ok
    ? { $set: { state: 'forwarded', error: null, unclear: false, answer: answer.text, updatedAt: now, ...onOk(answer.value) } }
    : answer.retry
      ? { $set: { state: 'waiting', error: answer.detail, unclear: false, answer: answer.text, updatedAt: now } }
      : answer.unclear
      ? { $set: { state: 'failed', error: answer.detail, unclear: true, answer: answer.text, updatedAt: now } }
      : { $set: { state: 'failed', error: answer.detail, unclear: false, answer: answer.text, updatedAt: now }, $unset: { open: 1 } };
  if (answer.ok) await deps.providers.callSucceeded(request.providerId, request.kind);
  else if (answer.unclear) await deps.providers.callFailed(request.providerId, request.kind, answer.detail);
  const updated = await requests(deps.connection).findOneAndUpdate({ _id: request._id, state: 'sending' }, update, { returnDocument: 'after' }).lean<ProviderRequest>();
  deps.logger.info({ requestId: request._id, orderId: request.orderId, ok: answer.ok, detail: answer.ok ? undefined : answer.detail }, 'provider request answered');
  return updated ?? request;
}

const refused = (r: ProviderRequest) => (r.unclear ? new HttpError(502, 'PROVIDER_UNCLEAR', messages.requestUnclear) : conflict(messages.providerSaidNo(r.error ?? ''), 'PROVIDER_REFUSED'));

/**
 * A refill of a completed order of a refill-enabled product, forwarded with `action=refill` once:
 * while one is open (sent, or waiting for an operator after an unclear answer) a second is
 * answered with it (200, `existing`), never forwarded again.
 */
export async function askRefill(deps: FulfillmentDeps, orderId: number, who: Requester): Promise<{ created: boolean; view: RefillViewBody }> {
  const { forward, mapping, provider } = await ownOrder(deps, orderId, who, 'refill');
  if (!mapping?.refill || !provider || forward.providerOrderId === null) throw conflict(messages.refillNotAvailable, 'REFILL_NOT_AVAILABLE');
  if (forward.status !== OrderStatus.values.COMPLETED) throw conflict(messages.refillNotCompleted, 'REFILL_NOT_COMPLETED');
  const { request, existing } = await openRequest(deps, 'refill', forward, provider);
  if (existing) return { created: false, view: refillView(request, true) };
  const answered = await sendRefill(deps, request, provider);
  if (answered.state === 'failed') throw refused(answered);
  return { created: true, view: refillView(answered) };
}

async function sendRefill(deps: FulfillmentDeps, request: ProviderRequest, provider: Provider): Promise<ProviderRequest> {
  const answer = await requestRefill(endpointOf(deps, provider), request.providerOrderId, deps.providerTimeoutMs);
  return recordAnswer(deps, request, answer, (id) => ({ providerRequestId: id, status: 'Pending' }));
}

/** Refill statuses after which nothing more happens; Completed is a success, the rest failures operators see. */
const refillFinal: Record<string, 'done' | 'failed'> = { completed: 'done', rejected: 'failed', canceled: 'failed', cancelled: 'failed', error: 'failed', fail: 'failed', failed: 'failed' };

/**
 * Asks the provider for a forwarded refill's status and stores it; a final one closes the request
 * (Completed: done; Rejected and the like: failed, for operators). An answer that is not a readable
 * status leaves the request as it was, with the answer kept and the provider marked failing.
 */
export async function checkRefill(deps: FulfillmentDeps, request: ProviderRequest, provider: Provider): Promise<ProviderRequest> {
  if (request.state !== 'forwarded' || request.providerRequestId === null) return request;
  const answer = await fetchRefillStatus(endpointOf(deps, provider), request.providerRequestId, deps.providerTimeoutMs);
  const now = new Date();
  const model = requests(deps.connection);
  if (!answer.ok) {
    if (answer.unclear) await deps.providers.callFailed(provider._id, 'refill_status', answer.detail);
    await model.updateOne({ _id: request._id, state: 'forwarded' }, { $set: { checkedAt: now, error: `refill_status: ${answer.detail}`, answer: answer.text } });
    return request;
  }
  await deps.providers.callSucceeded(provider._id, 'refill_status');
  const final = refillFinal[answer.value.toLowerCase()];
  const update = final
    ? { $set: { state: final, status: answer.value, checkedAt: now, updatedAt: now, error: final === 'failed' ? `provider: ${answer.value}` : null, answer: answer.text }, $unset: { open: 1 } }
    : { $set: { status: answer.value, checkedAt: now, ...(answer.value !== request.status ? { updatedAt: now } : {}), error: null } };
  return (await model.findOneAndUpdate({ _id: request._id, state: 'forwarded' }, update, { returnDocument: 'after' }).lean<ProviderRequest>()) ?? request;
}

/** A refill's status, asked of the provider (`refill_status`); the last known one when it cannot answer. */
export async function refillStatus(deps: FulfillmentDeps, refillNumber: number, who: Requester): Promise<RefillViewBody> {
  const request = await findRefill(deps, refillNumber);
  if (!request || (!who.admin && request.userId !== who.userId)) throw notFound(messages.refillNotFound, 'REFILL_NOT_FOUND');
  const provider = await deps.providers.find(request.providerId);
  return refillView(provider ? await checkRefill(deps, request, provider) : request);
}

/** A refill by its number; one made before the queue existed is read from the old `refills` collection and moved over. */
async function findRefill(deps: FulfillmentDeps, number: number): Promise<ProviderRequest | null> {
  const found = await requests(deps.connection).findById(requestId('refill', number)).lean<ProviderRequest>();
  if (found) return found;
  const legacy = await refills(deps.connection).findById(number).lean<Refill>();
  if (!legacy) return null;
  const forward = await forwards(deps.connection).findById(legacy.orderId, { providerOrderId: 1 }).lean<Forward>();
  const moved: ProviderRequest = {
    _id: requestId('refill', number),
    kind: 'refill',
    number,
    orderId: legacy.orderId,
    userId: legacy.userId,
    providerId: legacy.providerId,
    providerOrderId: forward?.providerOrderId ?? '',
    state: 'forwarded',
    providerRequestId: legacy.providerRefillId,
    status: legacy.status,
    answer: null,
    error: null,
    unclear: false,
    attempts: 1,
    note: null,
    createdAt: legacy.createdAt,
    updatedAt: legacy.checkedAt ?? legacy.createdAt,
    checkedAt: legacy.checkedAt,
    sentAt: legacy.createdAt,
  };
  await requests(deps.connection).updateOne({ _id: moved._id }, { $setOnInsert: moved }, { upsert: true });
  return moved;
}

/**
 * A cancel of a not-yet-started order of a cancel-enabled product. Not yet sent: canceled here
 * (full refund through order). At the provider and still pending: `action=cancel`, once — a
 * repeated cancel is told it was asked already (409 CANCEL_ALREADY_REQUESTED); the refund follows
 * when the status sync sees the provider's Canceled, so money moves only on a confirmed cancel.
 */
export async function askCancel(deps: FulfillmentDeps, orderId: number, who: Requester): Promise<CancelAnswerBody> {
  const { forward: found, mapping, provider } = await ownOrder(deps, orderId, who, 'cancel');
  if (found.source === 'subscription') return cancelSubscription(deps, found, mapping, provider);
  if (!mapping?.cancel || !provider) throw conflict(messages.cancelNotAvailable, 'CANCEL_NOT_AVAILABLE');
  let forward = await sentOrSettled(deps, found);
  if (forward.status === OrderStatus.values.CANCELED) throw conflict(messages.orderAlreadyCanceled, 'ORDER_ALREADY_CANCELED');
  // A queued order that still carries a reference was sent before with an unknown outcome (it
  // waits to be re-sent with that reference): the provider may hold it, so no refund here.
  if (forward.state === 'queued' && forward.reference) throw conflict(messages.cancelChecking, 'CANCEL_NOT_YET');
  if (forward.state === 'queued') {
    const unsent = await cancelUnsent(deps, forward);
    if (unsent === 'canceled') return { orderId, cancel: 'canceled' };
    // Claimed meanwhile: once the provider answered, the cancel goes the provider's way.
    forward = unsent;
    if (forward.state === 'queued') throw orderNotReady();
    if (forward.status === OrderStatus.values.CANCELED) throw conflict(messages.orderAlreadyCanceled, 'ORDER_ALREADY_CANCELED');
  }
  if (await requests(deps.connection).exists({ kind: 'cancel', orderId, open: true })) throw conflict(messages.cancelAlreadyRequested, 'CANCEL_ALREADY_REQUESTED');
  if (forward.state !== 'accepted' || forward.status !== OrderStatus.values.PENDING || forward.providerOrderId === null) throw conflict(messages.cancelNotPending, 'CANCEL_NOT_PENDING');
  if (forward.cancelRequestedAt) throw conflict(messages.cancelAlreadyRequested, 'CANCEL_ALREADY_REQUESTED');
  return cancelAtProvider(deps, forward, provider);
}

/**
 * Cancels an order not sent yet (queued without a reference) here, with the full refund through
 * order's patcher; `canceled`, or — claimed by the forwarder meanwhile — the record once its add
 * is over (see sentOrSettled).
 */
async function cancelUnsent(deps: FulfillmentDeps, forward: Forward): Promise<'canceled' | Forward> {
  const model = forwards(deps.connection);
  const patch = orderPatch({ status: OrderStatus.values.CANCELED, startCount: null, remains: forward.amount ?? forward.remains, reason: null });
  const done = await model.updateOne({ _id: forward._id, state: 'queued', reference: null }, { $set: { state: 'failed', status: OrderStatus.values.CANCELED, note: 'canceled by the member before sending', orderPatch: patch, patchPending: true, updatedAt: new Date() } });
  if (done.modifiedCount === 1) return 'canceled';
  return sentOrSettled(deps, (await model.findById(forward._id).lean<Forward>()) ?? forward);
}

/** `action=cancel` at the provider, once: the request holds the order's slot before the call. */
async function cancelAtProvider(deps: FulfillmentDeps, forward: Forward, provider: Provider): Promise<CancelAnswerBody> {
  const { request, existing } = await openRequest(deps, 'cancel', forward, provider);
  if (existing) throw conflict(messages.cancelAlreadyRequested, 'CANCEL_ALREADY_REQUESTED');
  const answered = await sendCancel(deps, request, provider);
  if (answered.state === 'failed') throw refused(answered);
  return { orderId: forward._id, cancel: 'requested' };
}

/**
 * A member's cancel of a subscription (issue 40). One our operators run (manual: no provider): ended
 * here at once, the posts not done refunded by the order service (once — a second cancel finds it
 * ended, 409). One at a provider whose product takes cancels: `action=cancel` of the provider's
 * subscription, once; the refund follows when the status sync sees the provider's Canceled (the
 * provider refunds us first), so money moves only on a confirmed cancel.
 */
async function cancelSubscription(deps: FulfillmentDeps, forward: Forward, mapping: Mapping | null, provider: Provider | null): Promise<CancelAnswerBody> {
  const orderId = forward._id;
  if (forward.state === 'closed' || forward.state === 'failed') throw conflict(messages.subscriptionEnded, 'SUBSCRIPTION_NOT_ACTIVE');
  if (forward.state === 'manual' || forward.providerId === null) {
    const ended = await deps.order.endSubscription(orderId, 'canceled', forward.correlationId, forward.userId);
    if (ended.result !== 'applied') throw conflict(messages.subscriptionEnded, 'SUBSCRIPTION_NOT_ACTIVE');
    return { orderId, cancel: 'canceled' };
  }
  if (!mapping?.cancel || !provider) throw conflict(messages.cancelNotAvailable, 'CANCEL_NOT_AVAILABLE');
  // Canceled right after it was placed: not sent yet, it ends here (every post refunded, by the
  // order patcher as for a refused add); being sent, the provider's answer is waited for.
  let current = await sentOrSettled(deps, forward);
  if (current.state === 'queued' && !current.reference) {
    const unsent = await cancelUnsent(deps, current);
    if (unsent === 'canceled') return { orderId, cancel: 'canceled' };
    current = unsent;
  }
  if (current.state === 'closed' || current.state === 'failed') throw conflict(messages.subscriptionEnded, 'SUBSCRIPTION_NOT_ACTIVE');
  if (current.state !== 'accepted' || current.providerOrderId === null) throw conflict(messages.cancelChecking, 'CANCEL_NOT_YET');
  if (current.cancelRequestedAt || (await requests(deps.connection).exists({ kind: 'cancel', orderId, open: true }))) throw conflict(messages.cancelAlreadyRequested, 'CANCEL_ALREADY_REQUESTED');
  return cancelAtProvider(deps, current, provider);
}

async function sendCancel(deps: FulfillmentDeps, request: ProviderRequest, provider: Provider): Promise<ProviderRequest> {
  const answer = await requestCancel(endpointOf(deps, provider), request.providerOrderId, deps.providerTimeoutMs);
  const answered = await recordAnswer(deps, request, answer, () => ({ status: null }));
  if (answer.ok) await forwards(deps.connection).updateOne({ _id: request.orderId }, { $set: { cancelRequestedAt: new Date(), updatedAt: new Date() } });
  return answered;
}

/** Sends a request again (an operator's retry): the refill or cancel call as the member's was. */
export async function resend(deps: FulfillmentDeps, request: ProviderRequest, provider: Provider): Promise<ProviderRequest> {
  return request.kind === 'refill' ? sendRefill(deps, request, provider) : sendCancel(deps, request, provider);
}

/** Refill and cancel flags of every mapped product, for the public service lists. */
export async function productFlags(deps: FulfillmentDeps) {
  const items = await mappings(deps.connection).find({ mode: 'provider' }, { refill: 1, cancel: 1 }).lean<Mapping[]>();
  return items.map((m) => ({ productId: m._id, refill: m.refill, cancel: m.cancel })) satisfies ProductFlagsBody;
}

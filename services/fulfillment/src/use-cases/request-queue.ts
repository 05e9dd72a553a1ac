import type { ProviderRequestBody, ProviderRequestListBody } from '@smm/contracts/http';
import { OrderStatus } from '@smm/contracts';
import { type OperatorAction, conflict, forbidden, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import { type ProviderRequest, type RequestState, requests } from '../store/request.model.ts';
import type { FulfillmentDeps } from './context.ts';
import { checkRefill, resend } from './refill-cancel.ts';

/** A request as operators see it (`GET /admin/requests`). */
export function requestView(r: ProviderRequest, providerName: string | null = null) {
  return {
    id: r._id,
    kind: r.kind,
    number: r.number,
    orderId: r.orderId,
    userId: r.userId,
    providerId: r.providerId,
    providerName,
    providerOrderId: r.providerOrderId,
    state: r.state,
    open: r.open === true,
    unclear: r.unclear,
    providerRequestId: r.providerRequestId,
    status: r.status,
    answer: r.answer,
    error: r.error,
    attempts: r.attempts,
    note: r.note,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    checkedAt: r.checkedAt?.toISOString() ?? null,
  } satisfies ProviderRequestBody;
}

const openStates: RequestState[] = ['sending', 'waiting', 'forwarded'];

export type RequestQuery = { state: 'failed' | 'open' | 'all'; kind?: 'refill' | 'cancel' | undefined; limit: number };

/** The operators' queue: failed requests (the default), open ones, or all, newest change first; with the counts the dashboard shows. */
export async function listRequests(deps: FulfillmentDeps, query: RequestQuery): Promise<ProviderRequestListBody> {
  const model = requests(deps.connection);
  const filter: Record<string, unknown> = query.state === 'failed' ? { state: 'failed' } : query.state === 'open' ? { state: { $in: openStates } } : {};
  if (query.kind) filter.kind = query.kind;
  const [items, failed, open, oldestFailed] = await Promise.all([
    model.find(filter).sort({ updatedAt: -1 }).limit(query.limit).lean<ProviderRequest[]>(),
    model.countDocuments({ state: 'failed' }),
    model.countDocuments({ state: { $in: openStates } }),
    model.findOne({ state: 'failed' }).sort({ updatedAt: 1 }).lean<ProviderRequest>(),
  ]);
  const names = new Map((await deps.providers.list()).map((p) => [p._id, p.name]));
  return {
    items: items.map((r) => requestView(r, names.get(r.providerId) ?? null)),
    counts: { failed, open },
    oldestFailedAt: oldestFailed?.updatedAt.toISOString() ?? null,
  };
}

export type RequestAction = { action: 'retry' } | { action: 'close'; note?: string | undefined };

/**
 * An operator settles a failed request: send it to the provider again, or close it (handled by
 * hand, with a note). Never for their own order (SELF_ACTION); audited with the provider's answer.
 * A retry of a cancel needs the order still pending at the provider; a retry that would open a
 * second request of the order's kind is refused.
 */
export async function actOnRequest(deps: FulfillmentDeps, id: string, action: RequestAction, caller: OperatorAction['caller']): Promise<ProviderRequestBody> {
  const model = requests(deps.connection);
  const found = await model.findById(id).lean<ProviderRequest>();
  if (!found) throw notFound(messages.requestNotFound, 'REQUEST_NOT_FOUND');
  if (caller.userId !== null && caller.userId === found.userId) throw forbidden(messages.requestSelf, 'SELF_ACTION');
  if (found.state !== 'failed') throw conflict(messages.requestNotFailed, 'REQUEST_NOT_FAILED');
  const provider = await deps.providers.find(found.providerId);
  const now = new Date();
  let next: ProviderRequest;
  if (action.action === 'close') {
    const closed = await inTransaction(deps.connection, async (session) => {
      const updated = await model
        .findOneAndUpdate({ _id: id, state: 'failed' }, { $set: { state: 'closed' as RequestState, note: action.note ?? null, updatedAt: now }, $unset: { open: 1 } }, { returnDocument: 'after', session })
        .lean<ProviderRequest>();
      if (!updated) throw conflict(messages.requestNotFailed, 'REQUEST_NOT_FAILED');
      await audit(deps, session, caller, found, updated, 'close');
      return updated;
    });
    next = closed;
  } else {
    if (!provider) throw notFound(messages.providerNotFound, 'PROVIDER_NOT_FOUND');
    if (found.kind === 'cancel') {
      const forward = await forwards(deps.connection).findById(found.orderId).lean<Forward>();
      if (forward?.state !== 'accepted' || forward.status !== OrderStatus.values.PENDING) throw conflict(messages.cancelNoLongerPending, 'CANCEL_NOT_PENDING');
    }
    // Back to `sending` (holding the order's slot again) before the call, as a member's request is.
    let sending: ProviderRequest | null;
    try {
      sending = await inTransaction(deps.connection, async (session) => {
        const updated = await model
          .findOneAndUpdate({ _id: id, state: 'failed' }, { $set: { state: 'sending' as RequestState, open: true, sentAt: now, updatedAt: now }, $inc: { attempts: 1 } }, { returnDocument: 'after', session })
          .lean<ProviderRequest>();
        if (updated) await audit(deps, session, caller, found, updated, 'retry');
        return updated;
      });
    } catch (error) {
      if ((error as { code?: number }).code === 11000) throw conflict(messages.requestOpenExists, 'REQUEST_OPEN_EXISTS');
      throw error;
    }
    if (!sending) throw conflict(messages.requestNotFailed, 'REQUEST_NOT_FAILED');
    deps.relay.kick();
    next = await resend(deps, sending, provider);
  }
  deps.relay.kick();
  deps.logger.info({ requestId: id, action: action.action, state: next.state, by: caller.userId }, 'request settled by an operator');
  return requestView(next, provider?.name ?? null);
}

function audit(deps: FulfillmentDeps, session: Parameters<typeof recordOperatorAction>[1], caller: OperatorAction['caller'], before: ProviderRequest, after: ProviderRequest, decision: 'retry' | 'close') {
  return recordOperatorAction(
    deps.connection,
    session,
    {
      caller,
      action: 'fulfillment.request.resolve',
      target: { type: 'order', id: String(before.orderId) },
      before: { request: before._id, state: before.state, error: before.error },
      after: { request: after._id, state: after.state, decision, member: after.userId, ...(after.note ? { note: after.note } : {}) },
    },
    { correlationId: `request-${before._id}`, causationId: null },
  );
}

export type RequestSyncStats = { refillsChecked: number; stale: number; resent: number };

/**
 * Part of every status-sync cycle: forwarded refills are asked for their status (at most 100 per
 * cycle, the least recently checked first), requests stuck in `sending` past the call timeout
 * (the process died mid-call) become unclear failures for operators — never re-sent by themselves —
 * and requests the provider asked to send again (`waiting`) are sent again.
 */
export async function syncRequests(deps: FulfillmentDeps, now = new Date()): Promise<RequestSyncStats> {
  const model = requests(deps.connection);
  const resent = await resendWaiting(deps, now);
  const stale = await model.updateMany(
    { state: 'sending', updatedAt: { $lt: new Date(now.getTime() - deps.providerTimeoutMs * 2 - 5000) } },
    { $set: { state: 'failed', unclear: true, error: 'the worker stopped while the provider was being called', updatedAt: now } },
  );
  const open = await model.find({ kind: 'refill', state: 'forwarded' }).sort({ checkedAt: 1 }).limit(100).lean<ProviderRequest[]>();
  let refillsChecked = 0;
  for (const request of open) {
    const provider = await deps.providers.find(request.providerId);
    if (!provider) continue;
    await checkRefill(deps, request, provider);
    refillsChecked++;
  }
  return { refillsChecked, stale: stale.modifiedCount, resent };
}

/**
 * Sends a request the provider asked for again at most this many times (about half an hour at the
 * default 60 s status sync): a provider still not ready then is broken, and operators take over.
 */
export const maxWaitingAttempts = 30;

/**
 * Sends the `waiting` requests again (at most 100 per cycle, the longest waiting first), each moved
 * back to `sending` by a guarded write first, as an operator's retry is. A cancel whose order is no
 * longer pending here (the provider started or ended it meanwhile) is not sent: it fails for
 * operators, or is done when the order was canceled anyway. Past `maxWaitingAttempts` it fails for
 * operators (the provider took nothing: the slot is freed, an operator's retry or the member may ask again).
 */
async function resendWaiting(deps: FulfillmentDeps, now: Date): Promise<number> {
  const model = requests(deps.connection);
  const waiting = await model.find({ state: 'waiting' }).sort({ updatedAt: 1 }).limit(100).lean<ProviderRequest[]>();
  let resent = 0;
  for (const request of waiting) {
    const provider = await deps.providers.find(request.providerId);
    if (!provider) continue;
    if (request.attempts >= maxWaitingAttempts) {
      await model.updateOne({ _id: request._id, state: 'waiting' }, { $set: { state: 'failed', unclear: false, error: `the provider answered "not ready" ${request.attempts} times: ${request.error ?? ''}`, updatedAt: now }, $unset: { open: 1 } });
      deps.logger.warn({ requestId: request._id, orderId: request.orderId, attempts: request.attempts }, 'provider kept answering "not ready": request failed for operators');
      continue;
    }
    if (request.kind === 'cancel') {
      const forward = await forwards(deps.connection).findById(request.orderId, { status: 1, providerStatus: 1 }).lean<Forward>();
      if (forward && forward.status !== OrderStatus.values.PENDING) {
        const canceled = forward.status === OrderStatus.values.CANCELED;
        await model.updateOne(
          { _id: request._id, state: 'waiting' },
          { $set: { state: canceled ? 'done' : 'failed', status: forward.providerStatus, error: canceled ? null : 'the order was no longer pending when the cancel could be sent again', updatedAt: now }, $unset: { open: 1 } },
        );
        continue;
      }
    }
    const sending = await model.findOneAndUpdate({ _id: request._id, state: 'waiting' }, { $set: { state: 'sending' as RequestState, sentAt: now, updatedAt: now }, $inc: { attempts: 1 } }, { returnDocument: 'after' }).lean<ProviderRequest>();
    if (!sending) continue;
    await resend(deps, sending, provider);
    resent++;
  }
  return resent;
}

/**
 * The status sync moved orders: an open cancel request of an order the provider canceled is done
 * (the refund follows through the order change); of one the provider started instead, failed —
 * the provider did not cancel, and operators see it.
 */
export async function settleCancels(deps: FulfillmentDeps, moved: Array<{ orderId: number; status: number; providerStatus: string }>): Promise<void> {
  const started = moved.filter((m) => m.status !== OrderStatus.values.PENDING);
  if (started.length === 0) return;
  const model = requests(deps.connection);
  const open = await model.find({ kind: 'cancel', open: true, orderId: { $in: started.map((m) => m.orderId) } }, { _id: 1, orderId: 1 }).lean<Array<Pick<ProviderRequest, '_id' | 'orderId'>>>();
  const now = new Date();
  for (const request of open) {
    const m = started.find((x) => x.orderId === request.orderId)!;
    const canceled = m.status === OrderStatus.values.CANCELED;
    await model.updateOne(
      { _id: request._id, open: true },
      canceled
        ? { $set: { state: 'done', status: m.providerStatus, error: null, updatedAt: now }, $unset: { open: 1 } }
        : { $set: { state: 'failed', status: m.providerStatus, unclear: false, error: `the provider moved the order to ${m.providerStatus} instead of canceling it`, updatedAt: now }, $unset: { open: 1 } },
    );
  }
}

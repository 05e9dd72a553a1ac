import { Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { fetchStatuses } from '../clients/provider-api.ts';
import { chargeCostDeci } from '../domain/cost.ts';
import { isFinal, judgeReport } from '../domain/provider-status.ts';
import { orderForwardFailed, providerOrderStatusChanged } from '../events/fulfillment-events.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import type { Provider } from '../store/provider.model.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { orderPatch } from './record-outcome.ts';
import { type RequestSyncStats, settleCancels, syncRequests } from './request-queue.ts';
import { type SubscriptionSyncStats, syncSubscriptions } from './subscription-sync.ts';

/** API v2 `status` takes at most 100 orders per request. */
export const statusBatchSize = 100;

export type SyncStats = { providers: number; requests: number; failedRequests: number; orders: number; changed: number; review: number } & Partial<RequestSyncStats> & Partial<SubscriptionSyncStats>;

/**
 * One status-sync cycle: every open forwarded order is asked about with `status&orders=…` in
 * batches of 100, each provider on its own (a dead provider only delays its own orders). A change
 * moves the forward record, queues the order-service change and announces
 * ProviderOrderStatusChanged in one transaction per batch; a final status closes the record.
 */
export async function syncStatuses(deps: FulfillmentDeps, onChanged: () => void): Promise<SyncStats> {
  const model = forwards(deps.connection);
  const providerIds = ((await model.distinct('providerId', { state: 'accepted' })) as Array<number | null>).filter((id): id is number => id !== null);
  const stats: SyncStats = { providers: providerIds.length, requests: 0, failedRequests: 0, orders: 0, changed: 0, review: 0 };
  await Promise.all(
    providerIds.map(async (providerId) => {
      const provider = await deps.providers.find(providerId);
      if (provider) await syncProvider(deps, provider, stats, onChanged);
    }),
  );
  // Subscriptions (issue 40) answer `status` with their posts: followed on their own.
  const subscriptions = await syncSubscriptions(deps);
  if (stats.changed > 0) deps.relay.kick();
  // The request queue rides on the same cycle: forwarded refills' statuses, requests a crash left in `sending`.
  return { ...stats, ...subscriptions, ...(await syncRequests(deps)) };
}

async function syncProvider(deps: FulfillmentDeps, provider: Provider, stats: SyncStats, onChanged: () => void): Promise<void> {
  const model = forwards(deps.connection);
  const endpoint = endpointOf(deps, provider);
  let after = 0;
  for (;;) {
    const batch = await model
      .find({ state: 'accepted', providerId: provider._id, source: { $ne: 'subscription' }, _id: { $gt: after } }, { _id: 1, userId: 1, providerOrderId: 1, status: 1, startCount: 1, remains: 1, amount: 1, correlationId: 1 })
      .sort({ _id: 1 })
      .limit(statusBatchSize)
      .lean<Forward[]>();
    if (batch.length === 0) return;
    after = batch[batch.length - 1]!._id;
    stats.requests++;
    const answer = await fetchStatuses(endpoint, batch.map((f) => f.providerOrderId!), deps.providerTimeoutMs);
    if (!answer.ok) {
      stats.failedRequests++;
      await deps.providers.callFailed(provider._id, 'status', answer.detail);
      deps.logger.warn({ providerId: provider._id, detail: answer.detail, orders: batch.length }, 'status request failed; next cycle asks again');
      continue;
    }
    await deps.providers.callSucceeded(provider._id, 'status');
    stats.orders += batch.length;
    const changes: Array<{ record: Forward; providerStatus: string; charge: unknown; next: { status: number; startCount: number | null; remains: number } }> = [];
    const reviews: Array<{ record: Forward; note: string; raw: string }> = [];
    for (const record of batch) {
      const reported = answer.value.get(record.providerOrderId!);
      if (!reported || reported.kind === 'error') continue;
      if (reported.kind === 'garbage') {
        reviews.push({ record, note: 'bad-status: the entry has no status', raw: reported.raw });
        continue;
      }
      const judged = judgeReport(record, reported, record.amount ?? record.remains);
      if (judged.kind === 'review') reviews.push({ record, note: judged.note, raw: reported.raw });
      else if (judged.kind === 'move') changes.push({ record, providerStatus: reported.status, charge: reported.charge, next: judged.next });
    }
    if (changes.length === 0 && reviews.length === 0) continue;
    await inTransaction(deps.connection, async (session) => {
      const events = [];
      for (const { record, providerStatus, charge, next } of changes) {
        // The provider's charge as last reported with a change: the profit report's cost (issue 41).
        const cost = chargeCostDeci(charge, provider.wonDeciPerUnit);
        const set = {
          ...(cost && { providerCharge: cost.text, costDeci: cost.costDeci }),
          ...next,
          providerStatus,
          state: isFinal(next.status) ? 'closed' : 'accepted',
          orderPatch: orderPatch({ ...next, reason: null }),
          patchPending: true,
          syncedAt: new Date(),
          updatedAt: new Date(),
        };
        const updated = await model.updateOne({ _id: record._id, state: 'accepted', status: record.status }, { $set: set }, { session });
        if (updated.modifiedCount !== 1) continue;
        events.push(providerOrderStatusChanged({ orderId: record._id, providerId: provider._id, providerOrderId: record.providerOrderId!, providerStatus, ...next }, { correlationId: record.correlationId, causationId: null }));
      }
      // An answer we cannot act on: the record stays as it was, waiting for an operator with the
      // provider's words beside it (resume following it, link another id, or cancel with a refund).
      for (const { record, note, raw } of reviews) {
        const updated = await model.updateOne(
          { _id: record._id, state: 'accepted', status: record.status },
          { $set: { state: 'review', reviewFrom: 'accepted', note, providerAnswer: raw, syncedAt: new Date(), updatedAt: new Date() } },
          { session },
        );
        if (updated.modifiedCount !== 1) continue;
        events.push(orderForwardFailed({ orderId: record._id, userId: record.userId, providerId: provider._id, reason: 'provider-error', detail: note, retryAt: null }, { correlationId: record.correlationId, causationId: null }));
      }
      await appendToOutbox(deps.connection, session, Topics.fulfillment, events);
    });
    await settleCancels(deps, changes.map((c) => ({ orderId: c.record._id, status: c.next.status, providerStatus: c.providerStatus })));
    if (reviews.length > 0) deps.logger.warn({ providerId: provider._id, orders: reviews.map((r) => r.record._id), notes: reviews.map((r) => r.note) }, 'status answers not understood: orders put in review');
    stats.review += reviews.length;
    stats.changed += changes.length;
    onChanged();
  }
}

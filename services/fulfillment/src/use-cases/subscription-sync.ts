import { OrderStatus, subscriptionStateFromApiName } from '@smm/contracts';
import { fetchSubscriptions } from '../clients/provider-api.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import type { Provider } from '../store/provider.model.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { settleCancels } from './request-queue.ts';

/** API v2 `status` takes at most 100 orders per request. */
const statusBatchSize = 100;

export type SubscriptionSyncStats = { subscriptions: number; postsRecorded: number; ended: number };

/**
 * Subscriptions forwarded to providers (issue 40), one `status` per 100 of a provider's: the posts
 * the provider reports done become the subscription's posts here, one at a time and in order — the
 * provider's order id for post n is stored on the record first (the post's own record follows that
 * order), then the post is recorded with the order service (a post recorded before answers "known");
 * then a provider's end (Expired, Canceled, or Completed with fewer posts) ends it here with the
 * refund of the posts not done, and Paused/Active are mirrored. The order service's guards make
 * every step idempotent, so a crash between steps only repeats one.
 */
export async function syncSubscriptions(deps: FulfillmentDeps): Promise<SubscriptionSyncStats> {
  const model = forwards(deps.connection);
  const stats: SubscriptionSyncStats = { subscriptions: 0, postsRecorded: 0, ended: 0 };
  const providerIds = ((await model.distinct('providerId', { state: 'accepted', source: 'subscription' })) as Array<number | null>).filter((id): id is number => id !== null);
  for (const providerId of providerIds) {
    const provider = await deps.providers.find(providerId);
    if (provider) await syncProvider(deps, provider, stats);
  }
  return stats;
}

async function syncProvider(deps: FulfillmentDeps, provider: Provider, stats: SubscriptionSyncStats): Promise<void> {
  const model = forwards(deps.connection);
  let after = 0;
  for (;;) {
    const batch = await model.find({ state: 'accepted', source: 'subscription', providerId: provider._id, _id: { $gt: after } }).sort({ _id: 1 }).limit(statusBatchSize).lean<Forward[]>();
    if (batch.length === 0) return;
    after = batch[batch.length - 1]!._id;
    const answer = await fetchSubscriptions(endpointOf(deps, provider), batch.map((f) => f.providerOrderId!), deps.providerTimeoutMs);
    if (!answer.ok) {
      await deps.providers.callFailed(provider._id, 'status', answer.detail);
      deps.logger.warn({ providerId: provider._id, detail: answer.detail }, 'subscription status request failed; next cycle asks again');
      continue;
    }
    await deps.providers.callSucceeded(provider._id, 'status');
    for (const record of batch) {
      stats.subscriptions++;
      const reported = answer.value.get(record.providerOrderId!);
      if (!reported || reported.kind === 'error') continue;
      const state = reported.kind === 'subscription' ? subscriptionStateFromApiName(reported.status) : null;
      if (reported.kind === 'garbage' || state === null) {
        await model.updateOne({ _id: record._id, state: 'accepted' }, { $set: { state: 'review', reviewFrom: 'accepted', note: 'bad-status: not a subscription status', providerAnswer: reported.raw, updatedAt: new Date() } });
        deps.logger.warn({ orderId: record._id, raw: reported.raw }, 'subscription status not understood: put in review');
        continue;
      }
      if (reported.kind !== 'subscription') continue;
      await followSubscription(deps, record, state, reported.posts, reported.orders, reported.status, stats);
    }
  }
}

async function followSubscription(
  deps: FulfillmentDeps,
  record: Forward,
  state: NonNullable<ReturnType<typeof subscriptionStateFromApiName>>,
  postsDone: number,
  orders: readonly string[],
  providerStatus: string,
  stats: SubscriptionSyncStats,
): Promise<void> {
  const model = forwards(deps.connection);
  const log = deps.logger.child({ orderId: record._id, correlationId: record.correlationId });
  const posts = record.subscription?.posts ?? 0;
  const known = [...(record.postOrders ?? [])];
  let recorded = record.postsRecorded ?? 0;
  // More posts than bought, or a post without its order id: only what can be followed is recorded.
  const reported = Math.min(postsDone, posts, orders.length);
  for (let n = recorded + 1; n <= reported; n++) {
    if (known.length < n) {
      const providerOrderId = orders[n - 1]!;
      const stored = await model.updateOne({ _id: record._id, postOrders: { $size: n - 1 } }, { $push: { postOrders: providerOrderId }, $set: { updatedAt: new Date() } });
      if (stored.modifiedCount !== 1) return; // another sync got here first: it carries on
      known.push(providerOrderId);
    }
    const post = await deps.order.recordPost(record._id, n, record.correlationId);
    if (post.result === 'refused') {
      log.warn({ post: n, code: post.code }, 'the order service refused a post the provider reported');
      break;
    }
    recorded = n;
    await model.updateOne({ _id: record._id }, { $max: { postsRecorded: n }, $set: { updatedAt: new Date() } });
    stats.postsRecorded++;
  }
  const ends = state === 'expired' || state === 'canceled' || state === 'completed';
  if (ends) {
    // Completed with every post recorded ends by itself here; anything else gives back the posts not done.
    if (!(state === 'completed' && recorded >= posts)) {
      const to = state === 'canceled' ? 'canceled' : 'expired';
      const ended = await deps.order.endSubscription(record._id, to, record.correlationId);
      log.info({ ended: to, result: ended.result, postsRecorded: recorded }, 'subscription ended by its provider');
    }
    const status = state === 'canceled' ? OrderStatus.values.CANCELED : OrderStatus.values.COMPLETED;
    const closed = await model.updateOne({ _id: record._id, state: 'accepted' }, { $set: { state: 'closed', status, providerStatus, syncedAt: new Date(), updatedAt: new Date() } });
    if (closed.modifiedCount === 1) stats.ended++;
    await settleCancels(deps, [{ orderId: record._id, status, providerStatus }]);
    return;
  }
  if (record.providerStatus !== providerStatus) {
    if (state === 'paused') await deps.order.pauseSubscription(record._id, 'pause', record.correlationId);
    if (state === 'active' && record.providerStatus?.toLowerCase() === 'paused') await deps.order.pauseSubscription(record._id, 'resume', record.correlationId);
    await model.updateOne({ _id: record._id, state: 'accepted' }, { $set: { providerStatus, status: OrderStatus.values.IN_PROGRESS, syncedAt: new Date(), updatedAt: new Date() } });
  }
}

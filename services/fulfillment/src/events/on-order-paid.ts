import { type EventEnvelope, type OrderDetails, type ServiceType, type SubscriptionTerms, Topics, causedBy } from '@smm/contracts';
import { type Logger, appendToOutbox, inTransaction, isDuplicateKeyError } from '@smm/platform';
import type { Forward } from '../store/forward.model.ts';
import { forwards } from '../store/forward.model.ts';
import { type Mapping, mappings } from '../store/mapping.model.ts';
import type { HandlerDeps } from './inputs.ts';
import { orderForwardFailed } from './fulfillment-events.ts';

/** A paid order as an order event announces it, with the event it came in. */
export type Paid = {
  event: EventEnvelope;
  orderId: number;
  userId: string;
  productId: number | undefined;
  link: string | undefined;
  amount: number | undefined;
  source: 'order' | 'run' | 'subscription';
  /** A typed product's type and fields (OrderAccepted); absent for default products and auto-order runs. */
  serviceType?: ServiceType | undefined;
  details?: OrderDetails | undefined;
  /** A subscription's terms (source `subscription`). */
  subscription?: SubscriptionTerms | undefined;
  /** A subscription's post (source `run`): never sent with `add`, it follows the provider's order for that post. */
  subscriptionPost?: { autoOrderId: number; run: number } | undefined;
};

/** The forward record of a paid order as it enters fulfillment (state `manual` until decided). */
function newForward(paid: Paid, now: Date): Forward {
  return {
    _id: paid.orderId,
    userId: paid.userId,
    productId: paid.productId ?? null,
    link: paid.link ?? null,
    amount: paid.amount ?? null,
    source: paid.source,
    state: 'manual',
    providerId: null,
    providerServiceId: null,
    attempts: 0,
    nextAttemptAt: now,
    claimedBy: null,
    claimedAt: null,
    sentAt: null,
    providerOrderId: null,
    reference: null,
    unknownResends: 0,
    note: null,
    providerStatus: null,
    status: 0,
    startCount: null,
    remains: paid.amount ?? 0,
    syncedAt: null,
    orderPatch: null,
    cancelRequestedAt: null,
    correlationId: paid.event.correlationId,
    ...(paid.serviceType && paid.serviceType !== 'default' ? { serviceType: paid.serviceType } : {}),
    ...(paid.details ? { details: paid.details } : {}),
    ...(paid.subscription ? { subscription: paid.subscription, postOrders: [] } : {}),
    ...(paid.subscriptionPost ? { subscriptionPost: paid.subscriptionPost } : {}),
    createdAt: now,
    updatedAt: now,
  };
}

/** Queued for its provider, waiting for operators (manual products, no mapping), or in review (suspended mapping). */
function routed(base: Forward, mapping: Mapping | undefined): Forward {
  if (!mapping || mapping.mode === 'manual') return base;
  if (mapping.suspendedReason !== null) return { ...base, state: 'review', providerId: mapping.providerId, providerServiceId: mapping.providerServiceId, note: mapping.suspendedReason };
  return { ...base, state: 'queued', providerId: mapping.providerId, providerServiceId: mapping.providerServiceId };
}

/**
 * A subscription's post is never sent with `add`: at a provider the subscription itself was sent, and
 * the provider placed the post's order, whose id the status sync stored on the subscription's record
 * before the post was recorded — the post's record follows that order (`accepted`). A subscription
 * our operators run (manual), or a post whose provider order is not known, waits for the operators.
 */
function postRecord(base: Forward, parent: Forward | undefined): Forward {
  const run = base.subscriptionPost!.run;
  const providerOrderId = parent?.postOrders?.[run - 1] ?? null;
  if (!parent || parent.providerId === null || parent.state === 'manual') return { ...base, state: 'manual', note: parent ? null : 'subscription post: the subscription is unknown here' };
  if (providerOrderId === null) return { ...base, state: 'manual', providerId: parent.providerId, providerServiceId: parent.providerServiceId, note: "subscription post: the provider's order for it is unknown" };
  return { ...base, state: 'accepted', providerId: parent.providerId, providerServiceId: parent.providerServiceId, providerOrderId, sentAt: base.createdAt };
}

/**
 * Paid orders enter fulfilment exactly once: a record's id is the order id, so its insert is the
 * idempotency guard (a redelivered or replayed event hits the existing record and changes nothing;
 * no processed-event mark is needed). A run of paid orders costs one read of their products'
 * mappings and one insert of all their records, whatever its length. An order whose event lacks
 * what a provider needs (placed before these fields existed) goes to review with an event, in one
 * transaction with its record.
 */
export async function onOrdersPaid(deps: HandlerDeps, paid: readonly Paid[], log: Logger): Promise<void> {
  const now = new Date();
  const complete = paid.filter((p) => p.productId !== undefined && p.link !== undefined && p.amount !== undefined);
  for (const p of paid) if (!complete.includes(p)) await enterForReview(deps, p, now, log);
  if (complete.length === 0) return;

  const productIds = [...new Set(complete.map((p) => p.productId!))];
  const found = await mappings(deps.connection).find({ _id: { $in: productIds } }).lean<Mapping[]>();
  const byProduct = new Map(found.map((m) => [m._id, m]));
  const parentIds = [...new Set(complete.flatMap((p) => (p.subscriptionPost ? [p.subscriptionPost.autoOrderId] : [])))];
  const parents = new Map((parentIds.length === 0 ? [] : await forwards(deps.connection).find({ _id: { $in: parentIds } }).lean<Forward[]>()).map((f) => [f._id, f]));
  const records = complete.map((p) => (p.subscriptionPost ? postRecord(newForward(p, now), parents.get(p.subscriptionPost.autoOrderId)) : routed(newForward(p, now), byProduct.get(p.productId!))));
  // Written with the driver (complete, with the schema's defaults), not through mongoose's casting;
  // unordered, so a record already there (a redelivery) does not stop the others.
  const known = new Set<number>();
  try {
    await forwards(deps.connection).collection.insertMany(records as never[], { ordered: false });
  } catch (error) {
    const failures = (error as { writeErrors?: Array<{ index: number; code?: number }> }).writeErrors;
    if (!isDuplicateKeyError(error, 'forwards') || !failures || failures.some((f) => f.code !== 11000)) throw error;
    for (const f of failures) known.add(records[f.index]!._id);
  }
  const entered = records.filter((r) => !known.has(r._id));
  if (entered.some((r) => r.state === 'queued')) deps.wake();
  const states = (state: Forward['state']) => entered.filter((r) => r.state === state).map((r) => r._id);
  log.info({ queued: states('queued'), manual: states('manual'), review: states('review'), alreadyKnown: [...known] }, 'orders entered fulfillment');
}

async function enterForReview(deps: HandlerDeps, paid: Paid, now: Date, log: Logger): Promise<void> {
  const record: Forward = { ...newForward(paid, now), state: 'review', note: 'missing-details' };
  const failed = orderForwardFailed(
    { orderId: paid.orderId, userId: paid.userId, providerId: null, reason: 'missing-details', detail: 'the event names no product, link or amount', retryAt: null },
    causedBy(paid.event),
  );
  try {
    await inTransaction(deps.connection, async (session) => {
      await forwards(deps.connection).collection.insertOne(record as never, { session });
      await appendToOutbox(deps.connection, session, Topics.fulfillment, [failed]);
    });
  } catch (error) {
    if (isDuplicateKeyError(error, 'forwards')) return log.info({ orderId: paid.orderId }, 'order already known to fulfillment');
    throw error;
  }
  log.info({ orderId: paid.orderId, state: record.state, note: record.note }, 'order entered fulfillment');
}

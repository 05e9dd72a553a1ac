import { type EventEnvelope, Topics, causedBy } from '@smm/contracts';
import { type Logger, appendToOutbox, inTransaction, isDuplicateKeyError } from '@smm/platform';
import type { Forward } from '../store/forward.model.ts';
import { forwards } from '../store/forward.model.ts';
import { type Mapping, mappings } from '../store/mapping.model.ts';
import type { HandlerDeps } from './inputs.ts';
import { orderForwardFailed } from './fulfillment-events.ts';

type Paid = { orderId: number; userId: string; productId: number | undefined; link: string | undefined; amount: number | undefined; source: 'order' | 'run' };

/**
 * A paid order enters fulfilment exactly once: the record's id is the order id, so its insert is
 * the idempotency guard (a redelivered or replayed event hits the existing record and changes
 * nothing; no processed-event mark is needed). It is queued for its provider, waits for operators
 * (manual products), or goes to review when the event lacks what a provider needs (orders placed
 * before these fields existed) — only then is an event recorded, in one transaction with the record.
 */
export async function onOrderPaid(deps: HandlerDeps, event: EventEnvelope, paid: Paid, log: Logger): Promise<void> {
  const model = forwards(deps.connection);
  const now = new Date();
  // Written with the driver (complete, with the schema's defaults), not through mongoose's casting.
  const base: Forward = {
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
    correlationId: event.correlationId,
    createdAt: now,
    updatedAt: now,
  };
  let record: Forward;
  try {
    if (paid.productId === undefined || paid.link === undefined || paid.amount === undefined) {
      record = { ...base, state: 'review', note: 'missing-details' };
      const failed = orderForwardFailed({ orderId: paid.orderId, userId: paid.userId, providerId: null, reason: 'missing-details', detail: 'the event names no product, link or amount', retryAt: null }, causedBy(event));
      const stored = record;
      await inTransaction(deps.connection, async (session) => {
        await model.collection.insertOne(stored as never, { session });
        await appendToOutbox(deps.connection, session, Topics.fulfillment, [failed]);
      });
    } else {
      const mapping = await mappings(deps.connection).findById(paid.productId).lean<Mapping>();
      if (!mapping || mapping.mode === 'manual') record = base;
      else if (mapping.suspendedReason !== null) record = { ...base, state: 'review', providerId: mapping.providerId, providerServiceId: mapping.providerServiceId, note: mapping.suspendedReason };
      else record = { ...base, state: 'queued', providerId: mapping.providerId, providerServiceId: mapping.providerServiceId };
      await model.collection.insertOne(record as never);
    }
  } catch (error) {
    if (isDuplicateKeyError(error, 'forwards')) {
      log.info({ orderId: paid.orderId }, 'order already known to fulfillment');
      return;
    }
    throw error;
  }
  if (record.state === 'queued') deps.wake();
  log.info({ orderId: record._id, state: record.state, providerId: record.providerId, note: record.note }, 'order entered fulfillment');
}

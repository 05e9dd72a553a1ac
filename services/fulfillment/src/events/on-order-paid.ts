import { type EventEnvelope, Topics, causedBy } from '@smm/contracts';
import { type Logger, appendToOutbox, handleOnce } from '@smm/platform';
import type { Forward } from '../store/forward.model.ts';
import { forwards } from '../store/forward.model.ts';
import { type Mapping, mappings } from '../store/mapping.model.ts';
import type { HandlerDeps } from './inputs.ts';
import { orderForwardFailed } from './fulfillment-events.ts';

export const consumerName = 'fulfillment';

type Paid = { orderId: number; userId: string; productId: number | undefined; link: string | undefined; amount: number | undefined; source: 'order' | 'run' };

/**
 * A paid order enters fulfilment exactly once (the record's id is the order id, written with the
 * processed-event mark): queued for its provider, waiting for operators (manual products), or in
 * review when the event lacks what a provider needs (orders placed before these fields existed).
 */
export async function onOrderPaid(deps: HandlerDeps, event: EventEnvelope, paid: Paid, log: Logger): Promise<void> {
  const model = forwards(deps.connection);
  let created: Forward | null = null;
  await handleOnce(deps.connection, consumerName, event, async (session) => {
    created = null;
    if (await model.exists({ _id: paid.orderId }).session(session)) return;
    const now = new Date();
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
      note: null,
      providerStatus: null,
      status: 0,
      startCount: null,
      remains: paid.amount ?? 0,
      syncedAt: null,
      orderPatch: null,
      correlationId: event.correlationId,
      createdAt: now,
      updatedAt: now,
    };
    let record: Forward;
    if (paid.productId === undefined || paid.link === undefined || paid.amount === undefined) {
      record = { ...base, state: 'review', note: 'missing-details' };
      const failed = orderForwardFailed({ orderId: paid.orderId, userId: paid.userId, providerId: null, reason: 'missing-details', detail: 'the event names no product, link or amount', retryAt: null }, causedBy(event));
      await appendToOutbox(deps.connection, session, Topics.fulfillment, [failed]);
    } else {
      const mapping = await mappings(deps.connection).findById(paid.productId).session(session).lean<Mapping>();
      if (!mapping || mapping.mode === 'manual') record = base;
      else if (mapping.suspendedReason !== null) record = { ...base, state: 'review', providerId: mapping.providerId, providerServiceId: mapping.providerServiceId, note: mapping.suspendedReason };
      else record = { ...base, state: 'queued', providerId: mapping.providerId, providerServiceId: mapping.providerServiceId };
    }
    await model.create([record], { session });
    created = record;
  });
  const record = created as Forward | null;
  if (!record) {
    log.info({ orderId: paid.orderId }, 'order already known to fulfillment');
    return;
  }
  if (record.state === 'queued') deps.wake();
  log.info({ orderId: record._id, state: record.state, providerId: record.providerId, note: record.note }, 'order entered fulfillment');
}

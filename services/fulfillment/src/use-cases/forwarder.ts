import { randomUUID } from 'node:crypto';
import { Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { addOrder } from '../clients/provider-api.ts';
import { classifyAdd, keptAnswer } from '../domain/add-outcome.ts';
import { orderForwardFailed } from '../events/fulfillment-events.ts';
import { type Forward, forwards } from '../store/forward.model.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { Periodic } from './periodic.ts';
import { forwardDuration } from './forward-metrics.ts';
import { recordOutcome, unknownOutcome } from './record-outcome.ts';

export type ForwarderOptions = {
  /** Orders in flight at once per provider. */
  concurrency: number;
  /**
   * Longest pause between passes: new orders and freed slots start one at once, and a forward
   * queued again by this process wakes the forwarder when it falls due; the poll finds what other
   * replicas queued and what a restart left.
   */
  pollMs: number;
  /** A claim not marked sent by then belongs to a dead worker (it never called): back to the queue. */
  claimStaleMs?: number;
  /** Called after a pass changed something the order patcher must carry. */
  onOrderPatch?: () => void;
};

/**
 * Forwards queued orders with `add`, claim before call. Each provider has its own slots, so a slow
 * or dead provider only ever holds its own orders. After a crash the record says where it was:
 * `claimed` was never sent (re-queued), `sent` may have reached the provider: re-sent with the same
 * Idempotency-Key where the provider honours it, else review (never resent blindly).
 */
export class Forwarder {
  readonly owner = randomUUID();
  private readonly inFlight = new Map<number, number>();
  private readonly running = new Set<Promise<void>>();
  private readonly loop: Periodic;
  private stopped = true;

  constructor(
    private readonly deps: FulfillmentDeps,
    private readonly options: ForwarderOptions,
  ) {
    this.loop = new Periodic('forward pass', options.pollMs, () => this.runPass(), deps.logger);
  }

  start(): void {
    this.stopped = false;
    this.loop.start(0);
  }

  /** Look at the queue now (a new order arrived, or a slot freed). */
  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
  }

  private async runPass(): Promise<void> {
    await this.recoverStale();
    const model = forwards(this.deps.connection);
    const now = new Date();
    const providerIds = (await model.distinct('providerId', { state: 'queued', nextAttemptAt: { $lte: now } })) as Array<number | null>;
    for (const providerId of providerIds) {
      if (providerId === null) continue;
      while ((this.inFlight.get(providerId) ?? 0) < this.options.concurrency && !this.stopped) {
        const claimed = await model
          .findOneAndUpdate(
            { state: 'queued', providerId, nextAttemptAt: { $lte: now } },
            { $set: { state: 'claimed', claimedBy: this.owner, claimedAt: new Date(), updatedAt: new Date() } },
            { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
          )
          .lean<Forward>();
        if (!claimed) break;
        this.launch(providerId, claimed);
      }
    }
  }

  private launch(providerId: number, record: Forward): void {
    this.inFlight.set(providerId, (this.inFlight.get(providerId) ?? 0) + 1);
    const work = this.forward(record)
      .catch((error: unknown) => this.deps.logger.error({ err: (error as Error).message, orderId: record._id }, 'forward failed unexpectedly'))
      .finally(() => {
        this.inFlight.set(providerId, (this.inFlight.get(providerId) ?? 1) - 1);
        this.running.delete(work);
        this.kick();
      });
    this.running.add(work);
  }

  private async forward(record: Forward): Promise<void> {
    const { deps } = this;
    const model = forwards(deps.connection);
    const log = deps.logger.child({ orderId: record._id, providerId: record.providerId, correlationId: record.correlationId });
    const provider = record.providerId === null ? null : await deps.providers.find(record.providerId);
    if (!provider || record.link === null || record.amount === null || record.providerServiceId === null) {
      await this.toReview(record, 'provider-error', provider ? 'order lacks link or amount' : 'provider no longer exists');
      return;
    }
    // The mark that a call may happen, with the reference the call carries: committed before the
    // request leaves, so after a crash a re-send can carry the same one.
    const reference = record.reference ?? `fwd-${record._id}-${randomUUID()}`;
    const marked = await model.updateOne({ _id: record._id, state: 'claimed', claimedBy: this.owner }, { $set: { state: 'sent', sentAt: new Date(), reference, updatedAt: new Date() } });
    if (marked.modifiedCount !== 1) {
      log.warn('claim lost before sending; not sent');
      return;
    }
    const started = Date.now();
    const order = { service: record.providerServiceId, link: record.link, quantity: record.amount, reference, serviceType: record.serviceType ?? 'default', details: record.details, subscription: record.subscription };
    const answer = await addOrder(endpointOf(deps, provider), order, deps.providerTimeoutMs);
    const outcome = classifyAdd(answer);
    // Provider health (dashboard, providers screen): a call without a usable answer is a failure;
    // the provider's own refusals (funds, link) are answers.
    if (answer.kind === 'fault' || answer.kind === 'invalid') await deps.providers.callFailed(provider._id, 'add', answer.detail).catch(() => undefined);
    else if (answer.kind === 'order') await deps.providers.callSucceeded(provider._id, 'add').catch(() => undefined);
    // The answer exists only in memory now: a passing database error must not turn a clear answer
    // into a review item, so recording it is retried a few times before giving up to the recovery.
    let applied = false;
    for (let attempt = 1; ; attempt++) {
      try {
        const recorded = await recordOutcome(deps, { ...record, state: 'sent', reference }, this.owner, outcome, provider.idempotentAdd === true, new Date(), keptAnswer(answer));
        applied = recorded.applied;
        // Queued again for later: the pass that sends it runs when it falls due, not at the next poll.
        if (recorded.retryAt) this.loop.wakeAt(recorded.retryAt);
        break;
      } catch (error) {
        if (attempt >= 5) throw error;
        log.warn({ err: (error as Error).message, attempt }, 'recording the provider answer failed; retrying');
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
    deps.relay.kick();
    if (applied) forwardDuration.observeSince({ outcome: outcome.kind }, record.createdAt);
    if (outcome.kind === 'refused') this.options.onOrderPatch?.();
    log.info({ outcome: outcome.kind, ms: Date.now() - started, applied, detail: 'detail' in outcome ? outcome.detail : undefined }, 'order forward attempted');
  }

  private async toReview(record: Forward, reason: 'provider-error' | 'unknown-outcome', detail: string): Promise<void> {
    const applied = await inTransaction(this.deps.connection, async (session) => {
      const updated = await forwards(this.deps.connection).updateOne(
        { _id: record._id, state: record.state, claimedBy: record.claimedBy },
        { $set: { state: 'review', note: `${reason}: ${detail}`, updatedAt: new Date() } },
        { session },
      );
      if (updated.modifiedCount !== 1) return false;
      const event = orderForwardFailed({ orderId: record._id, userId: record.userId, providerId: record.providerId, reason, detail, retryAt: null }, { correlationId: record.correlationId, causationId: null });
      await appendToOutbox(this.deps.connection, session, Topics.fulfillment, [event]);
      return true;
    });
    if (applied) {
      this.deps.relay.kick();
      this.deps.logger.warn({ orderId: record._id, reason, detail }, 'order put in review');
    }
  }

  /**
   * Claims of dead workers. `claimed` past its lease was never sent: queue it again. `sent` past
   * the call timeout (plus the lease) had its answer lost with the worker: the provider may hold
   * the order, so it goes to review and is never resent by itself.
   */
  private async recoverStale(): Promise<void> {
    const model = forwards(this.deps.connection);
    const staleMs = this.options.claimStaleMs ?? 30_000;
    const now = Date.now();
    const requeued = await model.updateMany(
      { state: 'claimed', claimedAt: { $lt: new Date(now - staleMs) } },
      { $set: { state: 'queued', claimedBy: null, claimedAt: null, updatedAt: new Date() } },
    );
    if (requeued.modifiedCount > 0) this.deps.logger.warn({ orders: requeued.modifiedCount }, 'stale claims queued again (never sent)');
    const lost = await model.find({ state: 'sent', sentAt: { $lt: new Date(now - staleMs - this.deps.providerTimeoutMs) } }).limit(100).lean<Forward[]>();
    for (const record of lost) {
      const provider = record.providerId === null ? null : await this.deps.providers.find(record.providerId);
      if (provider?.idempotentAdd === true) await this.resendUnknown(record, 'the worker stopped while the provider was being called');
      else await this.toReview(record, 'unknown-outcome', 'the worker stopped while the provider was being called');
    }
  }

  /** A lost `sent` at a provider that honours Idempotency-Key: queued again with its reference. */
  private async resendUnknown(record: Forward, detail: string): Promise<void> {
    const next = unknownOutcome(record, true, detail, this.deps.retryBaseMs);
    const applied = await inTransaction(this.deps.connection, async (session) => {
      const updated = await forwards(this.deps.connection).updateOne({ _id: record._id, state: 'sent', claimedBy: record.claimedBy }, { $set: { ...next.set, updatedAt: new Date() } }, { session });
      if (updated.modifiedCount !== 1) return false;
      const event = orderForwardFailed({ orderId: record._id, userId: record.userId, providerId: record.providerId, reason: 'unknown-outcome', detail, retryAt: next.retryAt }, { correlationId: record.correlationId, causationId: null });
      await appendToOutbox(this.deps.connection, session, Topics.fulfillment, [event]);
      return true;
    });
    if (applied) {
      this.deps.relay.kick();
      if (next.retryAt) this.loop.wakeAt(next.retryAt);
      this.deps.logger.warn({ orderId: record._id, state: next.set.state, detail }, 'lost send reconciled by re-sending its reference');
    }
  }
}

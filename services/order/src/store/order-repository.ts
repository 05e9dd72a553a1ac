import type { EventEnvelope, OrderDetails, ServiceType } from '@smm/contracts';
import { type Connection, type KeptEvent, documentWriteErrors, handOverInserted, handOverKept, keepEvent, withEvent } from '@smm/platform';
import type { ClientSession, Model } from 'mongoose';
import type { PaymentChange, PaymentFacts } from '../domain/payment.ts';
import { type AutoOrder, type Order, type StoredSubscription, orderCollections } from './models.ts';
import { type Page, type Paging, newestFirst } from './newest-first.ts';

export type Kind = 'order' | 'auto';

/** What the payment leg reads of an order: the guard's facts and what OrderAccepted carries. */
export type PaymentRecord = PaymentFacts & { _id: number; createdAt: Date; serviceId: number; link: string; amount: number; runs?: number; interval?: number; serviceType?: ServiceType; details?: OrderDetails; subscription?: StoredSubscription };

export type PaymentWrite = { kind: Kind; id: number; guard: Record<string, unknown>; set: PaymentChange | { refundedDeci: number } };

/** A payment settled on an order still awaiting it, with the event that says so (OrderAccepted or OrderRejected). */
export type Settlement = { kind: Kind; id: number; guard: Record<string, unknown>; set: PaymentChange; event: EventEnvelope };

const factsProjection = { createdAt: 1, payment: 1, abandoned: 1, userId: 1, chargeDeci: 1, refundedDeci: 1, serviceId: 1, link: 1, amount: 1, runs: 1, interval: 1, serviceType: 1, details: 1, subscription: 1 };

/** A placement found another of the member's orders holding its Idempotency-Key (placed meanwhile). */
export class RequestKeyTaken extends Error {
  constructor() {
    super('another order holds this Idempotency-Key');
  }
}

/**
 * An insert whose outcome is unknown: the connection was lost (or the server failed) before it
 * answered, so the documents may or may not be stored. Inserting them again tells (their ids are
 * their own: a duplicate _id means stored).
 */
export class InsertOutcomeUnknown extends Error {
  constructor(override readonly cause: unknown) {
    super(`insert outcome unknown: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** A duplicate key on the Idempotency-Key index (its key pattern, or the index named in the message). */
const onRequestKey = (e: { errmsg?: string; keyPattern?: Record<string, unknown>; err?: { keyPattern?: Record<string, unknown> } }) =>
  'request.key' in (e.keyPattern ?? e.err?.keyPattern ?? {}) || /index: userId_1_request\.key_1 /.test(e.errmsg ?? '');

/**
 * Orders and auto orders as the use cases read and change them (the kind names the collection).
 * Writes go through the driver: the documents are built complete by the use cases, and mongoose's
 * casting was a large share of the CPU per order. Every change is guarded by the state it was
 * decided on; a guard that no longer matches fails the caller's transaction (it is retried).
 */
export class OrderRepository {
  /**
   * The payment facts of orders this process stored awaiting payment and has not seen settled, by
   * `<kind>:<id>` (oldest first, at most `rememberedLimit`): a payment answer for one of them is
   * decided without a read. Only ever a starting point — every settlement is a write guarded by the
   * awaiting state, and one that finds the order changed is decided again from a read.
   */
  private readonly remembered = new Map<string, PaymentRecord>();
  private static readonly rememberedLimit = 10_000;

  constructor(
    private readonly orders: Model<Order>,
    private readonly autoOrders: Model<AutoOrder>,
    /** The highest id handed out so far: where "newest first" starts. */
    private readonly lastOrderId: () => Promise<number>,
  ) {}

  private collection(kind: Kind) {
    return (kind === 'auto' ? this.autoOrders : this.orders).collection;
  }

  /** Stores orders in the caller's transaction (an auto order's runs; their events go to the outbox). */
  async insert(docs: ReadonlyArray<{ kind: Kind; doc: Order | AutoOrder }>, session: ClientSession): Promise<void> {
    for (const kind of ['order', 'auto'] as const) {
      const mine = docs.filter((d) => d.kind === kind).map((d) => d.doc);
      if (mine.length > 0) await this.collection(kind).insertMany(mine as never[], { session, ordered: true });
    }
  }

  /**
   * Stores new orders and auto orders (awaiting payment), each with its OrderPlaced kept in the
   * document (one insert per kind, no transaction: a document and its event are one write), and
   * hands the events of the stored ones to the outbox relay. Resolves with what failed, by index;
   * a document found already stored (a driver retry after a lost answer) counts as stored.
   */
  async insertPlaced(connection: Connection, topic: string, placed: ReadonlyArray<{ kind: Kind; doc: Order | AutoOrder; event: EventEnvelope }>): Promise<Map<number, unknown>> {
    const failed = new Map<number, unknown>();
    for (const kind of ['order', 'auto'] as const) {
      const mine = placed.flatMap((p, index) => (p.kind === kind ? [{ index, doc: withEvent(p.doc, topic, p.event) }] : []));
      if (mine.length === 0) continue;
      // By position in `mine`. E11000 on _id: the id is this placement's own (ids are handed out once), so it
      // is stored; on the Idempotency-Key index, another order holds the member's key (RequestKeyTaken).
      const refused = new Map<number, unknown>();
      try {
        await this.collection(kind).insertMany(mine.map((m) => m.doc) as never[], { ordered: false });
      } catch (error) {
        // Only the server's answer for every document tells which are stored: a lost connection
        // comes as the same error with no write errors listed, and then none of them may be
        // announced (its OrderPlaced would charge for an order that may not exist).
        const writeErrors = documentWriteErrors(error, mine.length);
        if (!writeErrors) {
          for (const m of mine) failed.set(m.index, new InsertOutcomeUnknown(error));
          continue;
        }
        for (const e of writeErrors) {
          if (e.code !== 11000) refused.set(e.index, e);
          else if (onRequestKey(e)) refused.set(e.index, new RequestKeyTaken());
        }
      }
      for (const [i, err] of refused) failed.set(mine[i]!.index, err);
      const stored = mine.filter((_, i) => !refused.has(i)).map((m) => m.doc);
      for (const doc of stored) this.remember(kind, doc);
      handOverInserted(connection, orderCollections[kind], stored);
    }
    return failed;
  }

  /** Keeps what a facts read would find of a document just stored (the fields of `factsProjection`). */
  private remember(kind: Kind, doc: Order | AutoOrder): void {
    const stored = doc as unknown as Record<string, unknown>;
    const facts = Object.fromEntries(['_id', ...Object.keys(factsProjection)].filter((k) => stored[k] !== undefined).map((k) => [k, stored[k]]));
    this.remembered.set(`${kind}:${doc._id}`, facts as PaymentRecord);
    if (this.remembered.size > OrderRepository.rememberedLimit) this.remembered.delete(this.remembered.keys().next().value!);
  }

  /**
   * The payment facts of these orders, keyed `<kind>:<id>` (copies: the caller may change them).
   * With `remembered`, those of orders this process stored and has not seen settled come from
   * memory, unread — possibly stale, so only for a decision whose write is guarded.
   */
  async paymentFacts(refs: ReadonlyArray<{ kind: Kind; id: number }>, options: { remembered?: boolean } = {}): Promise<Map<string, PaymentRecord>> {
    const found = new Map<string, PaymentRecord>();
    for (const kind of ['order', 'auto'] as const) {
      let ids = [...new Set(refs.filter((r) => r.kind === kind).map((r) => r.id))];
      if (options.remembered) {
        ids = ids.filter((id) => {
          const known = this.remembered.get(`${kind}:${id}`);
          if (known) found.set(`${kind}:${id}`, { ...known });
          return !known;
        });
      }
      if (ids.length === 0) continue;
      const docs = await this.collection(kind).find({ _id: { $in: ids } } as never, { projection: factsProjection }).toArray();
      for (const doc of docs as unknown as PaymentRecord[]) found.set(`${kind}:${doc._id}`, doc);
    }
    return found;
  }

  /**
   * Settles payments without a transaction: each order's change and its event, kept in the order
   * document (its OrderPlaced, the only earlier event, is kept there too, so they stay in order),
   * are one single-document write, guarded by the awaiting state the decision read. The events of
   * the applied ones go to the relay. Resolves with whether each applied: one that did not found
   * its order settled meanwhile (another delivery of the answer, or the member's wait given up),
   * which is then the order's outcome.
   */
  async settle(connection: Connection, topic: string, settlements: readonly Settlement[]): Promise<boolean[]> {
    const applied = settlements.map(() => true);
    // Applied or beaten, none of these orders awaits payment any more.
    for (const s of settlements) this.remembered.delete(`${s.kind}:${s.id}`);
    for (const kind of ['order', 'auto'] as const) {
      const mine = settlements.flatMap((s, index) => (s.kind === kind ? [{ index, s, keep: keepEvent(topic, s.event) }] : []));
      if (mine.length === 0) continue;
      const collection = this.collection(kind);
      const result = await collection.bulkWrite(
        mine.map(({ s, keep }) => ({ updateOne: { filter: { _id: s.id, ...s.guard } as never, update: { $set: { ...s.set, ...keep.$set }, $push: keep.$push } as never } })),
        { ordered: false },
      );
      let kept: Array<{ _id: unknown; kept: KeptEvent }> = mine.map(({ s, keep }) => ({ _id: s.id, kept: keep.$push.outbox }));
      if (result.matchedCount !== mine.length) {
        // Some guard no longer matched: the ones applied are those whose event the document keeps
        // (or already sent, by a poll in between; those need no hand-over and are not told apart).
        const docs = await collection.find({ _id: { $in: mine.map((m) => m.s.id) } } as never, { projection: { 'outbox.event.eventId': 1 } }).toArray();
        const keptIds = new Set(docs.flatMap((d) => ((d['outbox'] as Array<{ event: { eventId: string } }> | undefined) ?? []).map((k) => k.event.eventId)));
        for (const { index, s } of mine) applied[index] = keptIds.has(s.event.eventId);
        kept = kept.filter((k) => keptIds.has(k.kept.event.eventId));
      }
      handOverKept(connection, orderCollections[kind], kept);
    }
    return applied;
  }

  /** Applies guarded payment changes; a guard that no longer matches fails the transaction (it is retried). */
  async apply(writes: readonly PaymentWrite[], session: ClientSession): Promise<void> {
    for (const kind of ['order', 'auto'] as const) {
      const mine = writes.filter((w) => w.kind === kind);
      if (mine.length === 0) continue;
      const result = await this.collection(kind).bulkWrite(
        mine.map((w) => ({ updateOne: { filter: { _id: w.id, ...w.guard } as never, update: { $set: w.set } } })),
        { session, ordered: true },
      );
      if (result.modifiedCount !== mine.length) throw new Error('an order changed while its payment was applied');
    }
  }

  /**
   * Gives up an order still awaiting payment (the member's wait ended); false when an answer came
   * first. Its Idempotency-Key is free again: a retry under it places anew.
   */
  async giveUp(kind: Kind, id: number, change: PaymentChange, session: ClientSession): Promise<boolean> {
    this.remembered.delete(`${kind}:${id}`);
    const result = await this.collection(kind).updateOne({ _id: id, payment: 'awaiting' } as never, { $set: change, $unset: { request: '' } }, { session });
    return result.modifiedCount === 1;
  }

  /** Lets go of an order's Idempotency-Key (one that outlived a key's lifetime): the key may place again. */
  async releaseRequest(kind: Kind, id: number): Promise<void> {
    await this.collection(kind).updateOne({ _id: id } as never, { $unset: { request: '' } });
  }

  /** The member's order or auto order placed under this Idempotency-Key and not given up, if any. */
  async findByRequest(userId: string, key: string): Promise<{ kind: Kind; order: Order | AutoOrder } | null> {
    const [order, auto] = await Promise.all((['order', 'auto'] as const).map((kind) => this.collection(kind).findOne({ userId, 'request.key': key } as never)));
    if (order) return { kind: 'order', order: order as unknown as Order };
    return auto ? { kind: 'auto', order: auto as unknown as AutoOrder } : null;
  }

  async find(kind: Kind, id: number, session?: ClientSession): Promise<Order | AutoOrder | null> {
    return (await this.collection(kind).findOne({ _id: id } as never, { session })) as unknown as Order | AutoOrder | null;
  }

  async order(id: number, session?: ClientSession): Promise<Order | null> {
    return (await this.orders.collection.findOne({ _id: id } as never, { session })) as unknown as Order | null;
  }

  /** The child orders of an auto order (a subscription's posts), by run. */
  async runOrderIds(autoOrderId: number): Promise<number[]> {
    const runs = await this.orders.collection.find({ autoOrderId } as never, { projection: { _id: 1, run: 1 } }).toArray();
    return runs.sort((a, b) => (a['run'] as number) - (b['run'] as number)).map((r) => r._id as unknown as number);
  }

  /** Ids of live (active or paused) paid subscriptions whose expiry day is over at `now`, oldest expiry first. */
  async dueSubscriptions(now: Date, limit: number): Promise<number[]> {
    const due = await this.autoOrders.collection
      .find({ 'subscription.state': { $in: ['active', 'paused'] }, 'subscription.expiresAt': { $lte: now }, payment: 'paid' }, { projection: { _id: 1 } })
      .sort({ 'subscription.expiresAt': 1 })
      .limit(limit)
      .toArray();
    return due.map((d) => d._id as unknown as number);
  }

  /**
   * The soonest expiry of a live (active or paused) subscription that is paid or still awaiting its
   * payment (it may be paid before it expires); null when there is none.
   */
  async nextSubscriptionExpiry(): Promise<Date | null> {
    const next = await this.autoOrders.collection
      .find({ 'subscription.state': { $in: ['active', 'paused'] }, 'subscription.expiresAt': { $type: 'date' }, payment: { $in: ['awaiting', 'paid'] } }, { projection: { 'subscription.expiresAt': 1 } })
      .sort({ 'subscription.expiresAt': 1 })
      .limit(1)
      .toArray();
    const at = (next[0] as { subscription?: { expiresAt?: unknown } } | undefined)?.subscription?.expiresAt;
    return at instanceof Date ? at : null;
  }

  async autoOrder(id: number, session?: ClientSession): Promise<AutoOrder | null> {
    return (await this.autoOrders.collection.findOne({ _id: id } as never, { session })) as unknown as AutoOrder | null;
  }

  /** `$set` on one order whose fields still equal `guard`; throws when it no longer does. */
  async update(kind: Kind, id: number, guard: Record<string, unknown>, set: Record<string, unknown>, session: ClientSession): Promise<void> {
    const result = await this.collection(kind).updateOne({ ...guard, _id: id } as never, { $set: set }, { session });
    if (result.matchedCount !== 1) throw new Error(`${kind} ${id} changed under the transaction`);
  }

  /** A refund of one of its runs counts against the auto order (`statusAfter` of its current status). */
  async addRunRefund(autoOrderId: number, amountDeci: number, statusAfter: (status: number | null) => number | null, session: ClientSession): Promise<void> {
    const parent = await this.autoOrder(autoOrderId, session);
    if (!parent) return;
    await this.autoOrders.collection.updateOne({ _id: autoOrderId } as never, { $inc: { refundedDeci: amountDeci }, $set: { status: statusAfter(parent.status) } }, { session });
  }

  /** One page of orders, newest first (see newest-first.ts). */
  async orderPage<V>(filter: Record<string, unknown>, paging: Paging, view: (order: Order) => V): Promise<Page<V>> {
    return newestFirst(this.orders, filter, paging, await this.lastOrderId(), view);
  }

  async autoOrderPage<V>(filter: Record<string, unknown>, paging: Paging, view: (auto: AutoOrder) => V): Promise<Page<V>> {
    return newestFirst(this.autoOrders, filter, paging, await this.lastOrderId(), view);
  }

  /** How many paid orders have each of `statuses` (one count each, so each reads the status index). */
  paidPerStatus(statuses: readonly number[]): Promise<number[]> {
    return Promise.all(statuses.map((status) => this.orders.collection.countDocuments({ status, payment: 'paid' } as never)));
  }

  /** Orders and auto orders among `ids` (they share the id sequence), of `userId` when given. */
  async findMany(ids: readonly number[], userId: string | undefined): Promise<{ orders: Order[]; autos: AutoOrder[] }> {
    const filter = { _id: { $in: [...ids] }, ...(userId === undefined ? {} : { userId }) } as never;
    const [orders, autos] = await Promise.all([this.orders.collection.find(filter).toArray(), this.autoOrders.collection.find(filter).toArray()]);
    return { orders: orders as unknown as Order[], autos: autos as unknown as AutoOrder[] };
  }
}

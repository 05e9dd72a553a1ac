import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import type { EventProducer } from '../kafka/producer.ts';
import { trackOutbox } from '../observability/metrics.ts';
import { type AppendedRecord, type EventInDocument, type OutboxRecord, outboxModel, receiveCommitted, upgradeStoredEvents } from './outbox.ts';
import { PublishedMarks, recordKey } from './outbox-marks.ts';
import { AckedOffsets } from './outbox-acked.ts';
import { RelayLease } from './relay-lease.ts';

export type OutboxRelayOptions = {
  connection: Connection;
  producer: EventProducer;
  logger: Logger;
  /**
   * Safety-net poll: records committed by another process (a replica of the service), left by a
   * crash, or committed outside `inTransaction` (those callers `kick()`). Records committed through
   * `inTransaction` are handed over at commit and published at once, without a read.
   */
  intervalMs?: number;
  /**
   * The longest poll interval of an idle relay: each poll that follows no work (nothing handed over,
   * kicked or published since the one before) waits twice as long as the last, up to this (30 s by
   * default), and work brings it back to `intervalMs` (issue 42: an idle relay no longer reads its
   * outbox every second). The price: a record a replica without the lease commits while this one
   * sleeps waits up to this long.
   */
  idleIntervalMs?: number;
  batchSize?: number;
  /** How long a relay's lease lasts without renewal; only the holder publishes. */
  leaseMs?: number;
  /**
   * How long a sent record may wait for its "published" mark, so the marks of everything sent in
   * that time are one write (100 ms by default). Off the send path: it delays nothing but the mark.
   */
  markDelayMs?: number;
  /** Collections whose documents may keep their aggregate's leading events (see `withEvent`, `keepEvent`). */
  documents?: readonly string[];
  /**
   * When Kafka comes back without the tail it had acknowledged (a machine crash before its flush),
   * the records marked published this long before the newest one are published again (5 s by
   * default: longer than the broker's flush interval, 1 s for the embedded broker).
   */
  republishWindowMs?: number;
};

/**
 * Publishes committed outbox records in insertion order (so one aggregate's events stay in order)
 * and marks them sent; on failure it backs off and retries until Kafka accepts, so an event is never
 * dropped (it may be published twice after a crash between send and mark: consumers are
 * idempotent). One relay per service database publishes at a time, held by a lease, so replicas do
 * not reorder each other's events.
 */
export class OutboxRelay {
  private readonly outbox: Model<OutboxRecord>;
  private readonly lease: RelayLease;
  /** Leaves the hand-over of committed records (set while started). */
  private leaveHandOver: (() => void) | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private failures = 0;
  private upgraded = false;
  /** The wait before the next poll: `intervalMs` while there is work, doubling while idle. */
  private pollEveryMs = 1000;
  /** Whether anything was handed over, kicked or published since the last poll. */
  private busySincePoll = false;
  /** Records handed over at commit, waiting to be published (in commit order). */
  private handed: AppendedRecord[] = [];
  /** Whether the next cycle reads the outbox (poll or kick) rather than only publishing what was handed over. */
  private readDue = true;
  /** What was sent and is waiting for, or has just had, its "published" mark. */
  private readonly marks: PublishedMarks;
  /** Where Kafka put what was sent; stored with the marks, checked at start and after a failure. */
  private readonly acked: AckedOffsets;
  /** Whether Kafka's log ends were checked against `acked` since the start or the last failure. */
  private lossChecked = false;

  constructor(private readonly options: OutboxRelayOptions) {
    this.outbox = outboxModel(options.connection);
    this.lease = new RelayLease(options.connection, options.leaseMs ?? 15_000);
    this.acked = new AckedOffsets(options.connection);
    this.marks = new PublishedMarks(options.connection, options.logger, options.markDelayMs ?? 100, () => this.stopped, () => this.acked.write());
  }

  start(): void {
    trackOutbox(this.options.connection, this.options.documents ?? []);
    this.stopped = false;
    this.leaveHandOver?.();
    this.leaveHandOver = receiveCommitted(this.options.connection, this);
    this.readDue = true;
    // The poll is a timer of its own: hand-overs under steady load do not postpone it.
    this.pollEveryMs = this.baseIntervalMs;
    this.busySincePoll = false;
    this.schedulePoll();
    this.wake();
  }

  private get baseIntervalMs(): number {
    return this.options.intervalMs ?? 1000;
  }

  private schedulePoll(): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.poll(), this.pollEveryMs);
  }

  /** The safety-net read; the next one comes sooner after work, later after none (see idleIntervalMs). */
  private poll(): void {
    if (this.stopped) return;
    const idleMax = Math.max(this.baseIntervalMs, this.options.idleIntervalMs ?? 30_000);
    this.pollEveryMs = this.busySincePoll ? this.baseIntervalMs : Math.min(this.pollEveryMs * 2, idleMax);
    this.busySincePoll = false;
    this.readDue = true;
    this.wake();
    this.schedulePoll();
  }

  /** Work arrived: polls follow it at `intervalMs` again (the one planned further out comes sooner). */
  private busy(): void {
    this.busySincePoll = true;
    if (this.pollEveryMs <= this.baseIntervalMs || this.stopped) return;
    this.pollEveryMs = this.baseIntervalMs;
    this.schedulePoll();
  }

  /**
   * Publish now rather than at the next poll, reading the outbox: for records committed outside
   * `inTransaction` (whose records are handed over and published without a call).
   */
  kick(): void {
    if (this.stopped) return;
    this.busy();
    this.readDue = true;
    this.wake();
  }

  /** Committed records handed over by inTransaction: published at once, without reading them back. */
  accept(records: readonly AppendedRecord[]): void {
    if (this.stopped) return;
    this.busy();
    this.handed.push(...records);
    this.wake();
  }

  private wake(): void {
    if (this.running) this.again = true;
    else if (!this.retryTimer) setImmediate(() => this.run()); // while backing off, the retry publishes it
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.leaveHandOver?.();
    this.leaveHandOver = undefined;
    clearTimeout(this.pollTimer);
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.running;
    await this.marks.written();
    this.handed = [];
    await this.lease.release();
  }

  /** Drains everything pending once and marks it published; resolves with how many records were published. */
  async drainOnce(): Promise<number> {
    const published = await this.drain();
    await this.marks.written();
    return published;
  }

  private async drain(): Promise<number> {
    if (!(await this.lease.hold())) return 0;
    if (!this.upgraded) {
      // Once, by the lease holder at start: records and documents stored in an earlier format.
      await upgradeStoredEvents(this.options.connection, this.options.documents ?? []);
      this.upgraded = true;
    }
    const batchSize = this.options.batchSize ?? 500;
    let published = 0;
    for (;;) {
      // Majority read: only records whose commit is durable (on a replica set, on a majority of
      // members), so an event never leaves for a write a failover or crash could still roll back.
      const marksBefore = this.marks.done;
      const batch = await this.outbox.collection
        .find(
          { pending: true },
          { sort: { _id: 1 }, limit: batchSize, projection: { topic: 1, event: 1, trace: 1 }, readConcern: { level: 'majority' } },
        )
        .toArray();
      // Sorted out now: a record sent earlier may have its mark written (and stop waiting for it) while
      // the documents are drained.
      const unsent = this.unsentOf(batch as unknown as AppendedRecord[], marksBefore);
      // Events kept in documents are read after this page and published before it: the events a
      // document keeps are its aggregate's leading ones, committed before any outbox record about
      // that aggregate, so every such record of this page has them read here (or sent earlier).
      published += await this.drainDocuments(batchSize);
      if (batch.length === 0) return published;
      published += await this.publish(unsent);
      if (batch.length < batchSize) return published;
      // A full page of records all waiting for their mark: let the marks land before reading on.
      if (unsent.length === 0) await this.marks.written();
    }
  }

  /** Publishes the pending events kept in documents of the relay's document collections. */
  private async drainDocuments(batchSize: number): Promise<number> {
    let published = 0;
    for (const source of this.options.documents ?? []) {
      for (;;) {
        const marksBefore = this.marks.done;
        const docs = await this.options.connection
          .collection(source)
          .find({ outboxPending: true }, { sort: { _id: 1 }, limit: batchSize, projection: { outbox: 1 }, readConcern: { level: 'majority' } })
          .toArray();
        const records = docs.flatMap((d) => {
          const kept = d['outbox'] as EventInDocument['outbox'] | undefined;
          return Array.isArray(kept) ? kept.map((k) => ({ _id: d._id, source, topic: k.topic, event: k.event, ...(k.trace ? { trace: k.trace } : {}) })) : [];
        });
        const unsent = this.unsentOf(records, marksBefore);
        published += await this.publish(unsent);
        if (docs.length < batchSize) break;
        if (unsent.length === 0) await this.marks.written();
      }
    }
    return published;
  }

  /**
   * Of records just read back, those to send (see `PublishedMarks.unsent`); one also waiting in the
   * hand-over queue is sent from the read, and leaves the queue. Call right after the read, before
   * anything else is awaited.
   */
  private unsentOf(batch: readonly AppendedRecord[], marksBefore: number): AppendedRecord[] {
    if (batch.length === 0) return [];
    if (this.handed.length > 0) {
      const read = new Set(batch.map(recordKey));
      this.handed = this.handed.filter((r) => !read.has(recordKey(r)));
    }
    return this.marks.unsent(batch, marksBefore);
  }

  /** Publishes what was handed over at commit, without reading it back; resolves with how many. */
  private async publishHanded(): Promise<number> {
    if (this.handed.length === 0) return 0;
    if (!(await this.lease.hold())) {
      this.handed = []; // the lease holder publishes them from its poll
      return 0;
    }
    let published = 0;
    while (this.handed.length > 0) {
      const batch = this.handed.slice(0, this.options.batchSize ?? 500);
      // A poll may have read (and sent) a record between its commit and its hand-over.
      published += await this.publish(this.marks.notWaiting(batch));
      this.handed.splice(0, batch.length);
    }
    return published;
  }

  /** Sends records in their order (consecutive records of one topic in one send) and marks them published. */
  private async publish(batch: readonly AppendedRecord[]): Promise<number> {
    let published = 0;
    for (let start = 0; start < batch.length; ) {
      let end = start;
      while (end < batch.length && batch[end]!.topic === batch[start]!.topic) end++;
      const run = batch.slice(start, end);
      try {
        this.acked.sent(run[0]!.topic, await this.options.producer.publish(run[0]!.topic, run.map((r) => r.event), run.map((r) => r.trace)));
      } catch (error) {
        const ids = run.filter((r) => r.source === undefined).map((r) => r._id);
        if (ids.length > 0) await this.outbox.collection.updateMany({ _id: { $in: ids } } as never, { $inc: { attempts: 1 } });
        throw error;
      }
      this.marks.sent(run);
      published += run.length;
      start = end;
    }
    return published;
  }

  /**
   * Publishes again what Kafka lost: when a partition this relay sent to ends at or before the last
   * batch Kafka acknowledged for it (the broker restarted after a machine crash, before flushing),
   * every record of that topic marked published within `republishWindowMs` of the newest one is sent
   * again, in the order it was first sent (consumers drop what they already have by event id).
   */
  private async republishLost(): Promise<void> {
    await this.acked.load();
    const topics = this.acked.topics();
    if (topics.length === 0) return;
    const lost = this.acked.lostTopics(await this.options.producer.logEnds(topics));
    if (lost.length === 0) return;
    const windowMs = this.options.republishWindowMs ?? 5_000;
    let again = 0;
    for (const topic of lost) {
      const newest = await this.outbox.collection.find({ topic, publishedAt: { $gt: new Date(0) } }, { sort: { publishedAt: -1 }, limit: 1, projection: { publishedAt: 1 } }).toArray();
      const last = newest[0]?.publishedAt;
      if (!last) continue;
      // A document's events are archived here when marked, with their own time as createdAt: sorted
      // by it they come before the outbox records sent after them, as they were sent.
      const window = await this.outbox.collection
        .find({ topic, publishedAt: { $gte: new Date(last.getTime() - windowMs) } }, { sort: { createdAt: 1, _id: 1 }, projection: { topic: 1, event: 1, trace: 1 } })
        .toArray();
      again += await this.publish(window as unknown as AppendedRecord[]);
    }
    this.options.logger.warn({ topics: lost, republished: again, windowMs }, 'Kafka lost acknowledged events (unclean restart); published the last window again');
  }

  private run(): void {
    if (this.running || this.stopped) return;
    this.running = this.cycle().finally(() => {
      this.running = undefined;
      // Work that arrived while the cycle was finishing is not left for the next poll.
      if (this.again && !this.stopped) this.wake();
    });
  }

  private async cycle(): Promise<void> {
    try {
      if (!this.lossChecked && (await this.lease.hold())) {
        await this.republishLost();
        this.lossChecked = true;
      }
      do {
        this.again = false;
        let published = await this.publishHanded();
        if (this.readDue) {
          this.readDue = false;
          published += await this.drain();
        }
        if (published > 0) {
          this.busySincePoll = true;
          this.options.logger.debug({ published }, 'outbox published');
        }
      } while (this.again && !this.stopped);
      this.failures = 0;
    } catch (error) {
      this.failures++;
      // Kafka may have been down and come back without its unflushed tail: check again before going on.
      this.lossChecked = false;
      const backoff = Math.min(200 * 2 ** this.failures, 10_000);
      this.options.logger.warn({ err: (error as Error).message, failures: this.failures, retryInMs: backoff }, 'outbox publish failed; will retry');
      if (this.stopped) return;
      // The retry reads what failed back from the outbox (the hand-over queue keeps its records too).
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.readDue = true;
        this.run();
      }, backoff);
    }
  }
}

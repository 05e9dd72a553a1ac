import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import { type AppendedRecord, type OutboxRecord, outboxModel } from './outbox.ts';
import { documentWriteErrors } from './write-errors.ts';

/** A record's identity for the relay: its outbox id, or its document's collection and id with its event's id. */
export function recordKey(record: AppendedRecord): string {
  return record.source === undefined ? String(record._id) : `${record.source}:${String(record._id)}:${record.event.eventId}`;
}

/**
 * The relay's "published" marks, written off the send path: one write for everything sent within
 * `delayMs` of the first unmarked record. Records sent while a write is in flight wait for the next
 * one, which also waits out the delay: under steady load the marks are one write per `delayMs`, not
 * one after another as fast as the database answers. A failed mark is retried with the next one
 * (reads skip records waiting here); a crash before it only means the records are sent again,
 * which consumers are built for.
 */
export class PublishedMarks {
  private readonly outbox: Model<OutboxRecord>;
  /** Sent records not yet marked so (by key); a read skips these records. */
  private readonly unmarked = new Map<string, AppendedRecord>();
  private marking: Promise<void> | undefined;
  /** Mark writes completed so far, and the records of the latest ones (see `unsent`). */
  private marksDone = 0;
  private readonly recentMarks: Array<{ mark: number; keys: string[] }> = [];
  /** Whether the latest mark write failed (a stopped relay gives up on its marks then). */
  private markFailed = false;
  /** Set while the first mark not yet written waits out the delay for others to join it. */
  private markTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly logger: Logger,
    private readonly delayMs: number,
    private readonly stopped: () => boolean,
    /** Written with every mark (the relay's acknowledged offsets), so it is never older than a mark. */
    private readonly alongside: () => Promise<void> = async () => undefined,
  ) {
    this.outbox = outboxModel(connection);
  }

  /** Mark writes completed so far: taken before a read, given to `unsent` with what it found. */
  get done(): number {
    return this.marksDone;
  }

  /** Records just sent: marked within the delay. */
  sent(records: readonly AppendedRecord[]): void {
    for (const r of records) this.unmarked.set(recordKey(r), r);
    this.markSoon();
  }

  /** Of records given to publish, those not already sent and waiting for their mark. */
  notWaiting(records: readonly AppendedRecord[]): readonly AppendedRecord[] {
    return this.unmarked.size === 0 ? records : records.filter((r) => !this.unmarked.has(recordKey(r)));
  }

  /**
   * Of records just read back, those to send: not those already sent whose mark is still being
   * written, nor those whose mark was written after the read was sent (`marksBefore`: `done` then)
   * — the read may have been answered before the mark and handled after it.
   */
  unsent(records: readonly AppendedRecord[], marksBefore: number): AppendedRecord[] {
    const markedSince = new Set(this.recentMarks.filter((m) => m.mark > marksBefore).flatMap((m) => m.keys));
    if (this.unmarked.size === 0 && markedSince.size === 0) return [...records];
    return records.filter((r) => !this.unmarked.has(recordKey(r)) && !markedSince.has(recordKey(r)));
  }

  /** Resolves when everything sent so far is marked (or, once stopped, when marking gave up); waits out no delay. */
  async written(): Promise<void> {
    for (;;) {
      if (this.marking) {
        await this.marking;
        continue;
      }
      if (this.unmarked.size === 0 || (this.stopped() && this.markFailed)) return;
      this.markNow();
    }
  }

  private markSoon(): void {
    if (this.marking || this.markTimer || this.unmarked.size === 0) return;
    this.markTimer = setTimeout(() => this.markNow(), this.delayMs);
  }

  private markNow(): void {
    clearTimeout(this.markTimer);
    this.markTimer = undefined;
    if (this.marking || this.unmarked.size === 0) return;
    this.marking = this.mark([...this.unmarked.values()]).finally(() => {
      this.marking = undefined;
      if (!this.stopped()) this.markSoon();
    });
  }

  /** One mark write for the records given; a failure leaves them unmarked for the next one. */
  private async mark(records: readonly AppendedRecord[]): Promise<void> {
    const bySource = new Map<string | undefined, AppendedRecord[]>();
    for (const r of records) {
      const same = bySource.get(r.source);
      if (same) same.push(r);
      else bySource.set(r.source, [r]);
    }
    try {
      const publishedAt = new Date();
      const kept = records.filter((r) => r.source !== undefined);
      // A document's event moves to the outbox as a published record before it leaves the
      // document: readable there for support, expired like the others, and sent again after a
      // restore like every outbox record (a retry finds it there already).
      if (kept.length > 0) await this.archive(kept, publishedAt);
      await Promise.all([
        this.alongside(),
        ...[...bySource].map(([source, sent]) =>
          source === undefined
            ? this.outbox.collection.updateMany({ _id: { $in: sent.map((r) => r._id) } } as never, { $set: { publishedAt }, $unset: { pending: '' } })
            : this.unkeep(source, sent),
        ),
      ]);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, records: records.length }, 'outbox publish mark failed; will retry');
      this.markFailed = true;
      if (!this.stopped()) await new Promise((r) => setTimeout(r, 500));
      return;
    }
    this.markFailed = false;
    const keys = records.map(recordKey);
    this.marksDone++;
    this.recentMarks.push({ mark: this.marksDone, keys });
    if (this.recentMarks.length > 16) this.recentMarks.shift();
    for (const key of keys) this.unmarked.delete(key);
  }

  /**
   * Takes sent events out of their documents; a document whose list is then empty loses both
   * fields (an event kept meanwhile keeps the list, and the document, pending). Both steps are
   * statements of one ordered update command: one round trip.
   */
  private async unkeep(source: string, sent: readonly AppendedRecord[]): Promise<void> {
    const ids = [...new Set(sent.map((r) => r._id))];
    await this.connection.collection(source).bulkWrite(
      [
        { updateMany: { filter: { _id: { $in: ids } } as never, update: { $pull: { outbox: { 'event.eventId': { $in: sent.map((r) => r.event.eventId) } } } } as never } },
        { updateMany: { filter: { _id: { $in: ids }, outbox: { $size: 0 } } as never, update: { $unset: { outbox: '', outboxPending: '' } } } },
      ],
      { ordered: true },
    );
  }

  /** Stores sent document events in the outbox as published records; ones already there are left as they are. */
  private async archive(records: readonly AppendedRecord[], publishedAt: Date): Promise<void> {
    const docs = records.map((r) => {
      const occurredAt = new Date(r.event.occurredAt);
      return {
        eventId: r.event.eventId,
        topic: r.topic,
        event: r.event,
        createdAt: Number.isNaN(occurredAt.getTime()) ? publishedAt : occurredAt,
        publishedAt,
        attempts: 0,
        ...(r.trace ? { trace: r.trace } : {}),
      };
    });
    try {
      await this.outbox.collection.insertMany(docs, { ordered: false });
    } catch (error) {
      // Only records refused as already there count as written (a lost connection lists no errors).
      const writeErrors = documentWriteErrors(error, docs.length);
      if (!writeErrors || writeErrors.some((e) => e.code !== 11000)) throw error;
    }
  }
}

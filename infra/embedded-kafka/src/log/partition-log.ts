import fs from 'node:fs';
import type { Logger } from 'pino';
import { ErrorCode, type ErrorCodeValue } from '../protocol/error-codes.ts';
import { parseBatches, setBaseOffset } from './record-batch.ts';
import { firstRecordAtOrAfter } from './record-timestamps.ts';
import { Segment, type BatchEntry } from './segment.ts';
import { ProducerStateTable } from './producer-state.ts';
import { GroupSync } from './group-sync.ts';
import type { LatencyStats } from '../stats.ts';

export interface LogConfig {
  segmentBytes: number;
  /** Per partition; -1 = unlimited. Disk use stays under retentionBytes + segmentBytes. */
  retentionBytes: number;
  /** -1 = unlimited. Measured from a segment's last write. */
  retentionMs: number;
  fsyncStats?: LatencyStats;
}

export type AppendResult =
  | { error: typeof ErrorCode.None; baseOffset: number; appended: boolean }
  | { error: Exclude<ErrorCodeValue, 0>; baseOffset: -1; appended: false };

export type ReadResult = { error: typeof ErrorCode.None; chunks: Buffer[]; bytes: number } | { error: typeof ErrorCode.OffsetOutOfRange };

/** The ordered segments of one topic-partition, plus the idempotent-producer state rebuilt from them. */
export class PartitionLog {
  private readonly segments: Segment[] = [];
  private readonly producers = new ProducerStateTable();
  private readonly syncer: GroupSync;
  /** Appended since the last flush (interval flush, roll, close): what a machine crash could still lose. */
  private unflushed = false;

  constructor(
    readonly dir: string,
    readonly topic: string,
    readonly partition: number,
    private readonly config: LogConfig,
    private readonly logger: Logger,
  ) {
    this.syncer = new GroupSync(() => {
      const seg = this.active;
      return { fd: seg.fd, gone: () => seg.closed };
    }, config.fsyncStats);
    fs.mkdirSync(dir, { recursive: true });
    const names = fs
      .readdirSync(dir)
      .filter((n) => /^\d{20}\.log$/.test(n))
      .sort();
    names.forEach((name, i) => {
      const seg = Segment.recover(dir, name, i === names.length - 1, logger);
      // A gap between segments means the later ones cannot be trusted (should never happen).
      const prev = this.segments[this.segments.length - 1];
      if (prev && seg.baseOffset !== prev.nextOffset) {
        logger.warn({ topic, partition, file: seg.file, expected: prev.nextOffset }, 'dropped discontinuous segment');
        seg.delete();
        return;
      }
      this.segments.push(seg);
      for (const e of seg.entries) this.producers.observe(e);
    });
    if (this.segments.length === 0) this.segments.push(Segment.create(dir, 0));
  }

  private get active(): Segment {
    return this.segments[this.segments.length - 1] as Segment;
  }

  get logStartOffset(): number {
    return (this.segments[0] as Segment).baseOffset;
  }

  get highWatermark(): number {
    return this.active.nextOffset;
  }

  get sizeBytes(): number {
    let n = 0;
    for (const s of this.segments) n += s.size;
    return n;
  }

  /**
   * Appends the batches of one produce request, assigning offsets by patching baseOffset.
   * The data is handed to the OS before this returns, so it survives a crash of this process.
   */
  append(records: Buffer): AppendResult {
    const parsed = parseBatches(records);
    if (parsed.error !== null || parsed.batches.length === 0) {
      return { error: parsed.error?.startsWith('unsupported magic') ? ErrorCode.UnsupportedForMessageFormat : ErrorCode.CorruptMessage, baseOffset: -1, appended: false };
    }
    for (const b of parsed.batches) {
      if (b.transactional) return { error: ErrorCode.TransactionalIdAuthorizationFailed, baseOffset: -1, appended: false };
    }
    const first = parsed.batches[0];
    if (first && first.producerId >= 0) {
      const check = this.producers.check(first.producerId, first.producerEpoch, first.baseSequence, parsed.batches);
      if (check.kind === 'duplicate') return { error: ErrorCode.None, baseOffset: check.baseOffset, appended: false };
      if (check.kind === 'error') return { error: check.error, baseOffset: -1, appended: false };
    }
    if (this.active.size > 0 && this.active.size + records.length > this.config.segmentBytes) this.roll();
    const seg = this.active;
    let next = seg.nextOffset;
    const baseOffset = next;
    const entries: BatchEntry[] = [];
    for (const b of parsed.batches) {
      setBaseOffset(records, b.start, next);
      entries.push({
        base: next,
        last: next + b.lastOffsetDelta,
        pos: seg.size + b.start,
        size: b.size,
        maxTimestamp: b.maxTimestamp,
        producerId: b.producerId,
        producerEpoch: b.producerEpoch,
        baseSequence: b.baseSequence,
      });
      next += b.lastOffsetDelta + 1;
    }
    seg.append(records, entries);
    this.unflushed = true;
    for (const e of entries) this.producers.observe(e);
    return { error: ErrorCode.None, baseOffset, appended: true };
  }

  /** Whole batches starting with the one holding `offset`, at least one batch even if larger than maxBytes. */
  read(offset: number, maxBytes: number): ReadResult {
    const at = this.locate(offset, maxBytes);
    if (at === 'out-of-range') return { error: ErrorCode.OffsetOutOfRange };
    if (at === null) return { error: ErrorCode.None, chunks: [], bytes: 0 };
    return { error: ErrorCode.None, chunks: [at.segment.read(at.pos, at.bytes)], bytes: at.bytes };
  }

  /**
   * How many bytes `read` would return, from the index alone: a long-polling fetch asks this on
   * every append it is woken by, and reads the file only once it has enough.
   */
  available(offset: number, maxBytes: number): { error: typeof ErrorCode.None; bytes: number } | { error: typeof ErrorCode.OffsetOutOfRange } {
    const at = this.locate(offset, maxBytes);
    if (at === 'out-of-range') return { error: ErrorCode.OffsetOutOfRange };
    return { error: ErrorCode.None, bytes: at === null ? 0 : at.bytes };
  }

  /** Where `read` finds its bytes: the segment, the position of the batch holding `offset`, and how many whole batches fit. */
  private locate(offset: number, maxBytes: number): { segment: Segment; pos: number; bytes: number } | 'out-of-range' | null {
    if (offset < this.logStartOffset || offset > this.highWatermark) return 'out-of-range';
    for (let si = this.findSegment(offset); si < this.segments.length; si++) {
      const seg = this.segments[si] as Segment;
      const ei = seg.findEntry(offset);
      if (ei >= seg.entries.length) continue;
      const firstEntry = seg.entries[ei] as BatchEntry;
      let bytes = firstEntry.size;
      for (let end = ei + 1; end < seg.entries.length; end++) {
        const e = seg.entries[end] as BatchEntry;
        if (bytes + e.size > maxBytes) break;
        bytes += e.size;
      }
      return { segment: seg, pos: firstEntry.pos, bytes };
    }
    return null;
  }

  /**
   * The first record whose timestamp is >= ts: its offset and timestamp. Found by batch max
   * timestamp, then record by record inside that batch; batches Node cannot decompress (snappy,
   * lz4, zstd) answer their base offset and max timestamp.
   */
  offsetForTimestamp(ts: number): { offset: number; timestamp: number } | null {
    for (const seg of this.segments) {
      for (const e of seg.entries) {
        if (e.maxTimestamp < ts) continue;
        const record = firstRecordAtOrAfter(seg.read(e.pos, e.size), ts);
        return record ? { offset: e.base + record.offsetDelta, timestamp: record.timestamp } : { offset: e.base, timestamp: e.maxTimestamp };
      }
    }
    return null;
  }

  private findSegment(offset: number): number {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.segments[mid] as Segment).baseOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private roll(): void {
    const old = this.active;
    // Sync before the file stops being the one flushed by sync(); rolling is rare.
    fs.fdatasyncSync(old.fd);
    old.seal();
    this.segments.push(Segment.create(this.dir, old.nextOffset));
    this.applyRetention(Date.now());
  }

  /** Deletes whole old segments beyond the size or age limit; never the active one. */
  applyRetention(now: number): void {
    const { retentionBytes, retentionMs } = this.config;
    if (retentionMs >= 0 && this.active.size > 0 && this.active.lastWriteMs < now - retentionMs) {
      fs.fdatasyncSync(this.active.fd);
      this.active.seal();
      this.segments.push(Segment.create(this.dir, this.active.nextOffset));
    }
    let total = this.sizeBytes;
    while (this.segments.length > 1) {
      const oldest = this.segments[0] as Segment;
      const tooBig = retentionBytes >= 0 && total - oldest.size >= retentionBytes;
      const tooOld = retentionMs >= 0 && oldest.lastWriteMs < now - retentionMs;
      if (!tooBig && !tooOld) break;
      this.segments.shift();
      total -= oldest.size;
      oldest.delete();
      this.logger.info({ topic: this.topic, partition: this.partition, file: oldest.file, logStartOffset: this.logStartOffset }, 'deleted segment by retention');
    }
  }

  /** fdatasync of the active segment, shared by all produce requests waiting on it. */
  sync(): Promise<void> {
    this.unflushed = false;
    return this.syncer.sync();
  }

  /**
   * The interval flush: fdatasync of the active segment now, if anything was appended since the last
   * one (older segments were synced when they rolled). Synchronous, so no append slips in between
   * this and the offsets flush that follows it.
   */
  flush(): void {
    if (!this.unflushed) return;
    this.unflushed = false;
    const seg = this.active;
    if (!seg.closed) fs.fdatasyncSync(seg.fd);
  }

  close(): void {
    for (const s of this.segments) {
      if (!s.closed) {
        try {
          fs.fdatasyncSync(s.fd);
        } catch {
          // best effort on shutdown; the data was already written to the OS
        }
      }
      s.close();
    }
  }
}

import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { fsyncDir } from './fsync-dir.ts';
import { BATCH_HEADER_SIZE, batchCrcMatches, checkBatchHeader, readBaseOffset } from './record-batch.ts';

/** Segments are re-indexed a window at a time so memory stays flat whatever the segment size. */
const RECOVERY_WINDOW = 4 * 1024 * 1024;
/**
 * The newest bytes of the active segment kept in memory: consumers read what was just appended
 * (the saga's next step, a gathered run of a quarter second), and serving that from memory spares
 * a file read per partition per fetch.
 */
const TAIL_BYTES = 256 * 1024;

export interface BatchEntry {
  base: number;
  last: number;
  pos: number;
  size: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
}

export function segmentFileName(baseOffset: number): string {
  return `${String(baseOffset).padStart(20, '0')}.log`;
}

/**
 * One append-only file of RecordBatches. Its name is the offset of its first batch, so an
 * empty active segment still remembers where the log ends after a restart.
 */
export class Segment {
  readonly entries: BatchEntry[] = [];
  size = 0;
  /** Wall-clock time of the last append; age-based retention uses it, not client timestamps. */
  lastWriteMs: number;
  closed = false;
  /** Copies of the last appends, oldest first; tail[0] starts at file position tailStart. */
  private tail: Buffer[] = [];
  private tailStart = 0;
  private tailSize = 0;

  private constructor(
    readonly baseOffset: number,
    readonly file: string,
    readonly fd: number,
  ) {
    this.lastWriteMs = Date.now();
  }

  static create(dir: string, baseOffset: number): Segment {
    const file = path.join(dir, segmentFileName(baseOffset));
    // Not O_APPEND: on Linux pwrite ignores the position under O_APPEND, and appends rely on
    // explicit positions so a failed partial write is overwritten by the next one.
    const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT);
    fsyncDir(dir);
    return new Segment(baseOffset, file, fd);
  }

  /**
   * Re-indexes a segment written by an earlier run, reading it in bounded windows. A SIGKILL can
   * leave a partial batch at the tail of the active segment; everything from the first invalid
   * batch on (including a last batch whose CRC does not match) is cut off.
   */
  static recover(dir: string, name: string, isLast: boolean, logger: Logger): Segment {
    const baseOffset = Number(name.slice(0, -4));
    const file = path.join(dir, name);
    const fd = fs.openSync(file, 'r+');
    const seg = new Segment(baseOffset, file, fd);
    const stat = fs.fstatSync(fd);
    seg.lastWriteMs = stat.mtimeMs;
    const fileSize = stat.size;
    let window: Buffer = Buffer.alloc(0);
    let windowStart = 0;
    let pos = 0;
    let expected = baseOffset;
    let reason: string | null = null;
    while (pos < fileSize) {
      if (pos + BATCH_HEADER_SIZE > windowStart + window.length) {
        window = seg.read(pos, Math.min(RECOVERY_WINDOW, fileSize - pos));
        windowStart = pos;
      }
      const info = checkBatchHeader(window, pos - windowStart, fileSize - pos);
      if (typeof info === 'string') {
        reason = info;
        break;
      }
      const base = readBaseOffset(window, pos - windowStart);
      if (base !== expected) {
        reason = 'offset gap';
        break;
      }
      seg.entries.push({
        base,
        last: base + info.lastOffsetDelta,
        pos,
        size: info.size,
        maxTimestamp: info.maxTimestamp,
        producerId: info.producerId,
        producerEpoch: info.producerEpoch,
        baseSequence: info.baseSequence,
      });
      expected = base + info.lastOffsetDelta + 1;
      pos += info.size;
    }
    const last = seg.entries[seg.entries.length - 1];
    if (isLast && last && !batchCrcMatches(seg.read(last.pos, last.size), 0, last.size)) {
      seg.entries.pop();
      pos = last.pos;
      reason = 'crc mismatch';
    }
    if (pos < fileSize) {
      logger.warn({ file, validBytes: pos, fileBytes: fileSize, reason }, 'truncated log tail');
      fs.ftruncateSync(fd, pos);
    }
    seg.size = pos;
    return seg;
  }

  get nextOffset(): number {
    const last = this.entries[this.entries.length - 1];
    return last ? last.last + 1 : this.baseOffset;
  }

  append(data: Buffer, entries: BatchEntry[]): void {
    let written = 0;
    try {
      while (written < data.length) {
        written += fs.writeSync(this.fd, data, written, data.length - written, this.size + written);
      }
    } catch (err) {
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // the next append overwrites the partial batch anyway
      }
      throw err;
    }
    for (const e of entries) this.entries.push(e);
    this.remember(data, this.size);
    this.size += data.length;
    this.lastWriteMs = Date.now();
  }

  /** No more appends come to this segment (it was rolled): its tail stops taking memory. */
  seal(): void {
    this.tail = [];
    this.tailSize = 0;
  }

  private remember(data: Buffer, at: number): void {
    if (this.tail.length === 0) this.tailStart = at;
    this.tail.push(Buffer.from(data)); // a copy: the request's buffer is not ours to keep
    this.tailSize += data.length;
    while (this.tailSize > TAIL_BYTES && this.tail.length > 1) {
      const old = this.tail.shift() as Buffer;
      this.tailStart += old.length;
      this.tailSize -= old.length;
    }
  }

  /**
   * The bytes [pos, pos + len) from the in-memory tail, or null when they are not all there. Walked
   * from the newest copy back: a fetch mostly asks for what was appended last.
   */
  private fromTail(pos: number, len: number): Buffer | null {
    if (this.tail.length === 0 || pos < this.tailStart || pos + len > this.tailStart + this.tailSize) return null;
    const parts: Buffer[] = [];
    let end = this.tailStart + this.tailSize;
    for (let i = this.tail.length - 1; i >= 0 && end > pos; i--) {
      const chunk = this.tail[i] as Buffer;
      const start = end - chunk.length;
      if (start < pos + len) parts.push(chunk.subarray(Math.max(pos, start) - start, Math.min(pos + len, end) - start));
      end = start;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts.reverse(), len);
  }

  /** Index of the first batch whose last offset is >= offset, or entries.length. */
  findEntry(offset: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.entries[mid] as BatchEntry).last < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  read(pos: number, len: number): Buffer {
    const cached = this.fromTail(pos, len);
    if (cached) return cached;
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = fs.readSync(this.fd, buf, got, len - got, pos + got);
      if (n === 0) break;
      got += n;
    }
    return got === len ? buf : buf.subarray(0, got);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.seal();
    fs.closeSync(this.fd);
  }

  delete(): void {
    this.close();
    fs.rmSync(this.file, { force: true });
  }
}

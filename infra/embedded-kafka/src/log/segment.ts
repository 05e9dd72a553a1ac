import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { fsyncDir } from './fsync-dir.ts';
import { parseBatches, readBaseOffset } from './record-batch.ts';

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
   * Re-indexes a segment written by an earlier run. A SIGKILL can leave a partial batch at the
   * tail of the active segment; everything from the first invalid batch on is cut off.
   */
  static recover(dir: string, name: string, isLast: boolean, logger: Logger): Segment {
    const baseOffset = Number(name.slice(0, -4));
    const file = path.join(dir, name);
    const fd = fs.openSync(file, 'r+');
    const seg = new Segment(baseOffset, file, fd);
    const data = fs.readFileSync(file);
    seg.lastWriteMs = fs.fstatSync(fd).mtimeMs;
    const parsed = parseBatches(data, { checkCrc: isLast ? 'last' : 'none' });
    const batches = parsed.batches;
    let expected = baseOffset;
    let validBytes = 0;
    for (const b of batches) {
      const base = readBaseOffset(data, b.start);
      if (base !== expected) break;
      seg.entries.push({
        base,
        last: base + b.lastOffsetDelta,
        pos: b.start,
        size: b.size,
        maxTimestamp: b.maxTimestamp,
        producerId: b.producerId,
        producerEpoch: b.producerEpoch,
        baseSequence: b.baseSequence,
      });
      expected = base + b.lastOffsetDelta + 1;
      validBytes = b.start + b.size;
    }
    if (validBytes < data.length) {
      logger.warn({ file, validBytes, fileBytes: data.length, reason: parsed.error ?? 'offset gap' }, 'truncated log tail');
      fs.ftruncateSync(fd, validBytes);
    }
    seg.size = validBytes;
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
    this.size += data.length;
    this.lastWriteMs = Date.now();
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
    fs.closeSync(this.fd);
  }

  delete(): void {
    this.close();
    fs.rmSync(this.file, { force: true });
  }
}

/**
 * Big-endian encoder that collects chunks, so record data read from the log is passed
 * through without being copied until the final concat.
 */
export class Writer {
  private readonly chunks: Buffer[] = [];
  private scratch = Buffer.allocUnsafe(256);
  private used = 0;
  private total = 0;

  private room(n: number): void {
    if (this.used + n <= this.scratch.length) return;
    this.flushScratch();
    if (n > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(n, 256));
  }

  private flushScratch(): void {
    if (this.used === 0) return;
    this.chunks.push(this.scratch.subarray(0, this.used));
    this.scratch = Buffer.allocUnsafe(this.scratch.length);
    this.used = 0;
  }

  int8(v: number): this {
    this.room(1);
    this.scratch.writeInt8(v, this.used);
    this.used += 1;
    this.total += 1;
    return this;
  }

  bool(v: boolean): this {
    return this.int8(v ? 1 : 0);
  }

  int16(v: number): this {
    this.room(2);
    this.scratch.writeInt16BE(v, this.used);
    this.used += 2;
    this.total += 2;
    return this;
  }

  int32(v: number): this {
    this.room(4);
    this.scratch.writeInt32BE(v, this.used);
    this.used += 4;
    this.total += 4;
    return this;
  }

  int64(v: number): this {
    this.room(8);
    this.scratch.writeBigInt64BE(BigInt(v), this.used);
    this.used += 8;
    this.total += 8;
    return this;
  }

  /** Unsigned LEB128 varint of the flexible versions (KIP-482). */
  uvarint(v: number): this {
    let n = v;
    while (n >= 0x80) {
      this.int8(((n & 0x7f) | 0x80) << 24 >> 24);
      n = Math.floor(n / 128);
    }
    return this.int8(n << 24 >> 24);
  }

  nullableString(v: string | null): this {
    if (v === null) return this.int16(-1);
    const b = Buffer.from(v, 'utf8');
    this.int16(b.length);
    return this.raw(b);
  }

  string(v: string): this {
    return this.nullableString(v);
  }

  nullableBytes(v: Buffer | null): this {
    if (v === null) return this.int32(-1);
    this.int32(v.length);
    return this.raw(v);
  }

  /** Several buffers written as one length-prefixed bytes field. */
  bytesChunks(parts: Buffer[]): this {
    let len = 0;
    for (const p of parts) len += p.length;
    this.int32(len);
    for (const p of parts) this.raw(p);
    return this;
  }

  array<T>(items: readonly T[], item: (w: Writer, v: T) => void): this {
    this.int32(items.length);
    for (const v of items) item(this, v);
    return this;
  }

  raw(b: Buffer): this {
    if (b.length <= 64) {
      this.room(b.length);
      b.copy(this.scratch, this.used);
      this.used += b.length;
    } else {
      this.flushScratch();
      this.chunks.push(b);
    }
    this.total += b.length;
    return this;
  }

  get length(): number {
    return this.total;
  }

  /** The encoded body, prefixed by the response header v0 (size, correlation id). */
  frame(correlationId: number): Buffer {
    this.flushScratch();
    const head = Buffer.allocUnsafe(8);
    head.writeInt32BE(this.total + 4, 0);
    head.writeInt32BE(correlationId, 4);
    return Buffer.concat([head, ...this.chunks], this.total + 8);
  }
}

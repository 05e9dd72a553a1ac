/** Thrown when a request body does not decode; the connection is closed, never the broker. */
export class MalformedRequestError extends Error {}

/** Sequential big-endian decoder over one request frame. */
export class Reader {
  private pos: number;

  constructor(
    private readonly buf: Buffer,
    start = 0,
  ) {
    this.pos = start;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number): void {
    if (n < 0 || this.pos + n > this.buf.length) {
      throw new MalformedRequestError(`request truncated: need ${n} bytes at ${this.pos} of ${this.buf.length}`);
    }
  }

  int8(): number {
    this.need(1);
    const v = this.buf.readInt8(this.pos);
    this.pos += 1;
    return v;
  }

  bool(): boolean {
    return this.int8() !== 0;
  }

  int16(): number {
    this.need(2);
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  int32(): number {
    this.need(4);
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** Offsets and producer ids fit in a double for any log this broker will ever hold. */
  int64(): number {
    this.need(8);
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return Number(v);
  }

  nullableString(): string | null {
    const len = this.int16();
    if (len === -1) return null;
    if (len < -1) throw new MalformedRequestError(`bad string length ${len}`);
    this.need(len);
    const v = this.buf.toString('utf8', this.pos, this.pos + len);
    this.pos += len;
    return v;
  }

  string(): string {
    const v = this.nullableString();
    if (v === null) throw new MalformedRequestError('null where a string is required');
    return v;
  }

  /** Returns a view into the frame (no copy). */
  nullableBytes(): Buffer | null {
    const len = this.int32();
    if (len === -1) return null;
    if (len < -1) throw new MalformedRequestError(`bad bytes length ${len}`);
    this.need(len);
    const v = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return v;
  }

  bytes(): Buffer {
    return this.nullableBytes() ?? Buffer.alloc(0);
  }

  /** Unsigned LEB128 varint of the flexible versions (KIP-482): lengths and tag counts. */
  uvarint(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.int8() & 0xff;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
    }
    throw new MalformedRequestError('varint longer than 5 bytes');
  }

  /** The next n bytes (a view into the frame). */
  take(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** A flexible version's tagged-field section: every tag is unknown here and skipped. */
  skipTaggedFields(): void {
    const count = this.uvarint();
    for (let i = 0; i < count; i++) {
      this.uvarint(); // tag
      this.take(this.uvarint());
    }
  }

  /** A null array decodes as null; callers decide what null means for their API. */
  nullableArray<T>(item: (r: Reader) => T): T[] | null {
    const len = this.int32();
    if (len === -1) return null;
    if (len < -1 || len > this.remaining) throw new MalformedRequestError(`bad array length ${len}`);
    const out: T[] = [];
    for (let i = 0; i < len; i++) out.push(item(this));
    return out;
  }

  array<T>(item: (r: Reader) => T): T[] {
    return this.nullableArray(item) ?? [];
  }
}

import net from 'node:net';
import { crc32c } from '../../src/log/crc32c.ts';
import { Writer } from '../../src/protocol/writer.ts';

/** A bare Kafka-protocol socket for the edge cases real clients never produce. */
export class RawClient {
  private buf = Buffer.alloc(0);
  private readonly frames: { correlationId: number; body: Buffer; at: number }[] = [];
  closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      while (this.buf.length >= 4 && this.buf.length >= 4 + this.buf.readInt32BE(0)) {
        const size = this.buf.readInt32BE(0);
        this.frames.push({ correlationId: this.buf.readInt32BE(4), body: this.buf.subarray(8, 4 + size), at: Date.now() });
        this.buf = this.buf.subarray(4 + size);
      }
    });
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  /** Sends request header v1 + body. */
  send(apiKey: number, apiVersion: number, correlationId: number, body: (w: Writer) => void): void {
    const w = new Writer();
    w.int16(apiKey).int16(apiVersion).int32(correlationId).nullableString('raw-test');
    body(w);
    const framed = w.frame(0); // frame() prefixes size + a 4-byte field; rebuild without that field
    const payload = framed.subarray(8);
    const out = Buffer.alloc(4 + payload.length);
    out.writeInt32BE(payload.length, 0);
    payload.copy(out, 4);
    this.socket.write(out);
  }

  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  received(): { correlationId: number; body: Buffer; at: number }[] {
    return this.frames;
  }

  async waitClosed(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return this.closed;
  }

  async waitFrames(n: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  close(): void {
    this.socket.destroy();
  }
}

function zigzag(n: number): number[] {
  let v = n >= 0 ? n * 2 : -n * 2 - 1;
  const out: number[] = [];
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A valid, uncompressed RecordBatch v2 (what any producer would send). */
export function encodeBatch(values: string[], producer: { id: number; epoch: number; sequence: number } = { id: -1, epoch: -1, sequence: -1 }): Buffer {
  const records = values.map((v, i) => {
    const value = Buffer.from(v);
    const body = Buffer.from([0, ...zigzag(0), ...zigzag(i), ...zigzag(-1), ...zigzag(value.length), ...value, ...zigzag(0)]);
    return Buffer.concat([Buffer.from(zigzag(body.length)), body]);
  });
  const recs = Buffer.concat(records);
  const head = Buffer.alloc(61);
  head.writeBigInt64BE(0n, 0);
  head.writeInt32BE(61 - 12 + recs.length, 8);
  head.writeInt32BE(0, 12);
  head.writeInt8(2, 16);
  head.writeInt16BE(0, 21);
  head.writeInt32BE(values.length - 1, 23);
  const now = BigInt(Date.now());
  head.writeBigInt64BE(now, 27);
  head.writeBigInt64BE(now, 35);
  head.writeBigInt64BE(BigInt(producer.id), 43);
  head.writeInt16BE(producer.epoch, 51);
  head.writeInt32BE(producer.sequence, 53);
  head.writeInt32BE(values.length, 57);
  const batch = Buffer.concat([head, recs]);
  batch.writeUInt32BE(crc32c(batch, 21), 17);
  return batch;
}

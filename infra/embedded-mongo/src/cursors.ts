// Server-side cursors over materialised results (each query is a consistent snapshot).
import { Long, calculateObjectSize } from 'bson';
import type { Doc } from './values.ts';

interface Cursor {
  ns: string;
  docs: Doc[];
  pos: number;
  lastUsed: number;
}

const IDLE_MS = 10 * 60_000;
/**
 * Bytes of documents per batch. The server allows 16 MiB, but a reply is encoded in one go on the
 * event loop, and every other client waits meanwhile: a 16 MiB batch held them for well over 100 ms
 * (and overflowed the BSON encoder's 17 MiB buffer with the reply's own fields: "cannot encode
 * reply"); a 1 MiB batch of small documents 18–27 ms of CPU to gather and encode, 256 KiB 4–5 ms,
 * 128 KiB 2.4–2.9 ms (`npm run bench:batches`, 2026-12-06). Drivers ask for more with getMore
 * whatever the size, so a smaller batch costs one more round trip per 128 KiB (~0.2 ms).
 */
export const BATCH_BYTES = 128 * 1024;

function takeBatch(docs: Doc[], from: number, max: number, maxBytes: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  for (let i = from; i < docs.length && out.length < max; i++) {
    const d = docs[i]!;
    bytes += calculateObjectSize(d);
    if (out.length > 0 && bytes > maxBytes) break;
    out.push(d);
  }
  return out;
}

export class CursorStore {
  private readonly cursors = new Map<string, Cursor>();

  /** batchBytes: the cap per batch (another value only for benchmarks). */
  constructor(private readonly batchBytes = BATCH_BYTES) {}

  /** Builds a cursor reply, registering a cursor when results remain. */
  open(ns: string, docs: Doc[], batchSize: number | undefined, singleBatch: boolean): Doc {
    const size = batchSize === undefined || batchSize < 0 ? 101 : batchSize;
    const first = takeBatch(docs, 0, singleBatch ? docs.length : size, this.batchBytes);
    let id = Long.ZERO;
    if (first.length < docs.length) {
      id = Long.fromBigInt(BigInt.asIntN(64, (BigInt(Date.now()) << 20n) | BigInt(Math.floor(Math.random() * 2 ** 20))) & 0x7fffffffffffffffn);
      this.cursors.set(id.toString(), { ns, docs, pos: first.length, lastUsed: Date.now() });
    }
    return { cursor: { firstBatch: first, id, ns }, ok: 1 };
  }

  more(id: Long, batchSize: number | undefined): { docs: Doc[]; ns: string; id: Long } | undefined {
    const c = this.cursors.get(id.toString());
    if (!c) return undefined;
    const size = batchSize && batchSize > 0 ? batchSize : c.docs.length;
    const docs = takeBatch(c.docs, c.pos, size, this.batchBytes);
    c.pos += docs.length;
    c.lastUsed = Date.now();
    if (c.pos >= c.docs.length) {
      this.cursors.delete(id.toString());
      return { docs, ns: c.ns, id: Long.ZERO };
    }
    return { docs, ns: c.ns, id };
  }

  kill(id: Long): boolean {
    return this.cursors.delete(id.toString());
  }

  sweep(): void {
    const now = Date.now();
    for (const [k, c] of this.cursors) if (now - c.lastUsed > IDLE_MS) this.cursors.delete(k);
  }

  get size(): number {
    return this.cursors.size;
  }
}

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
 * event loop: a 16 MiB batch held every other client for well over 100 ms (and overflowed the
 * BSON encoder's 17 MiB buffer with the reply's own fields: "cannot encode reply"). Drivers ask
 * for more with getMore whatever the size, so 1 MiB batches cost a round trip per MiB instead.
 */
const BATCH_BYTES = Number(process.env["EMONGO_BATCH_BYTES"] ?? 1024 * 1024);

function takeBatch(docs: Doc[], from: number, max: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  for (let i = from; i < docs.length && out.length < max; i++) {
    const d = docs[i]!;
    bytes += calculateObjectSize(d);
    if (out.length > 0 && bytes > BATCH_BYTES) break;
    out.push(d);
  }
  return out;
}

export class CursorStore {
  private readonly cursors = new Map<string, Cursor>();

  /** Builds a cursor reply, registering a cursor when results remain. */
  open(ns: string, docs: Doc[], batchSize: number | undefined, singleBatch: boolean): Doc {
    const size = batchSize === undefined || batchSize < 0 ? 101 : batchSize;
    const first = takeBatch(docs, 0, singleBatch ? docs.length : size);
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
    const docs = takeBatch(c.docs, c.pos, size);
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

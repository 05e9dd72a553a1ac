// Cursor batches: how many bytes a reply may carry. A reply is encoded on the event loop in one go,
// so batches are capped at BATCH_BYTES (128 KiB) of documents (the server's own cap is 16 MiB): a
// 16 MiB batch of small documents did not even encode (the array's index keys, not counted, pushed it
// past the BSON encoder's 17 MiB buffer: "cannot encode reply"), and encoding one held every other client.
import { describe, expect, it } from 'vitest';
import { ObjectId, calculateObjectSize } from 'bson';
import { BATCH_BYTES, CursorStore } from '../src/cursors.ts';
import { buildMsg } from '../src/wire.ts';

describe('cursor batches', () => {
  it('getMore replies of a 200,000-document result encode, each at most about BATCH_BYTES, and deliver every document once', () => {
    // bench/stalls.ts's documents: 16 MiB of them plus the array's keys overflowed the encoder.
    const docs = Array.from({ length: 200_000 }, (_, i) => ({ _id: new ObjectId(), n: i, kind: `k${i % 97}`, pad: 'x'.repeat(40) }));
    const store = new CursorStore();
    const first = store.open('db.big', docs, undefined, false) as { cursor: { firstBatch: unknown[]; id: { isZero(): boolean } } };
    expect(first.cursor.firstBatch).toHaveLength(101);
    let seen = first.cursor.firstBatch.length;
    let id = first.cursor.id as never;
    let replies = 0;
    for (;;) {
      const batch = store.more(id, undefined);
      expect(batch).toBeDefined();
      const reply = { cursor: { nextBatch: batch!.docs, id: batch!.id, ns: batch!.ns }, ok: 1 };
      const bytes = buildMsg(1, reply).length;
      expect(bytes).toBeLessThan(1.1 * BATCH_BYTES);
      seen += batch!.docs.length;
      replies++;
      if (batch!.id.isZero()) break;
      id = batch!.id as never;
    }
    expect(seen).toBe(docs.length);
    expect(BATCH_BYTES).toBeLessThanOrEqual(128 * 1024);
    expect(replies).toBeGreaterThan(Math.floor((docs.length * calculateObjectSize(docs[0]!)) / BATCH_BYTES));
  });

  it('still returns a document larger than the cap, alone', () => {
    const big = { _id: 1, blob: 'y'.repeat(3 * BATCH_BYTES) };
    const store = new CursorStore();
    const first = store.open('db.c', [big, { _id: 2 }], 1, false) as { cursor: { firstBatch: unknown[]; id: never } };
    expect(first.cursor.firstBatch).toEqual([big]);
    expect(store.more(first.cursor.id, undefined)?.docs).toEqual([{ _id: 2 }]);
  });
});

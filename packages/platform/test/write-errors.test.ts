import { createConnection } from 'node:net';
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { isTemporaryError } from '../src/http/error-mapper.ts';
import { documentWriteErrors } from '../src/mongo/write-errors.ts';

/**
 * Issue 39 §1: an unordered insertMany cut off by a lost connection fails with the driver's
 * MongoBulkWriteError and an EMPTY writeErrors list — the order service read that as "every
 * document stored" and announced orders that did not exist. Real driver errors from the embedded
 * server: one it answered (a duplicate), one it never answered (gone).
 */
describe('documentWriteErrors', () => {
  it('lists the refused documents when the server answered for every one, and nothing when the connection was lost', async () => {
    const server = await startEmbeddedMongo({ port: 0 });
    const connection = mongoose.createConnection(server.uri('write-errors'), { serverSelectionTimeoutMS: 300, retryWrites: false });
    try {
      await connection.asPromise();
      const coll = connection.collection('docs');
      await coll.insertOne({ _id: 2 } as never);
      const answered = await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }] as never[], { ordered: false }).catch((e: unknown) => e);
      expect(documentWriteErrors(answered, 3)?.map((e) => [e.index, e.code])).toEqual([[1, 11000]]);
      // Not every document accounted for (two inserted, one refused, but four asked): unknown.
      expect(documentWriteErrors(answered, 4)).toBeUndefined();
      expect(isTemporaryError(answered)).toBe(false);

      await server.close();
      const lost = await coll.insertMany([{ _id: 4 }, { _id: 5 }] as never[], { ordered: false }).catch((e: unknown) => e);
      expect((lost as Error).name).toBe('MongoBulkWriteError');
      expect((lost as { writeErrors: unknown[] }).writeErrors).toEqual([]);
      expect(documentWriteErrors(lost, 2)).toBeUndefined();
      // ... and it is a temporary failure (503), not a fault (500).
      expect(isTemporaryError(lost)).toBe(true);
      // A socket the server closed under a write (what the driver let through once during a kill).
      const cut = await new Promise<Error>((resolve) => {
        const socket = createConnection(1, '127.0.0.1');
        socket.on('error', resolve);
      });
      expect(isTemporaryError(cut)).toBe(true);
      expect(isTemporaryError(new Error('a bug'))).toBe(false);
    } finally {
      await connection.close(true).catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  }, 30_000);
});

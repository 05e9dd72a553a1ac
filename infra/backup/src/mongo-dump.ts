import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { EJSON } from 'bson';
import type { MongoClient } from 'mongodb';

/** Databases that belong to the server, not to a service. */
const systemDatabases = new Set(['admin', 'local', 'config']);
/** Relay leases name a process of the old installation; they expire anyway and are not copied. */
const skippedCollections = new Set(['leases']);

export type DumpSummary = Record<string, Record<string, number>>;

/**
 * Writes every service database to `dir/mongo/<db>/<collection>.ejson` (one canonical Extended
 * JSON document per line, so Long, Decimal128, Date and ObjectId keep their types) with its index
 * definitions beside it. Every collection of every database is read inside ONE snapshot
 * transaction: the files show the whole product at a single cluster time, as if it had stopped
 * there — a wallet debit and its ledger entry, an order and its outbox event, are both in or both
 * out. (On a real MongoDB a transaction lives at most transactionLifetimeLimitSeconds, 60 s by
 * default; larger installations raise it for the backup or use `mongodump --oplog`.)
 */
export async function dumpDatabases(client: MongoClient, dir: string): Promise<DumpSummary> {
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  // Collections are listed before the snapshot opens: listCollections is not allowed inside one.
  const plan: Array<{ db: string; collections: string[] }> = [];
  for (const { name } of databases) {
    if (systemDatabases.has(name)) continue;
    const infos = await client.db(name).listCollections({}, { nameOnly: true }).toArray();
    const collections = infos.map((c) => c.name).filter((c) => !c.startsWith('system.') && !skippedCollections.has(c));
    plan.push({ db: name, collections: collections.sort() });
  }

  const summary: DumpSummary = {};
  const session = client.startSession();
  try {
    session.startTransaction({ readConcern: { level: 'snapshot' } });
    for (const { db, collections } of plan) {
      const folder = join(dir, 'mongo', db);
      mkdirSync(folder, { recursive: true });
      summary[db] = {};
      for (const name of collections) {
        const collection = client.db(db).collection(name);
        const indexes = await collection.listIndexes().toArray().catch(() => []);
        writeFileSync(join(folder, `${name}.indexes.json`), `${EJSON.stringify(indexes, { relaxed: false }, 2)}\n`);
        const out = createWriteStream(join(folder, `${name}.ejson`));
        let count = 0;
        for await (const doc of collection.find({}, { session, batchSize: 1000 })) {
          if (!out.write(`${EJSON.stringify(doc, { relaxed: false })}\n`)) await once(out, 'drain');
          count += 1;
        }
        out.end();
        await once(out, 'finish');
        summary[db]![name] = count;
      }
    }
  } finally {
    // Nothing was written: the transaction only held the snapshot open.
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    await session.endSession();
  }
  return summary;
}

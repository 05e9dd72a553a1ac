import { createReadStream, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EJSON, type Document } from 'bson';
import type { IndexDescription, MongoClient } from 'mongodb';
import type { DumpSummary } from './mongo-dump.ts';

const batchSize = 1000;

/** Refuses to load over data: a restore goes into empty databases only. */
async function assertEmpty(client: MongoClient, databases: readonly string[]): Promise<void> {
  for (const db of databases) {
    for (const { name } of await client.db(db).listCollections({}, { nameOnly: true }).toArray()) {
      if ((await client.db(db).collection(name).estimatedDocumentCount()) > 0) {
        throw new Error(`database ${db} already holds data (collection ${name}); restore only into empty databases`);
      }
    }
  }
}

/**
 * Loads what dumpDatabases wrote, with the same types and indexes, and then marks every outbox
 * record unpublished. Kafka is not part of the backup: the restored product starts on an empty
 * (or a different) broker, each service's relay publishes its whole event history again, and
 * every consumer skips the events it already applied (processed_events, restored from the same
 * snapshot) and applies those that were still in flight when the backup was taken. So no event
 * that committed before the snapshot is lost, and none is applied twice.
 */
export async function loadDatabases(client: MongoClient, dir: string): Promise<DumpSummary> {
  const root = join(dir, 'mongo');
  const databases = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  await assertEmpty(client, databases);
  const summary: DumpSummary = {};
  for (const db of databases) {
    summary[db] = {};
    const files = readdirSync(join(root, db)).filter((f) => f.endsWith('.ejson'));
    for (const file of files) {
      const name = file.slice(0, -'.ejson'.length);
      const collection = client.db(db).collection(name);
      await client.db(db).createCollection(name).catch(() => undefined);
      let batch: Document[] = [];
      let count = 0;
      const lines = createInterface({ input: createReadStream(join(root, db, file)), crlfDelay: Infinity });
      for await (const line of lines) {
        if (line.trim() === '') continue;
        batch.push(EJSON.parse(line, { relaxed: false }) as Document);
        if (batch.length >= batchSize) {
          await collection.insertMany(batch, { ordered: true });
          count += batch.length;
          batch = [];
        }
      }
      if (batch.length > 0) await collection.insertMany(batch, { ordered: true });
      count += batch.length;
      summary[db]![name] = count;
      const indexFile = join(root, db, `${name}.indexes.json`);
      if (existsSync(indexFile)) {
        const indexes = (EJSON.parse(readFileSync(indexFile, 'utf8'), { relaxed: false }) as Array<Document & { name: string; key: Document }>)
          .filter((index) => index.name !== '_id_')
          .map(({ v: _v, ns: _ns, ...index }) => index as unknown as IndexDescription);
        if (indexes.length > 0) await collection.createIndexes(indexes);
      }
      if (name === 'outbox') await collection.updateMany({}, { $set: { publishedAt: null } });
    }
  }
  return summary;
}

// Documents and index keys the stack's MongoDB examined (serverStatus metrics.queryExecutor): per
// order they show a query that scans instead of using an index, a cost that grows with stored data
// while a timing on a quiet stack still looks fine.
import { type Document, MongoClient } from 'mongodb';

export type Examined = { docs: number; keys: number };

/** The examined counters of a serverStatus answer. */
export function examinedIn(serverStatus: Document | undefined): Examined {
  const q = serverStatus?.['metrics']?.['queryExecutor'] as { scannedObjects?: unknown; scanned?: unknown } | undefined;
  return { docs: Number(q?.scannedObjects ?? 0), keys: Number(q?.scanned ?? 0) };
}

/** Reads the counters of the MongoDB at `mongoUrl` (undefined without one). */
export async function examinedCounter(mongoUrl: string | undefined): Promise<{ read(): Promise<Examined>; close(): Promise<void> } | undefined> {
  if (!mongoUrl) return undefined;
  const client = await MongoClient.connect(mongoUrl, { directConnection: true });
  return {
    read: async () => examinedIn(await client.db('admin').command({ serverStatus: 1 })),
    close: () => client.close(),
  };
}

export function examinedPer(before: Examined, after: Examined, n: number, unit: 'order' | 'request' = 'order'): string {
  return `MongoDB documents examined ${((after.docs - before.docs) / n).toFixed(1)} and index keys ${((after.keys - before.keys) / n).toFixed(1)} per ${unit}`;
}

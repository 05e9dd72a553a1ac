// Public API: start an embedded MongoDB-compatible server (a one-node replica set).
import fs from 'node:fs';
import pino from 'pino';
import type { Logger } from 'pino';
import { Engine } from './engine.ts';
import { Journal } from './journal.ts';
import { collectGarbage, heapFigures, watchHeap } from './memory.ts';
import { beginDump, loadSnapshot, replay } from './persistence.ts';
import { WireServer } from './server.ts';

export interface EmbeddedMongoOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Where the journal and snapshot live; omit for a purely in-memory server. */
  dataDir?: string;
  /** Replica set name presented in hello. */
  replSetName?: string;
  /** Journal size that triggers compaction (snapshot + truncate). Default 64 MiB. */
  compactBytes?: number;
  /** Interval of the TTL-index pass. Default 60 s, like the server's TTL monitor. */
  ttlIntervalMs?: number;
  logger?: Logger;
}

export interface EmbeddedMongo {
  host: string;
  port: number;
  replSetName: string;
  /** Connection string without a database, e.g. mongodb://127.0.0.1:27017/?replicaSet=rs0 */
  url: string;
  /** Connection string for one database (the recommended form for services). */
  uri(db: string): string;
  /**
   * Snapshots the state as of now and drops the journal it covers, in the background (clients
   * are served meanwhile); resolves once the snapshot is durable.
   */
  compact(): Promise<void>;
  close(): Promise<void>;
}

const LOAD_PROGRESS_MS = 5000;

/** Loads a data dir's snapshot and journal into the engine; the journal's lock is released on failure. */
function loadDataDir(engine: Engine, j: Journal, logger: Logger, dataDir: string, started: number): { snapshotOps: number; records: number; ops: number } {
  const { snapshot, journal: records } = j.open();
  // Loading is synchronous and takes about two minutes for a panel's million orders: a line every
  // few seconds tells the launcher (which waits for `listening`) that it is still under way.
  let reportedAt = started;
  const progress = (done: number) => {
    const now = Date.now();
    if (now - reportedAt < LOAD_PROGRESS_MS) return;
    reportedAt = now;
    logger.info({ dataDir, ops: done, ms: now - started, ...heapFigures() }, 'loading data');
  };
  try {
    const snapshotOps = loadSnapshot(engine, snapshot, progress);
    const ops = replay(engine, records, (done) => progress(snapshotOps + done));
    return { snapshotOps, records: records.length, ops };
  } catch (e) {
    // Release the data dir lock taken by open(); no snapshot of a half-loaded state.
    j.release();
    throw e;
  }
}

export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const replSetName = options.replSetName ?? 'rs0';
  const logger = options.logger ?? pino({ level: 'silent' });
  const engine = new Engine();
  let journal: Journal | undefined;
  if (options.dataDir) {
    const j = new Journal({
      dataDir: options.dataDir,
      compactBytes: options.compactBytes ?? 64 * 1024 * 1024,
      dump: () => beginDump(engine),
      onCompact: (info) => logger.info(info, 'journal compacted'),
      onCompactError: (e) => logger.error({ err: e }, 'snapshot failed; the journal keeps every commit'),
    });
    const started = Date.now();
    const loaded = loadDataDir(engine, j, logger, options.dataDir, started);
    // After loadDataDir has returned, so the file contents and decoded journal it read are garbage too.
    if (loaded.snapshotOps + loaded.ops > 0) collectGarbage();
    logger.info({ dataDir: options.dataDir, ...loaded, ms: Date.now() - started, ...heapFigures() }, 'journal replayed');
    engine.journal = j;
    journal = j;
  }
  const server = new WireServer(engine, {
    host,
    port: options.port ?? 0,
    setName: replSetName,
    logger,
    ttlIntervalMs: options.ttlIntervalMs ?? 60_000,
  });
  let port: number;
  try {
    port = await server.listen();
  } catch (e) {
    await journal?.close();
    throw e;
  }
  const base = `mongodb://${host}:${port}`;
  const heapWatch = watchHeap(logger);
  let closed = false;
  return {
    host,
    port,
    replSetName,
    url: `${base}/?replicaSet=${replSetName}`,
    uri: (db) => `${base}/${db}?replicaSet=${replSetName}`,
    compact: () => journal?.compact() ?? Promise.resolve(),
    close: async () => {
      if (closed) return;
      closed = true;
      heapWatch.stop();
      await server.close();
      await journal?.close();
    },
  };
}

/** Throws a readable error when the data directory cannot be used. */
export function checkDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.accessSync(dir, fs.constants.W_OK);
}

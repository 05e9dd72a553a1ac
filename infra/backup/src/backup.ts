import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { dumpDatabases, type DumpSummary } from './mongo-dump.ts';
import { loadDatabases } from './mongo-load.ts';

export type BackupOptions = {
  /** Where the backup goes (backup) or comes from (restore). */
  dir: string;
  /** The devstack's data directory: its secrets.json, and its mongo/ when no MONGO_URL is given. */
  dataDir: string;
  /** A running MongoDB (the devstack's embedded one, or a real replica set); unset = offline, from dataDir/mongo. */
  mongoUrl?: string | undefined;
};

export type Manifest = { format: 1; createdAt: string; source: 'url' | 'data-dir'; databases: DumpSummary; secrets: boolean };

/** Runs `work` against the given server, or against an embedded one opened on dataDir/mongo. */
async function withMongo<T>(mongoUrl: string | undefined, dataDir: string, work: (client: MongoClient) => Promise<T>): Promise<T> {
  if (mongoUrl !== undefined) {
    const client = await MongoClient.connect(mongoUrl);
    try {
      return await work(client);
    } finally {
      await client.close();
    }
  }
  let server;
  try {
    server = await startEmbeddedMongo({ port: 0, dataDir: join(dataDir, 'mongo') });
  } catch (error) {
    throw new Error(
      `cannot open ${join(dataDir, 'mongo')} (${(error as Error).message}); if the product is running, pass MONGO_URL as the devstack prints it`,
    );
  }
  const client = await MongoClient.connect(server.url);
  try {
    return await work(client);
  } finally {
    await client.close();
    await server.close();
  }
}

/** `npm run backup -- <dir>`: every service database at one snapshot, plus the secrets file. */
export async function backup(options: BackupOptions): Promise<Manifest> {
  if (existsSync(options.dir) && readdirSync(options.dir).length > 0) throw new Error(`${options.dir} is not empty; back up into a new folder`);
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const databases = await withMongo(options.mongoUrl, options.dataDir, (client) => dumpDatabases(client, options.dir));
  const secretsFile = join(options.dataDir, 'secrets.json');
  const secrets = existsSync(secretsFile);
  if (secrets) {
    copyFileSync(secretsFile, join(options.dir, 'secrets.json'));
    chmodSync(join(options.dir, 'secrets.json'), 0o600);
  }
  const manifest: Manifest = { format: 1, createdAt: new Date().toISOString(), source: options.mongoUrl ? 'url' : 'data-dir', databases, secrets };
  writeFileSync(join(options.dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * `npm run restore -- <dir>`: into the given MongoDB when MONGO_URL is set, otherwise into a new
 * embedded data directory (DATA_DIR must hold no mongo/ yet); the secrets file goes to DATA_DIR.
 */
export async function restore(options: BackupOptions): Promise<DumpSummary> {
  const manifestFile = join(options.dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${options.dir} is not a backup (no manifest.json)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== 1) throw new Error(`${options.dir}: unknown backup format ${String(manifest.format)}`);
  mkdirSync(options.dataDir, { recursive: true });
  if (options.mongoUrl === undefined && existsSync(join(options.dataDir, 'mongo')) && readdirSync(join(options.dataDir, 'mongo')).length > 0) {
    throw new Error(`${join(options.dataDir, 'mongo')} already holds data; restore into an empty DATA_DIR`);
  }
  const target = join(options.dataDir, 'secrets.json');
  if (manifest.secrets && existsSync(target)) throw new Error(`${target} exists; restore into an empty DATA_DIR (or move it away)`);
  const loaded = await withMongo(options.mongoUrl, options.dataDir, (client) => loadDatabases(client, options.dir));
  if (manifest.secrets) {
    copyFileSync(join(options.dir, 'secrets.json'), target);
    chmodSync(target, 0o600);
  }
  return loaded;
}

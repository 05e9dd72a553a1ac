// Shared test fixtures: a fresh server on a free port with a temp data dir.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedMongo } from '../src/index.ts';
import type { EmbeddedMongo, EmbeddedMongoOptions } from '../src/index.ts';

export function tempDir(prefix = 'emongo-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startTestServer(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo & { dataDir: string }> {
  const dataDir = opts.dataDir ?? tempDir();
  const srv = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, ...opts, dataDir });
  return Object.assign(srv, { dataDir });
}

// Shared test fixtures: a fresh server on a free port with a temp data dir.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedMongo } from '../src/index.ts';
import type { EmbeddedMongo, EmbeddedMongoOptions } from '../src/index.ts';

const created: string[] = [];

export function tempDir(prefix = 'emongo-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes the temp dirs this test file created; call after its servers have stopped. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export async function startTestServer(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo & { dataDir: string }> {
  const dataDir = opts.dataDir ?? tempDir();
  const srv = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, ...opts, dataDir });
  return Object.assign(srv, { dataDir });
}

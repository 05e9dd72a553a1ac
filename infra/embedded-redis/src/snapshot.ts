// Snapshot persistence: the whole keyspace as NDJSON (one key per line, absolute expiry times),
// written to a temp file, fsynced and renamed over the old one so a crash never leaves a torn
// snapshot. Strings are latin1 (one char per byte), which JSON round-trips exactly.
import fs from 'node:fs';
import path from 'node:path';
import type { ServerState } from './state.ts';
import { SortedSet } from './store/sortedset.ts';
import type { Value } from './store/db.ts';

export const SNAPSHOT_FILE = 'dump.ndjson';
const FORMAT = 'smm-embedded-redis';
const CHUNK = 1 << 20;

interface Line {
  db: number;
  k: string;
  t: Value['t'];
  v: unknown;
  x?: number;
}

export class SnapshotError extends Error {}

/** Serialises the keyspace into chunks of roughly CHUNK characters (avoids one giant string). */
export function serialise(s: ServerState, now = Date.now()): { chunks: string[]; keys: number } {
  const chunks: string[] = [];
  let cur = JSON.stringify({ format: FORMAT, version: 1, savedAt: now }) + '\n';
  let keys = 0;
  for (const db of s.dbs) {
    for (const [k, e] of db.data) {
      const x = db.expires.get(k);
      if (x !== undefined && x <= now) continue;
      const line: Line = { db: db.index, k, t: e.t, v: encodeValue(e) };
      if (x !== undefined) line.x = x;
      cur += JSON.stringify(line) + '\n';
      keys++;
      if (cur.length >= CHUNK) {
        chunks.push(cur);
        cur = '';
      }
    }
  }
  chunks.push(cur);
  return { chunks, keys };
}

function encodeValue(e: Value): unknown {
  switch (e.t) {
    case 'string':
      return e.v;
    case 'hash':
      return [...e.v];
    case 'set':
      return [...e.v];
    case 'list':
      return e.v;
    case 'zset':
      return e.v.items.map((it) => [it.m, String(it.s)]);
  }
}

function decodeValue(t: string, v: unknown): Value {
  switch (t) {
    case 'string':
      if (typeof v === 'string') return { t, v };
      break;
    case 'hash':
      if (Array.isArray(v)) return { t, v: new Map(v as [string, string][]) };
      break;
    case 'set':
      if (Array.isArray(v)) return { t, v: new Set(v as string[]) };
      break;
    case 'list':
      if (Array.isArray(v)) return { t, v: v as string[] };
      break;
    case 'zset':
      if (Array.isArray(v)) {
        const z = new SortedSet();
        for (const [m, s] of v as [string, string][]) z.set(m, Number(s));
        return { t, v: z };
      }
      break;
  }
  throw new SnapshotError(`bad value of type ${t}`);
}

let tmpCounter = 0;
/** Each write gets its own temp file, so a SAVE during a background write cannot interleave. */
function tmpName(file: string): string {
  return `${file}.tmp-${process.pid}-${tmpCounter++}`;
}

export function writeSnapshotSync(dir: string, chunks: string[]): void {
  const file = path.join(dir, SNAPSHOT_FILE);
  const tmp = tmpName(file);
  const fd = fs.openSync(tmp, 'w');
  try {
    for (const c of chunks) fs.writeSync(fd, c, null, 'latin1');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/**
 * Background write. `stillCurrent` is asked just before the rename: if a newer snapshot was
 * written meanwhile, this older one is dropped instead of replacing it. Returns whether it was kept.
 */
export async function writeSnapshot(dir: string, chunks: string[], stillCurrent: () => boolean): Promise<boolean> {
  const file = path.join(dir, SNAPSHOT_FILE);
  const tmp = tmpName(file);
  const fh = await fs.promises.open(tmp, 'w');
  try {
    for (const c of chunks) await fh.write(c, null, 'latin1');
    await fh.sync();
  } finally {
    await fh.close();
  }
  if (!stillCurrent()) {
    await fs.promises.rm(tmp, { force: true });
    return false;
  }
  await fs.promises.rename(tmp, file);
  return true;
}

/** Removes temp files a killed process left mid-write (call while holding the data-dir lock). */
export function removeStaleTemps(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(`${SNAPSHOT_FILE}.tmp`)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** Loads a snapshot into the (empty) state; returns the number of keys loaded (0 if none). */
export function loadSnapshot(dir: string, s: ServerState, now = Date.now()): number {
  const file = path.join(dir, SNAPSHOT_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'latin1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw new SnapshotError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const lines = text.split('\n');
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l === '') continue;
    let obj: unknown;
    try {
      obj = JSON.parse(l);
    } catch {
      throw new SnapshotError(`${file} line ${i + 1} is not valid JSON`);
    }
    if (i === 0) {
      if ((obj as { format?: string }).format !== FORMAT) throw new SnapshotError(`${file} is not a snapshot file`);
      continue;
    }
    const line = obj as Line;
    const db = s.dbs[line.db];
    if (db === undefined || typeof line.k !== 'string') throw new SnapshotError(`${file} line ${i + 1} is malformed`);
    if (line.x !== undefined && line.x <= now) continue;
    db.put(line.k, decodeValue(line.t, line.v));
    if (line.x !== undefined) db.expires.set(line.k, line.x);
    n++;
  }
  return n;
}

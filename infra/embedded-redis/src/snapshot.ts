// Snapshot persistence: the whole keyspace as NDJSON (one key per line, absolute expiry times),
// written to a temp file, fsynced and renamed over the old one so a crash never leaves a torn
// snapshot. Strings are latin1 (one char per byte), which JSON round-trips exactly.
import fs from 'node:fs';
import path from 'node:path';
import type { ServerState } from './state.ts';
import { Deque } from './store/deque.ts';
import { SortedSet } from './store/sortedset.ts';
import { Stream, fmtId, parseId } from './store/stream.ts';
import type { StreamId } from './store/stream.ts';
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
/** `aof`: number of the first append-only file holding writes this snapshot does not contain. */
export function serialise(s: ServerState, now = Date.now(), aof?: number): { chunks: string[]; keys: number } {
  const chunks: string[] = [];
  let cur = JSON.stringify({ format: FORMAT, version: 1, savedAt: now, ...(aof !== undefined ? { aof } : {}) }) + '\n';
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
      return e.v.toArray();
    case 'zset':
      return e.v.items.map((it) => [it.m, String(it.s)]);
    case 'stream':
      return {
        last: fmtId(e.v.lastId),
        entries: e.v.entries.map((x) => [fmtId(x.id), x.fields]),
        groups: [...e.v.groups].map(([name, g]) => [
          name,
          fmtId(g.lastDelivered),
          [...g.pel.values()].map((p) => [fmtId(p.id), p.consumer, p.deliveredAt, p.count]),
          [...g.consumers].map(([cn, x]) => [cn, x.seenAt]),
        ]),
      };
  }
}

type EncodedStream = {
  last: string;
  entries: [string, string[]][];
  groups: [string, string, [string, string, number, number][], [string, number][]][];
};

function decodeStream(v: EncodedStream): Stream {
  const id = (x: string): StreamId => {
    const r = parseId(x, 0n);
    if (r === undefined) throw new SnapshotError(`bad stream id ${x}`);
    return r;
  };
  const s = new Stream();
  s.lastId = id(v.last);
  s.entries = v.entries.map(([i, fields]) => ({ id: id(i), fields }));
  for (const [name, last, pel, consumers] of v.groups) {
    s.groups.set(name, {
      lastDelivered: id(last),
      pel: new Map(pel.map(([i, consumer, deliveredAt, count]) => [i, { id: id(i), consumer, deliveredAt, count }])),
      consumers: new Map(consumers.map(([cn, seenAt]) => [cn, { seenAt }])),
    });
  }
  return s;
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
      if (Array.isArray(v)) return { t, v: new Deque(v as string[]) };
      break;
    case 'stream':
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return { t, v: decodeStream(v as EncodedStream) };
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

export interface Loaded {
  keys: number;
  /** First AOF file to replay on top (0 = all: the snapshot predates any AOF). */
  aofSeq: number;
}

/**
 * Loads a snapshot into the (empty) state. Keys are filtered by the snapshot's own time, not
 * now: AOF records replayed on top run at their original times and must see the keys that were
 * alive then; the caller drops what has expired since once replay is done.
 */
export function loadSnapshot(dir: string, s: ServerState): Loaded {
  const file = path.join(dir, SNAPSHOT_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'latin1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { keys: 0, aofSeq: 0 };
    throw new SnapshotError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const lines = text.split('\n');
  let n = 0;
  let savedAt = Date.now();
  let aofSeq = 0;
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
      const head = obj as { format?: string; savedAt?: number; aof?: number };
      if (head.format !== FORMAT) throw new SnapshotError(`${file} is not a snapshot file`);
      if (typeof head.savedAt === 'number') savedAt = head.savedAt;
      if (typeof head.aof === 'number') aofSeq = head.aof;
      continue;
    }
    const line = obj as Line;
    const db = s.dbs[line.db];
    if (db === undefined || typeof line.k !== 'string') throw new SnapshotError(`${file} line ${i + 1} is malformed`);
    if (line.x !== undefined && line.x <= savedAt) continue;
    db.put(line.k, decodeValue(line.t, line.v));
    if (line.x !== undefined) db.expires.set(line.k, line.x);
    n++;
  }
  return { keys: n, aofSeq };
}

/** Removes keys whose deadline has passed (after start-up: the server was down meanwhile). */
export function dropExpired(s: ServerState, now = Date.now()): void {
  for (const db of s.dbs) {
    for (const [k, at] of db.expires) {
      if (at <= now) {
        db.data.delete(k);
        db.expires.delete(k);
      }
    }
  }
}

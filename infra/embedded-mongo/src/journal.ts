// Durability: an append-only journal of committed changes, group-committed with fdatasync before
// clients are answered, plus a snapshot file. When the journal passes a size threshold the full
// state is written to a new snapshot (tmp + fsync + rename) and the journal is truncated. Records
// carry full document images, so replaying a journal over a newer snapshot converges to the same state.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as BSON from 'bson';
import type { JournalSink } from './engine.ts';
import type { Doc } from './values.ts';

const JOURNAL = 'journal.log';
const SNAPSHOT = 'snapshot.bson';
const LOCK = 'embedded-mongo.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`data dir ${dataDir} is in use by another embedded-mongo (pid ${pid})`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One server per data dir: a pid file, taken over when its owner is gone (e.g. after SIGKILL). */
function takeLock(dir: string): void {
  const file = path.join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number(fs.readFileSync(file, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) throw new DataDirLockedError(dir, owner);
    fs.rmSync(file, { force: true });
  }
  throw new Error(`could not lock data dir ${dir}`);
}

interface Pending {
  buf: Buffer;
  resolve: () => void;
  reject: (e: Error) => void;
}

function frame(record: Doc): Buffer {
  const body = Buffer.from(BSON.serialize(record, { ignoreUndefined: true }));
  const head = Buffer.alloc(8);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(zlib.crc32(body), 4);
  return Buffer.concat([head, body]);
}

/** Framed records of a buffer, read lazily; stops at the first torn or corrupt one. */
function* frames(buf: Buffer, end: { validBytes: number }): Generator<Doc> {
  let off = 0;
  while (off + 8 <= buf.length) {
    const len = buf.readUInt32LE(off);
    const crc = buf.readUInt32LE(off + 4);
    if (off + 8 + len > buf.length) break;
    const body = buf.subarray(off + 8, off + 8 + len);
    if (zlib.crc32(body) !== crc) break;
    off += 8 + len;
    end.validBytes = off;
    yield BSON.deserialize(body, { promoteValues: false }) as Doc;
  }
}

function readFile(file: string): Buffer {
  return fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
}

export interface JournalOptions {
  dataDir: string;
  /** Journal size that triggers compaction. */
  compactBytes: number;
  /** Produces the full state as records for a snapshot. */
  dump: () => Iterable<Doc>;
  onCompact?: (info: { journalBytes: number; snapshotBytes: number; ms: number }) => void;
}

export class Journal implements JournalSink {
  private fd = -1;
  private size = 0;
  private pending: Pending[] = [];
  private flushing = false;
  private closed = false;

  constructor(private readonly opts: JournalOptions) {}

  /**
   * Returns the snapshot's records (read lazily, so a large snapshot is never held twice in
   * memory) and the journal's, truncating a torn journal tail.
   */
  open(): { snapshot: Iterable<Doc>; journal: Doc[] } {
    const dir = this.opts.dataDir;
    fs.mkdirSync(dir, { recursive: true });
    takeLock(dir);
    fs.rmSync(path.join(dir, `${SNAPSHOT}.tmp`), { force: true });
    const snapshot = frames(readFile(path.join(dir, SNAPSHOT)), { validBytes: 0 });
    const jfile = path.join(dir, JOURNAL);
    const jbuf = readFile(jfile);
    const end = { validBytes: 0 };
    const journal = [...frames(jbuf, end)];
    this.fd = fs.openSync(jfile, 'a+');
    if (end.validBytes < jbuf.length) {
      fs.ftruncateSync(this.fd, end.validBytes);
      fs.fsyncSync(this.fd);
    }
    this.size = end.validBytes;
    return { snapshot, journal };
  }

  append(record: Doc): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ buf: frame(record), resolve, reject });
      if (!this.flushing) void this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0);
        const data = Buffer.concat(batch.map((p) => p.buf));
        try {
          await writeAll(this.fd, data);
          await new Promise<void>((res, rej) => fs.fdatasync(this.fd, (e) => (e ? rej(e) : res())));
          this.size += data.length;
          for (const p of batch) p.resolve();
        } catch (e) {
          for (const p of batch) p.reject(e as Error);
        }
        if (this.size >= this.opts.compactBytes) this.compact();
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Writes the current in-memory state as the new snapshot and empties the journal. Runs
   * synchronously so the captured state is a consistent cut.
   */
  compact(): void {
    const started = Date.now();
    const dir = this.opts.dataDir;
    const tmp = path.join(dir, `${SNAPSHOT}.tmp`);
    const fd = fs.openSync(tmp, 'w');
    let bytes = 0;
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    const drain = (): void => {
      const data = Buffer.concat(chunk);
      let off = 0;
      while (off < data.length) off += fs.writeSync(fd, data, off);
      bytes += data.length;
      chunk = [];
      chunkBytes = 0;
    };
    for (const rec of this.opts.dump()) {
      const f = frame(rec);
      chunk.push(f);
      chunkBytes += f.length;
      if (chunkBytes > 4 << 20) drain();
    }
    drain();
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, path.join(dir, SNAPSHOT));
    syncDir(dir);
    const journalBytes = this.size;
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.size = 0;
    this.opts.onCompact?.({ journalBytes, snapshotBytes: bytes, ms: Date.now() - started });
  }

  get bytes(): number {
    return this.size;
  }

  /**
   * Flushes, and when the journal holds anything writes a snapshot, so the next start loads the
   * snapshot alone instead of replaying the journal (much slower per document).
   */
  async close(): Promise<void> {
    while (this.flushing || this.pending.length) await new Promise((r) => setTimeout(r, 5));
    this.closed = true;
    try {
      // A failure here loses nothing: the journal still holds every commit.
      if (this.fd >= 0 && this.size > 0) this.compact();
    } finally {
      this.release();
    }
  }

  /** Closes the files and the lock without a snapshot (also when loading failed: the state is partial). */
  release(): void {
    this.closed = true;
    if (this.fd >= 0) {
      fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.fd = -1;
    }
    fs.rmSync(path.join(this.opts.dataDir, LOCK), { force: true });
  }
}

function writeAll(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (off: number): void => {
      if (off >= data.length) return resolve();
      fs.write(fd, data, off, data.length - off, null, (e, n) => (e ? reject(e) : step(off + n)));
    };
    step(0);
  });
}

function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  }
}

// Durability: an append-only journal of committed changes, group-committed (written with O_DSYNC,
// as durable as write + fdatasync) before clients are answered, plus a snapshot file. When the
// journal passes a size threshold it is sealed (renamed to journal.<gen>.sealed, a fresh
// journal.log takes the next commits) and the state as of that moment is written to a new
// snapshot in the background, a slice at a time between other clients' requests (tmp + fsync +
// rename); only then are the sealed segments it covers deleted. Records carry full document
// images, so replaying a journal over a newer snapshot converges to the same state.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as BSON from 'bson';
import type { JournalSink } from './engine.ts';
import type { Doc } from './values.ts';
import type { DumpSource } from './persistence.ts';
import { sliceMs, startSliced, yieldTurn } from './slices.ts';

const JOURNAL = 'journal.log';
const SEALED = /^journal\.(\d+)\.sealed$/;
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
  /** Captures the current state (synchronously); its records are produced as the snapshot is written. */
  dump: () => DumpSource;
  onCompact?: (info: { journalBytes: number; snapshotBytes: number; ms: number; background: boolean }) => void;
  onCompactError?: (e: Error) => void;
}

export class Journal implements JournalSink {
  private fd = -1;
  private size = 0;
  private pending: Pending[] = [];
  private flushing = false;
  private closed = false;
  /** Generation of the newest sealed segment (0: none yet). */
  private gen = 0;
  /** Sealed segments not yet covered by a durable snapshot, oldest first. */
  private sealed: Array<{ gen: number; file: string }> = [];
  private sealWaiters: Array<{ resolve: (gen: number) => void; reject: (e: Error) => void }> = [];
  private compacting: Promise<void> | null = null;

  constructor(private readonly opts: JournalOptions) {}

  private get journalFile(): string {
    return path.join(this.opts.dataDir, JOURNAL);
  }

  /**
   * Returns the snapshot's records (read lazily, so a large snapshot is never held twice in
   * memory) and the journal's: the sealed segments the snapshot does not cover, in order, then
   * journal.log, whose torn tail is truncated.
   */
  open(): { snapshot: Iterable<Doc>; journal: Doc[] } {
    const dir = this.opts.dataDir;
    fs.mkdirSync(dir, { recursive: true });
    takeLock(dir);
    fs.rmSync(path.join(dir, `${SNAPSHOT}.tmp`), { force: true });
    const sbuf = readFile(path.join(dir, SNAPSHOT));
    // A snapshot's first record names the newest sealed segment it covers (none in older formats).
    const first = frames(sbuf, { validBytes: 0 }).next();
    const covers = first.done ? 0 : Number(first.value['covers'] ?? 0);
    const snapshot = frames(sbuf, { validBytes: 0 });
    const journal: Doc[] = [];
    this.gen = covers;
    for (const name of fs.readdirSync(dir).sort()) {
      const m = SEALED.exec(name);
      if (!m) continue;
      const gen = Number(m[1]);
      this.gen = Math.max(this.gen, gen);
      // Left by a crash after the snapshot covering it was renamed into place.
      if (gen <= covers) fs.rmSync(path.join(dir, name), { force: true });
      else this.sealed.push({ gen, file: path.join(dir, name) });
    }
    this.sealed.sort((a, b) => a.gen - b.gen);
    for (const s of this.sealed) journal.push(...frames(readFile(s.file), { validBytes: 0 }));
    const jfile = this.journalFile;
    const jbuf = readFile(jfile);
    const end = { validBytes: 0 };
    journal.push(...frames(jbuf, end));
    this.fd = openJournal(jfile);
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
      while (this.pending.length || this.sealWaiters.length) {
        // The commits of this turn of the event loop go together (group commit): the write waits
        // until the turn's I/O callbacks have run.
        await new Promise<void>((resolve) => setImmediate(resolve));
        // Sealing happens between batches: every record written to the sealed segment was taken
        // before the seal was asked for, so the snapshot begun at that moment holds all of them.
        if (this.sealWaiters.length) await this.seal();
        if (!this.pending.length) continue;
        const batch = this.pending.splice(0);
        const data = Buffer.concat(batch.map((p) => p.buf));
        try {
          // On the main thread, and with O_DSYNC: durable (data and the size that makes it
          // readable) when the write returns. See writeDurably.
          writeDurably(this.fd, data);
          this.size += data.length;
          for (const p of batch) p.resolve();
        } catch (e) {
          for (const p of batch) p.reject(e as Error);
        }
        if (this.size >= this.opts.compactBytes && !this.compacting && !this.closed) {
          this.compact().catch((e: unknown) => this.opts.onCompactError?.(e as Error));
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Renames journal.log to the next sealed segment and continues in a new, empty journal.log. */
  private async seal(): Promise<void> {
    const waiters = this.sealWaiters.splice(0);
    try {
      const gen = this.gen + 1;
      const file = path.join(this.opts.dataDir, `journal.${gen}.sealed`);
      const oldFd = this.fd;
      fs.renameSync(this.journalFile, file);
      this.gen = gen;
      this.sealed.push({ gen, file });
      this.fd = openJournal(this.journalFile);
      this.size = 0;
      fs.closeSync(oldFd);
      // The rename and the new file must be on disk before anything written to it is acknowledged.
      await syncDirAsync(this.opts.dataDir);
      for (const w of waiters) w.resolve(gen);
    } catch (e) {
      for (const w of waiters) w.reject(e as Error);
    }
  }

  private requestSeal(): Promise<number> {
    const p = new Promise<number>((resolve, reject) => this.sealWaiters.push({ resolve, reject }));
    if (!this.flushing) void this.flushLoop();
    return p;
  }

  /**
   * Writes the state as of this call to a new snapshot and then deletes the journal it makes
   * redundant. The state is captured synchronously (an open snapshot over the version chains)
   * and the journal sealed at the same point; the documents are then written in slices that let
   * other clients in between (sharing about 1 ms per turn of the event loop with other long
   * operations; `background: false` at shutdown writes straight through). Resolves when the
   * snapshot is durable. A compaction already running is awaited instead.
   */
  compact(background = true): Promise<void> {
    if (this.compacting) return this.compacting;
    if (this.fd < 0) return Promise.reject(new Error('journal closed'));
    const source = this.opts.dump();
    const sealed = this.requestSeal();
    const run = this.writeSnapshot(source, sealed, background).finally(() => {
      source.end();
      this.compacting = null;
    });
    this.compacting = run;
    return run;
  }

  private async writeSnapshot(source: DumpSource, sealed: Promise<number>, background: boolean): Promise<void> {
    const started = Date.now();
    const covers = await sealed;
    const journalBytes = this.sealed.reduce((n, s) => n + fileSize(s.file), 0);
    const dir = this.opts.dataDir;
    const tmp = path.join(dir, `${SNAPSHOT}.tmp`);
    const fh = await fs.promises.open(tmp, 'w');
    let bytes = 0;
    try {
      let chunk: Buffer[] = [frame({ ts: 0, ops: [], covers })];
      let chunkBytes = chunk[0]!.length;
      const drain = async (): Promise<void> => {
        const data = Buffer.concat(chunk);
        chunk = [];
        chunkBytes = 0;
        for (let off = 0; off < data.length; ) off += (await fh.write(data, off, data.length - off)).bytesWritten;
        bytes += data.length;
      };
      let sliceStart = performance.now();
      const sliced = background ? startSliced() : undefined;
      let budget = sliceMs();
      try {
        for (const rec of source.records) {
          if (rec) {
            const f = frame(rec);
            chunk.push(f);
            chunkBytes += f.length;
            if (chunkBytes > 1 << 20) await drain();
          }
          // At shutdown (no more clients) a background snapshot finishes straight through.
          if (background && !this.closed && performance.now() - sliceStart > budget) {
            await yieldTurn();
            sliceStart = performance.now();
            budget = sliceMs();
          }
        }
      } finally {
        sliced?.();
      }
      await drain();
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, path.join(dir, SNAPSHOT));
    await syncDirAsync(dir);
    // The snapshot is durable: the segments it covers are no longer needed (a crash before these
    // deletions is handled at the next start, which deletes segments the snapshot covers).
    const done = this.sealed.filter((s) => s.gen <= covers);
    this.sealed = this.sealed.filter((s) => s.gen > covers);
    for (const s of done) await fs.promises.rm(s.file, { force: true });
    this.opts.onCompact?.({ journalBytes, snapshotBytes: bytes, ms: Date.now() - started, background });
  }

  get bytes(): number {
    return this.size;
  }

  /**
   * Flushes, waits for a running compaction, and when the journal holds anything writes a
   * snapshot, so the next start loads the snapshot alone instead of replaying the journal (much
   * slower per document).
   */
  async close(): Promise<void> {
    while (this.flushing || this.pending.length) await new Promise((r) => setTimeout(r, 5));
    this.closed = true;
    try {
      await this.compacting?.catch(() => undefined);
      // A failure here loses nothing: the journal still holds every commit.
      if (this.fd >= 0 && (this.size > 0 || this.sealed.length > 0)) await this.compact(false);
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

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

async function syncDirAsync(dir: string): Promise<void> {
  let fh: fs.promises.FileHandle | undefined;
  try {
    fh = await fs.promises.open(dir, 'r');
    await fh.sync();
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** O_DSYNC where the platform has it (not on Windows: there each write is followed by fdatasync). */
const DSYNC: number | undefined = fs.constants.O_DSYNC;

/**
 * The journal is appended with O_DSYNC, so each write is durable (data and the size that makes it
 * readable, like fdatasync) when it returns: one trip to the thread pool per group commit instead
 * of two (write, then fdatasync), which on a busy machine is two thread wake-ups fewer per commit.
 */
function openJournal(file: string): number {
  const { O_RDWR, O_CREAT, O_APPEND } = fs.constants;
  return fs.openSync(file, O_RDWR | O_CREAT | O_APPEND | (DSYNC ?? 0), 0o666);
}

/**
 * One group commit's journal write, durable when it returns: synchronous, not on the thread pool.
 * Handing the write to a pool thread and back cost more CPU than the write itself (an O_DSYNC append
 * of 600 bytes: about 150 µs of CPU through the pool against 80 µs on the main thread, on a 2-core
 * VM) and delayed every commit's answer by two thread wake-ups. The server answers nothing else
 * while it waits for the disk (about 0.2 ms on an SSD); commands that arrive meanwhile are read in
 * the next turn and share its write.
 */
function writeDurably(fd: number, data: Buffer): void {
  for (let off = 0; off < data.length; ) off += fs.writeSync(fd, data, off, data.length - off);
  if (!DSYNC) fs.fdatasyncSync(fd);
}

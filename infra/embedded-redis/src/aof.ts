// Append-only file: every write command that changed the keyspace is appended (as RESP) before
// its reply leaves, so a killed process loses nothing it acknowledged; `appendfsync` decides how
// often the file is also fsynced (always: before the reply; everysec: once a second in the
// background; no: left to the OS), which is what survives a power loss.
//
// Files are numbered (`appendonly.aof.<n>`). Each snapshot starts a new file and records its
// number, so a snapshot plus the files from that number on is the whole state, and files before
// it are deleted once the snapshot is committed (that is the rewrite/compaction).
//
// Replay must reproduce decisions that depended on time (relative expiries, whether a key was
// still alive), so records carry the time they ran at (`#T:<ms>` lines) and replay pins the clock
// to it. Random choices (SPOP) are recorded as their effect (SREM of the members taken).
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

export type FsyncPolicy = 'always' | 'everysec' | 'no';
export const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'everysec', 'no'];
const PREFIX = 'appendonly.aof.';

export class AofError extends Error {}

function encode(argv: readonly string[]): string {
  let s = '*' + argv.length + '\r\n';
  for (const a of argv) s += '$' + a.length + '\r\n' + a + '\r\n';
  return s;
}

/** Numbers of the AOF files in dir, ascending. */
export function aofFiles(dir: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(PREFIX) && /^\d+$/.test(name.slice(PREFIX.length))) out.push(Number(name.slice(PREFIX.length)));
  }
  return out.sort((a, b) => a - b);
}

export function aofPath(dir: string, n: number): string {
  return path.join(dir, PREFIX + n);
}

export class AppendOnlyFile {
  private fd: number;
  private buf = '';
  private lastDb = -1;
  private lastTs = -1;
  private unsynced = false;
  private syncing = false;
  /** The background fsync (everysec): set by a write, so an idle server holds no timer. */
  private timer: NodeJS.Timeout | undefined;
  private multiStart = -1;
  private multiRecords = 0;
  /** EVAL inside EXEC nests; only the outermost unit is wrapped. */
  private multiDepth = 0;
  private records = 0;
  /** Set after a failed write; writes are then refused (MISCONF) instead of silently not logged. */
  error: string | undefined;
  lastFsyncAt = Date.now();

  constructor(
    private readonly dir: string,
    private seq: number,
    public policy: FsyncPolicy,
    private readonly log: Logger,
  ) {
    this.fd = fs.openSync(aofPath(dir, seq), 'a');
  }

  /** An fsync one second from now (everysec), unless one is set already. */
  private fsyncSoon(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.backgroundFsync();
    }, 1000);
    this.timer.unref();
  }

  get currentSeq(): number {
    return this.seq;
  }

  /** Queues one write command as it ran at `ts` on database `db`. */
  record(db: number, argv: readonly string[], ts: number): void {
    if (db !== this.lastDb) {
      this.buf += encode(['SELECT', String(db)]);
      this.lastDb = db;
    }
    if (ts !== this.lastTs) {
      this.buf += `#T:${ts}\r\n`;
      this.lastTs = ts;
    }
    this.buf += encode(argv);
    this.records++;
  }

  /** EXEC: the commands recorded until endMulti() are wrapped in MULTI/EXEC, replayed all or nothing. */
  beginMulti(): void {
    if (this.multiDepth++ > 0) return;
    this.multiStart = this.buf.length;
    this.multiRecords = this.records;
  }

  endMulti(): void {
    if (this.multiDepth === 0 || --this.multiDepth > 0 || this.multiStart < 0) return;
    if (this.records > this.multiRecords) {
      this.buf = this.buf.slice(0, this.multiStart) + encode(['MULTI']) + this.buf.slice(this.multiStart) + encode(['EXEC']);
    }
    this.multiStart = -1;
  }

  get inMulti(): boolean {
    return this.multiStart >= 0;
  }

  /**
   * Writes what is queued to the file; called before the replies of a batch go out, so an
   * acknowledged write is at least in the OS page cache. Under `always` it is also fsynced.
   */
  flush(): void {
    if (this.buf === '' || this.multiStart >= 0) return;
    const data = this.buf;
    this.buf = '';
    try {
      fs.writeSync(this.fd, data, null, 'latin1');
      if (this.policy === 'always') {
        fs.fsyncSync(this.fd);
        this.lastFsyncAt = Date.now();
      } else {
        this.unsynced = true;
        this.fsyncSoon();
      }
    } catch (err) {
      this.error = (err as Error).message;
      this.log.error({ err: this.error }, 'append-only file write failed; refusing writes');
    }
  }

  private backgroundFsync(): void {
    if (this.policy !== 'everysec' || !this.unsynced) return;
    if (this.syncing) return this.fsyncSoon();
    this.unsynced = false;
    this.syncing = true;
    const fd = this.fd;
    fs.fsync(fd, (err) => {
      this.syncing = false;
      if (err) {
        this.unsynced = true;
        this.fsyncSoon();
        this.log.error({ err: err.message }, 'append-only file fsync failed');
      } else this.lastFsyncAt = Date.now();
    });
  }

  /**
   * Starts a new file (a snapshot is being taken of the state up to here) and returns its
   * number; the old file is flushed and fsynced first.
   */
  rotate(): number {
    this.flush();
    const old = this.fd;
    fs.fsyncSync(old);
    this.seq++;
    this.fd = fs.openSync(aofPath(this.dir, this.seq), 'a');
    // The old descriptor may still have a background fsync in flight; close after it.
    setTimeout(() => fs.close(old, () => undefined), 2000).unref();
    this.lastDb = -1;
    this.lastTs = -1;
    this.unsynced = false;
    return this.seq;
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    try {
      fs.fsyncSync(this.fd);
    } finally {
      fs.closeSync(this.fd);
    }
  }
}

export interface AofRecord {
  argv: string[];
  ts: number | undefined;
}

/**
 * Reads one AOF file. A record cut short at the end (a write torn by a crash) is dropped and the
 * file truncated to the last complete record, as Redis does with aof-load-truncated; anything
 * malformed before the end is an error, so a damaged file is never half-loaded in silence.
 */
export function readAof(file: string, onRecord: (r: AofRecord) => void, log: Logger): void {
  const buf = fs.readFileSync(file);
  let pos = 0;
  let ts: number | undefined;
  const bad = (why: string): never => {
    throw new AofError(`${file} is corrupt at byte ${pos}: ${why}`);
  };
  const line = (from: number): [string, number] | undefined => {
    const nl = buf.indexOf('\r\n', from, 'latin1');
    if (nl === -1) return undefined;
    return [buf.toString('latin1', from, nl), nl + 2];
  };
  while (pos < buf.length) {
    const start = pos;
    const head = line(pos);
    if (head === undefined) return truncate(file, start, log);
    const [text, next] = head;
    if (text.startsWith('#T:')) {
      const t = Number(text.slice(3));
      if (!Number.isSafeInteger(t)) bad('bad timestamp');
      ts = t;
      pos = next;
      continue;
    }
    if (!text.startsWith('*')) bad('expected an array');
    const n = Number(text.slice(1));
    if (!Number.isSafeInteger(n) || n < 1) bad('bad array length');
    let p = next;
    const argv: string[] = [];
    for (let i = 0; i < n; i++) {
      const h = line(p);
      if (h === undefined) return truncate(file, start, log);
      if (!h[0].startsWith('$')) bad('expected a bulk string');
      const len = Number(h[0].slice(1));
      if (!Number.isSafeInteger(len) || len < 0) bad('bad bulk length');
      if (h[1] + len + 2 > buf.length) return truncate(file, start, log);
      argv.push(buf.toString('latin1', h[1], h[1] + len));
      p = h[1] + len + 2;
    }
    pos = p;
    onRecord({ argv, ts });
  }
}

function truncate(file: string, at: number, log: Logger): void {
  log.warn({ file, at, dropped: fs.statSync(file).size - at }, 'append-only file ends in a torn record; truncating it');
  fs.truncateSync(file, at);
}

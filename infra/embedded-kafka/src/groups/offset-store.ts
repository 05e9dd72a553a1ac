import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { fsyncDir } from '../log/fsync-dir.ts';
import { GroupSync } from '../log/group-sync.ts';
import type { LatencyStats } from '../stats.ts';

export interface CommittedOffset {
  offset: number;
  metadata: string | null;
}

type Entry =
  | { g: string; t: string; p: number; o: number; m: string | null }
  | { deleteTopic: string }
  | { deleteGroup: string };

const COMPACT_MIN_LINES = 10_000;

function parseEntry(line: string): Entry | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const e = v as Record<string, unknown>;
  if (typeof e.deleteTopic === 'string') return { deleteTopic: e.deleteTopic };
  if (typeof e.deleteGroup === 'string') return { deleteGroup: e.deleteGroup };
  if (typeof e.g === 'string' && typeof e.t === 'string' && typeof e.p === 'number' && typeof e.o === 'number' && (typeof e.m === 'string' || e.m === null)) {
    return { g: e.g, t: e.t, p: e.p, o: e.o, m: e.m };
  }
  return null;
}

/**
 * Committed offsets as an append-only JSON-lines file, replayed on start and rewritten
 * (temp file + rename) when it holds far more lines than live entries.
 */
export class OffsetStore {
  private readonly offsets = new Map<string, Map<string, CommittedOffset>>();
  private readonly file: string;
  private fd: number;
  private size = 0;
  private lines = 0;
  private readonly syncer: GroupSync;
  private unflushed = false;

  constructor(
    dataDir: string,
    private readonly logger: Logger,
    fsyncStats?: LatencyStats,
  ) {
    const dir = path.join(dataDir, 'offsets');
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'commits.jsonl');
    if (fs.existsSync(this.file)) {
      const data = fs.readFileSync(this.file);
      const valid = this.replay(data);
      if (valid < data.length) {
        // Only the tail can be torn by a crash; cut it so new lines do not merge with it.
        logger.warn({ file: this.file, validBytes: valid, fileBytes: data.length }, 'truncated torn offsets tail');
        fs.truncateSync(this.file, valid);
      }
    }
    this.fd = fs.openSync(this.file, fs.constants.O_RDWR | fs.constants.O_CREAT);
    this.size = fs.fstatSync(this.fd).size;
    this.syncer = new GroupSync(() => {
      const fd = this.fd;
      return { fd, gone: () => fd !== this.fd };
    }, fsyncStats);
    if (this.lines > COMPACT_MIN_LINES) this.compact();
  }

  /** Applies complete lines and returns the byte length they occupy; the rest is a torn tail. */
  private replay(data: Buffer): number {
    let pos = 0;
    while (pos < data.length) {
      const nl = data.indexOf(0x0a, pos);
      if (nl === -1) break;
      const line = data.toString('utf8', pos, nl);
      if (line !== '') {
        const entry = parseEntry(line);
        if (entry) this.apply(entry);
        else this.logger.warn({ file: this.file, at: pos }, 'skipped unreadable offsets line');
        this.lines++;
      }
      pos = nl + 1;
    }
    return pos;
  }

  private apply(e: Entry): void {
    if ('deleteGroup' in e) {
      this.offsets.delete(e.deleteGroup);
      return;
    }
    if ('deleteTopic' in e) {
      for (const group of this.offsets.values()) {
        for (const key of group.keys()) if (key.slice(0, key.lastIndexOf(':')) === e.deleteTopic) group.delete(key);
      }
      return;
    }
    let group = this.offsets.get(e.g);
    if (!group) {
      group = new Map();
      this.offsets.set(e.g, group);
    }
    group.set(`${e.t}:${e.p}`, { offset: e.o, metadata: e.m });
  }

  private write(entries: Entry[]): void {
    if (entries.length === 0) return;
    const data = Buffer.from(entries.map((e) => JSON.stringify(e) + '\n').join(''), 'utf8');
    let written = 0;
    try {
      while (written < data.length) written += fs.writeSync(this.fd, data, written, data.length - written, this.size + written);
    } catch (err) {
      // Cut a partial line so the lines written after it stay readable.
      fs.ftruncateSync(this.fd, this.size);
      throw err;
    }
    this.size += data.length;
    this.unflushed = true;
    this.lines += entries.length;
    for (const e of entries) this.apply(e);
    if (this.lines > COMPACT_MIN_LINES && this.lines > 4 * this.liveCount()) this.compact();
  }

  /** Written to the OS before returning; call sync() before acknowledging for power-loss safety. */
  commit(group: string, items: { topic: string; partition: number; offset: number; metadata: string | null }[]): void {
    this.write(items.map((i) => ({ g: group, t: i.topic, p: i.partition, o: i.offset, m: i.metadata })));
  }

  sync(): Promise<void> {
    this.unflushed = false;
    return this.syncer.sync();
  }

  /** The interval flush: fdatasync now if anything was written since the last sync. */
  flush(): void {
    if (!this.unflushed) return;
    this.unflushed = false;
    fs.fdatasyncSync(this.fd);
  }

  /**
   * After a restart: a committed offset past its partition's end (the log lost an unflushed tail in
   * a machine crash, while the kernel had already written the commit) is moved back to that end, so
   * the group reads what producers publish there again instead of skipping or resetting past it.
   * A deleted partition's offsets are left alone (the topic's deletion clears them).
   */
  clampTo(highWatermark: (topic: string, partition: number) => number | undefined): number {
    const moved: Entry[] = [];
    for (const [g, group] of this.offsets) {
      for (const [key, v] of group) {
        const sep = key.lastIndexOf(':');
        const t = key.slice(0, sep);
        const p = Number(key.slice(sep + 1));
        const end = highWatermark(t, p);
        if (end !== undefined && v.offset > end) moved.push({ g, t, p, o: end, m: v.metadata });
      }
    }
    this.write(moved);
    if (moved.length > 0) fs.fdatasyncSync(this.fd);
    return moved.length;
  }

  deleteTopic(topic: string): void {
    this.write([{ deleteTopic: topic }]);
  }

  deleteGroup(group: string): void {
    this.write([{ deleteGroup: group }]);
  }

  hasGroup(group: string): boolean {
    return (this.offsets.get(group)?.size ?? 0) > 0;
  }

  /** Groups that have committed offsets, for ListGroups after a restart. */
  groups(): string[] {
    return [...this.offsets.entries()].filter(([, m]) => m.size > 0).map(([g]) => g);
  }

  get(group: string, topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(group)?.get(`${topic}:${partition}`);
  }

  /** Every committed offset of a group (OffsetFetch with null topics, admin list-offsets), by topic then partition. */
  list(group: string): { topic: string; partition: number; committed: CommittedOffset }[] {
    const out = [...(this.offsets.get(group) ?? new Map<string, CommittedOffset>()).entries()].map(([key, committed]) => {
      // Topic names cannot contain ':' (isValidTopicName), so the last one separates the partition.
      const at = key.lastIndexOf(':');
      return { topic: key.slice(0, at), partition: Number(key.slice(at + 1)), committed };
    });
    return out.sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
  }

  private liveCount(): number {
    let n = 0;
    for (const g of this.offsets.values()) n += g.size;
    return n;
  }

  private compact(): void {
    const tmp = `${this.file}.tmp`;
    const out: string[] = [];
    for (const [g, group] of this.offsets) {
      for (const [key, v] of group) {
        const sep = key.lastIndexOf(':');
        out.push(JSON.stringify({ g, t: key.slice(0, sep), p: Number(key.slice(sep + 1)), o: v.offset, m: v.metadata }) + '\n');
      }
    }
    fs.writeFileSync(tmp, out.join(''));
    const tfd = fs.openSync(tmp, 'r');
    fs.fdatasyncSync(tfd);
    fs.closeSync(tfd);
    fs.renameSync(tmp, this.file);
    fsyncDir(path.dirname(this.file));
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, fs.constants.O_RDWR | fs.constants.O_CREAT);
    this.size = fs.fstatSync(this.fd).size;
    this.lines = out.length;
    this.logger.info({ entries: out.length }, 'compacted committed offsets');
  }

  close(): void {
    try {
      fs.fdatasyncSync(this.fd);
    } finally {
      fs.closeSync(this.fd);
    }
  }
}

import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { GroupSync } from '../log/group-sync.ts';
import type { LatencyStats } from '../stats.ts';

export interface CommittedOffset {
  offset: number;
  metadata: string | null;
}

type Entry =
  | { g: string; t: string; p: number; o: number; m: string | null }
  | { deleteTopic: string };

const COMPACT_MIN_LINES = 10_000;

/**
 * Committed offsets as an append-only JSON-lines file, replayed on start and rewritten
 * (temp file + rename) when it holds far more lines than live entries.
 */
export class OffsetStore {
  private readonly offsets = new Map<string, Map<string, CommittedOffset>>();
  private readonly file: string;
  private fd: number;
  private lines = 0;
  private readonly syncer: GroupSync;

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
    this.fd = fs.openSync(this.file, 'a');
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
        let entry: Entry;
        try {
          entry = JSON.parse(line) as Entry;
        } catch {
          break;
        }
        this.apply(entry);
        this.lines++;
      }
      pos = nl + 1;
    }
    return pos;
  }

  private apply(e: Entry): void {
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
    while (written < data.length) written += fs.writeSync(this.fd, data, written);
    this.lines += entries.length;
    for (const e of entries) this.apply(e);
    if (this.lines > COMPACT_MIN_LINES && this.lines > 4 * this.liveCount()) this.compact();
  }

  /** Written to the OS before returning; call sync() before acknowledging for power-loss safety. */
  commit(group: string, items: { topic: string; partition: number; offset: number; metadata: string | null }[]): void {
    this.write(items.map((i) => ({ g: group, t: i.topic, p: i.partition, o: i.offset, m: i.metadata })));
  }

  sync(): Promise<void> {
    return this.syncer.sync();
  }

  deleteTopic(topic: string): void {
    this.write([{ deleteTopic: topic }]);
  }

  get(group: string, topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(group)?.get(`${topic}:${partition}`);
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
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, 'a');
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

import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { ErrorCode, type ErrorCodeValue } from '../protocol/error-codes.ts';
import { fsyncDir } from './fsync-dir.ts';
import { PartitionLog, type LogConfig } from './partition-log.ts';

const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

export function isValidTopicName(name: string): boolean {
  return TOPIC_NAME.test(name) && name !== '.' && name !== '..';
}

/**
 * All topics on disk: <dataDir>/topics/<topic>/<partition>/<baseOffset>.log. A topic directory
 * appears by rename, so a crash during creation never leaves a topic with missing partitions.
 */
export class TopicStore {
  private readonly topics = new Map<string, PartitionLog[]>();
  private readonly root: string;
  /** Same filesystem as root, so renames are atomic; a valid topic may itself start with a dot. */
  private readonly scratch: string;

  constructor(
    dataDir: string,
    private readonly config: LogConfig,
    private readonly logger: Logger,
  ) {
    this.root = path.join(dataDir, 'topics');
    this.scratch = path.join(dataDir, 'scratch');
    fs.rmSync(this.scratch, { recursive: true, force: true }); // leftovers of an interrupted create or delete
    fs.mkdirSync(this.scratch, { recursive: true });
    fs.mkdirSync(this.root, { recursive: true });
    for (const entry of fs.readdirSync(this.root, { withFileTypes: true })) {
      const name = entry.name;
      const dir = path.join(this.root, name);
      if (!entry.isDirectory()) {
        logger.warn({ path: dir }, 'ignored unexpected file in topics dir');
        continue;
      }
      const parts = fs
        .readdirSync(dir)
        .filter((p) => /^\d+$/.test(p))
        .map(Number)
        .sort((a, b) => a - b);
      if (parts.length === 0 || parts.some((p, i) => p !== i)) {
        logger.warn({ topic: name, partitions: parts }, 'skipped topic with inconsistent partitions');
        continue;
      }
      this.topics.set(
        name,
        parts.map((p) => new PartitionLog(path.join(dir, String(p)), name, p, config, logger)),
      );
    }
  }

  names(): string[] {
    return [...this.topics.keys()].sort();
  }

  has(topic: string): boolean {
    return this.topics.has(topic);
  }

  partitions(topic: string): PartitionLog[] | undefined {
    return this.topics.get(topic);
  }

  get(topic: string, partition: number): PartitionLog | undefined {
    return this.topics.get(topic)?.[partition];
  }

  /** Why `create` would fail, without creating anything (CreateTopics validate_only). */
  checkCreate(topic: string, partitions: number): ErrorCodeValue {
    if (!isValidTopicName(topic)) return ErrorCode.InvalidTopic;
    if (this.topics.has(topic)) return ErrorCode.TopicAlreadyExists;
    if (!Number.isInteger(partitions) || partitions < 1 || partitions > 10_000) return ErrorCode.InvalidPartitions;
    return ErrorCode.None;
  }

  create(topic: string, partitions: number): ErrorCodeValue {
    const invalid = this.checkCreate(topic, partitions);
    if (invalid !== ErrorCode.None) return invalid;
    const tmp = path.join(this.scratch, `creating-${topic}`);
    fs.rmSync(tmp, { recursive: true, force: true });
    for (let p = 0; p < partitions; p++) fs.mkdirSync(path.join(tmp, String(p)), { recursive: true });
    const dir = path.join(this.root, topic);
    fs.renameSync(tmp, dir);
    fsyncDir(this.root);
    const logs: PartitionLog[] = [];
    for (let p = 0; p < partitions; p++) logs.push(new PartitionLog(path.join(dir, String(p)), topic, p, this.config, this.logger));
    this.topics.set(topic, logs);
    this.logger.info({ topic, partitions }, 'topic created');
    return ErrorCode.None;
  }

  /** Grows a topic to `count` partitions; existing partitions and their data are untouched. */
  addPartitions(topic: string, count: number): ErrorCodeValue {
    const logs = this.topics.get(topic);
    if (!logs) return ErrorCode.UnknownTopicOrPartition;
    if (!Number.isInteger(count) || count <= logs.length || count > 10_000) return ErrorCode.InvalidPartitions;
    const dir = path.join(this.root, topic);
    // Created in order, so a crash part-way leaves partitions 0..k, which a restart accepts.
    for (let p = logs.length; p < count; p++) logs.push(new PartitionLog(path.join(dir, String(p)), topic, p, this.config, this.logger));
    fsyncDir(dir);
    this.logger.info({ topic, partitions: count }, 'partitions added');
    return ErrorCode.None;
  }

  delete(topic: string): ErrorCodeValue {
    const logs = this.topics.get(topic);
    if (!logs) return ErrorCode.UnknownTopicOrPartition;
    this.topics.delete(topic);
    for (const l of logs) l.close();
    const dir = path.join(this.root, topic);
    const doomed = path.join(this.scratch, `deleting-${topic}-${Date.now()}`);
    fs.renameSync(dir, doomed);
    fs.rmSync(doomed, { recursive: true, force: true });
    this.logger.info({ topic }, 'topic deleted');
    return ErrorCode.None;
  }

  /** The interval flush of every partition with appends since its last one. */
  flush(): void {
    for (const logs of this.topics.values()) for (const l of logs) l.flush();
  }

  applyRetention(now: number): void {
    for (const logs of this.topics.values()) for (const l of logs) l.applyRetention(now);
  }

  close(): void {
    for (const logs of this.topics.values()) for (const l of logs) l.close();
    this.topics.clear();
  }
}

import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { PartitionLog } from '../log/partition-log.ts';
import { parseBatches, ZSTD } from '../log/record-batch.ts';
import { mayTopic } from './authz.ts';
import type { Handler } from './handler.ts';

interface PartitionResult {
  index: number;
  error: number;
  baseOffset: number;
  logStartOffset: number;
}

/**
 * Appends each partition's batches as opaque bytes; the answer is sent once they are written to the
 * OS (they survive the broker being killed), and the interval flush puts them on disk — as Kafka,
 * which does not fsync per produce either. With a flush interval of 0 an acks=-1 answer waits for
 * fdatasync instead, so an acknowledged message survives power loss too.
 */
export const produce: Handler = async (ctx, h, r) => {
  const v = h.apiVersion;
  const transactionalId = v >= 3 ? r.nullableString() : null;
  const acks = r.int16();
  r.int32(); // timeout_ms: nothing here waits on replicas
  const touched = new Set<PartitionLog>();
  const results = r.array((r) => {
    const name = r.string();
    const partitions = r.array((r): PartitionResult => {
      const index = r.int32();
      const records = r.nullableBytes();
      if (transactionalId !== null) return { index, error: ErrorCode.TransactionalIdAuthorizationFailed, baseOffset: -1, logStartOffset: -1 };
      // As Kafka: authorization before existence, so a refused principal learns nothing of the topic.
      if (!mayTopic(ctx, h, 'write', name)) return { index, error: ErrorCode.TopicAuthorizationFailed, baseOffset: -1, logStartOffset: -1 };
      const log = ctx.topics.get(name, index);
      if (!log) return { index, error: ErrorCode.UnknownTopicOrPartition, baseOffset: -1, logStartOffset: -1 };
      if (!records || records.length === 0) return { index, error: ErrorCode.CorruptMessage, baseOffset: -1, logStartOffset: -1 };
      // As Kafka: zstd needs Produce v7+, so a client that negotiated an older version cannot store
      // batches that its own older consumers could not read.
      if (v < 7 && parseBatches(records).batches.some((b) => b.compression === ZSTD)) {
        return { index, error: ErrorCode.UnsupportedCompressionType, baseOffset: -1, logStartOffset: -1 };
      }
      const res = log.append(records);
      if (res.appended) {
        touched.add(log);
        ctx.appends.notify(name, index);
      } else if (res.error !== ErrorCode.None) {
        ctx.logger.warn({ topic: name, partition: index, error: res.error }, 'produce rejected');
      }
      return { index, error: res.error, baseOffset: res.baseOffset, logStartOffset: log.logStartOffset };
    });
    return { name, partitions };
  });
  if (touched.size > 0) ctx.flushSoon();
  if (acks === 0) return null;
  if (acks === -1 && ctx.fsync && ctx.flushIntervalMs === 0 && touched.size > 0) await Promise.all([...touched].map((l) => l.sync()));

  const w = new Writer();
  w.array(results, (w, t) => {
    w.string(t.name);
    w.array(t.partitions, (w, p) => {
      w.int32(p.index).int16(p.error).int64(p.baseOffset);
      if (v >= 2) w.int64(-1); // log_append_time: CreateTime is kept
      if (v >= 5) w.int64(p.logStartOffset);
      if (v >= 8) w.array([], () => undefined).nullableString(null); // record_errors, error_message
    });
  });
  if (v >= 1) w.int32(0);
  return w;
};

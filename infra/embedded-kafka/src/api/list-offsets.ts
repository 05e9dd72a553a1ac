import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import { mayTopic } from './authz.ts';
import type { Handler } from './handler.ts';

const LATEST = -1;
const EARLIEST = -2;
/** Every partition has leader epoch 0 on this single, never-failing-over broker. */
const LEADER_EPOCH = 0;

interface PartitionAnswer {
  partition: number;
  error: number;
  timestamp: number;
  offset: number;
}

/**
 * Latest (-1), earliest (-2) and by timestamp. A timestamp lookup answers the first batch whose
 * max timestamp is >= t (batch granularity, see the README) and that batch's max timestamp;
 * no such batch answers offset -1 and timestamp -1, as Kafka does.
 */
export const listOffsets: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  r.int32(); // replica_id
  if (v >= 2) r.int8(); // isolation_level: no transactions, both levels see the same offsets
  const topics = r.array((r) => {
    const name = r.string();
    const partitions = r.array((r): PartitionAnswer => {
      const partition = r.int32();
      const leaderEpoch = v >= 4 ? r.int32() : -1;
      const timestamp = r.int64();
      if (v === 0) r.int32(); // max_num_offsets
      if (!mayTopic(ctx, h, 'describe', name)) return { partition, error: ErrorCode.TopicAuthorizationFailed, timestamp: -1, offset: -1 };
      const log = ctx.topics.get(name, partition);
      if (!log) return { partition, error: ErrorCode.UnknownTopicOrPartition, timestamp: -1, offset: -1 };
      if (leaderEpoch > LEADER_EPOCH) return { partition, error: ErrorCode.UnknownLeaderEpoch, timestamp: -1, offset: -1 };
      if (timestamp === LATEST) return { partition, error: ErrorCode.None, timestamp: -1, offset: log.highWatermark };
      if (timestamp === EARLIEST) return { partition, error: ErrorCode.None, timestamp: -1, offset: log.logStartOffset };
      const found = log.offsetForTimestamp(timestamp);
      return { partition, error: ErrorCode.None, ...(found ?? { timestamp: -1, offset: -1 }) };
    });
    return { name, partitions };
  });
  const w = new Writer();
  if (v >= 2) w.int32(0);
  w.array(topics, (w, t) => {
    w.string(t.name);
    w.array(t.partitions, (w, p) => {
      w.int32(p.partition).int16(p.error);
      if (v === 0) w.array(p.offset >= 0 ? [p.offset] : [], (w, o) => void w.int64(o));
      else w.int64(p.timestamp).int64(p.offset);
      if (v >= 4) w.int32(p.offset >= 0 ? LEADER_EPOCH : -1);
    });
  });
  return w;
};

import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { Handler } from './handler.ts';

const LATEST = -1;
const EARLIEST = -2;

export const listOffsets: Handler = (ctx, { apiVersion: v }, r) => {
  r.int32(); // replica_id
  const topics = r.array((r) => {
    const name = r.string();
    const partitions = r.array((r) => {
      const partition = r.int32();
      const timestamp = r.int64();
      if (v === 0) r.int32(); // max_num_offsets
      const log = ctx.topics.get(name, partition);
      if (!log) return { partition, error: ErrorCode.UnknownTopicOrPartition, offset: -1 };
      let offset: number;
      if (timestamp === LATEST) offset = log.highWatermark;
      else if (timestamp === EARLIEST) offset = log.logStartOffset;
      else offset = log.offsetForTimestamp(timestamp);
      return { partition, error: ErrorCode.None, offset };
    });
    return { name, partitions };
  });
  const w = new Writer();
  w.array(topics, (w, t) => {
    w.string(t.name);
    w.array(t.partitions, (w, p) => {
      w.int32(p.partition).int16(p.error);
      if (v === 0) w.array(p.offset >= 0 ? [p.offset] : [], (w, o) => void w.int64(o));
      else w.int64(-1).int64(p.offset);
    });
  });
  return w;
};

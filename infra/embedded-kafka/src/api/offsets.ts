import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { Handler } from './handler.ts';

export const offsetCommit: Handler = async (ctx, { apiVersion: v }, r) => {
  const groupId = r.string();
  const generationId = v >= 1 ? r.int32() : -1;
  const memberId = v >= 1 ? r.string() : '';
  if (v >= 2) r.int64(); // retention_time_ms: committed offsets are kept until their topic is deleted
  const topics = r.array((r) => ({
    name: r.string(),
    partitions: r.array((r) => {
      const partition = r.int32();
      const offset = r.int64();
      if (v === 1) r.int64(); // commit_timestamp
      return { partition, offset, metadata: r.nullableString() };
    }),
  }));
  const groupError = ctx.groups.canCommit(groupId, memberId, generationId);
  const toStore: { topic: string; partition: number; offset: number; metadata: string | null }[] = [];
  const results = topics.map((t) => ({
    name: t.name,
    partitions: t.partitions.map((p) => {
      let error: number = groupError;
      if (error === ErrorCode.None && !ctx.topics.get(t.name, p.partition)) error = ErrorCode.UnknownTopicOrPartition;
      if (error === ErrorCode.None) toStore.push({ topic: t.name, partition: p.partition, offset: p.offset, metadata: p.metadata });
      return { partition: p.partition, error };
    }),
  }));
  if (groupError !== ErrorCode.None) ctx.logger.info({ group: groupId, memberId, generationId, error: groupError }, 'offset commit rejected');
  ctx.offsets.commit(groupId, toStore);
  if (toStore.length > 0 && ctx.fsync) await ctx.offsets.sync();
  const w = new Writer();
  w.array(results, (w, t) => {
    w.string(t.name);
    w.array(t.partitions, (w, p) => void w.int32(p.partition).int16(p.error));
  });
  return w;
};

export const offsetFetch: Handler = (ctx, _h, r) => {
  const groupId = r.string();
  const topics = r.array((r) => ({ name: r.string(), partitions: r.array((r) => r.int32()) }));
  const w = new Writer();
  w.array(topics, (w, t) => {
    w.string(t.name);
    w.array(t.partitions, (w, p) => {
      const c = ctx.offsets.get(groupId, t.name, p);
      w.int32(p).int64(c?.offset ?? -1).nullableString(c?.metadata ?? '').int16(ErrorCode.None);
    });
  });
  return w;
};

import { MalformedRequestError } from '../protocol/reader.ts';
import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import { mayGroup, mayTopic } from './authz.ts';
import type { Handler } from './handler.ts';

export const offsetCommit: Handler = async (ctx, h, r) => {
  const v = h.apiVersion;
  const groupId = r.string();
  const generationId = v >= 1 ? r.int32() : -1;
  const memberId = v >= 1 ? r.string() : '';
  if (v >= 2 && v <= 4) r.int64(); // retention_time_ms: committed offsets are kept until their topic is deleted
  const topics = r.array((r) => ({
    name: r.string(),
    partitions: r.array((r) => {
      const partition = r.int32();
      const offset = r.int64();
      if (v >= 6) r.int32(); // committed_leader_epoch: always 0 here, nothing to fence
      if (v === 1) r.int64(); // commit_timestamp
      return { partition, offset, metadata: r.nullableString() };
    }),
  }));
  // As Kafka: READ on the group first (every partition refused), then READ on each topic.
  const groupError = mayGroup(ctx, h, 'read', groupId) ? ctx.groups.canCommit(groupId, memberId, generationId) : ErrorCode.GroupAuthorizationFailed;
  const toStore: { topic: string; partition: number; offset: number; metadata: string | null }[] = [];
  const results = topics.map((t) => ({
    name: t.name,
    partitions: t.partitions.map((p) => {
      let error: number = groupError;
      if (error === ErrorCode.None && !mayTopic(ctx, h, 'read', t.name)) error = ErrorCode.TopicAuthorizationFailed;
      if (error === ErrorCode.None && !ctx.topics.get(t.name, p.partition)) error = ErrorCode.UnknownTopicOrPartition;
      if (error === ErrorCode.None) toStore.push({ topic: t.name, partition: p.partition, offset: p.offset, metadata: p.metadata });
      return { partition: p.partition, error };
    }),
  }));
  if (groupError !== ErrorCode.None) ctx.logger.info({ group: groupId, memberId, generationId, error: groupError }, 'offset commit rejected');
  ctx.offsets.commit(groupId, toStore);
  if (toStore.length > 0) ctx.flushSoon();
  if (toStore.length > 0 && ctx.fsync && ctx.flushIntervalMs === 0) await ctx.offsets.sync();
  const w = new Writer();
  if (v >= 3) w.int32(0);
  w.array(results, (w, t) => {
    w.string(t.name);
    w.array(t.partitions, (w, p) => void w.int32(p.partition).int16(p.error));
  });
  return w;
};

/** v2+: null topics means every partition the group committed (admin list-consumer-group-offsets). */
export const offsetFetch: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const groupId = r.string();
  const requested = r.nullableArray((r) => ({ name: r.string(), partitions: r.array((r) => r.int32()) }));
  if (requested === null && v < 2) throw new MalformedRequestError('OffsetFetch before v2 must name its topics');
  // As Kafka: DESCRIBE on the group — refused, v2+ says so once (offsets -1), older versions per partition.
  const groupRefused = !mayGroup(ctx, h, 'describe', groupId);
  const committed = groupRefused ? [] : ctx.offsets.list(groupId).filter((c) => mayTopic(ctx, h, 'describe', c.topic));
  const topics = requested ?? groupByTopic(committed.map((c) => ({ topic: c.topic, partition: c.partition })));
  const partitionError = (topic: string): number => {
    if (groupRefused) return v >= 2 ? ErrorCode.None : ErrorCode.GroupAuthorizationFailed;
    return mayTopic(ctx, h, 'describe', topic) ? ErrorCode.None : ErrorCode.TopicAuthorizationFailed;
  };
  const w = new Writer();
  if (v >= 3) w.int32(0);
  w.array(topics, (w, t) => {
    w.string(t.name);
    w.array(t.partitions, (w, p) => {
      const error = partitionError(t.name);
      const c = error === ErrorCode.None && !groupRefused ? ctx.offsets.get(groupId, t.name, p) : undefined;
      w.int32(p).int64(c?.offset ?? -1);
      if (v >= 5) w.int32(-1); // committed_leader_epoch: not recorded
      w.nullableString(c?.metadata ?? '').int16(error);
    });
  });
  if (v >= 2) w.int16(groupRefused ? ErrorCode.GroupAuthorizationFailed : ErrorCode.None);
  return w;
};

function groupByTopic(items: { topic: string; partition: number }[]): { name: string; partitions: number[] }[] {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of items) byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  return [...byTopic.entries()].map(([name, partitions]) => ({ name, partitions }));
}

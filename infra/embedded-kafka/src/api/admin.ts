import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import { refuseTopicConfigs } from './configs.ts';
import { mayCluster, mayCreate, mayTopic } from './authz.ts';
import type { Handler } from './handler.ts';

export const createTopics: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const topics = r.array((r) => {
    const name = r.string();
    const numPartitions = r.int32();
    const replicationFactor = r.int16();
    const assignments = r.array((r) => ({ partition: r.int32(), brokers: r.array((r) => r.int32()) }));
    const configs = r.array((r) => ({ name: r.string(), value: r.nullableString() }));
    return { name, numPartitions, replicationFactor, assignments, configs };
  });
  r.int32(); // timeout_ms
  const validateOnly = v >= 1 ? r.bool() : false;
  const results = topics.map((t): { name: string; error: number; message: string | null } => {
    if (!mayCreate(ctx, h, t.name)) return { name: t.name, error: ErrorCode.TopicAuthorizationFailed, message: 'Authorization failed.' };
    if (t.replicationFactor !== -1 && t.replicationFactor !== 1 && t.assignments.length === 0) {
      return { name: t.name, error: ErrorCode.InvalidReplicationFactor, message: 'one broker: the replication factor must be 1 (or -1)' };
    }
    const refused = refuseTopicConfigs(ctx, t.configs);
    if (refused) return { name: t.name, error: ErrorCode.InvalidConfig, message: refused };
    const partitions = t.assignments.length > 0 ? t.assignments.length : t.numPartitions === -1 ? ctx.defaultPartitions : t.numPartitions;
    const error = validateOnly ? ctx.topics.checkCreate(t.name, partitions) : ctx.topics.create(t.name, partitions);
    return { name: t.name, error, message: null };
  });
  const w = new Writer();
  if (v >= 2) w.int32(0);
  w.array(results, (w, t) => {
    w.string(t.name).int16(t.error);
    if (v >= 1) w.nullableString(t.message);
  });
  return w;
};

export const deleteTopics: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const names = r.array((r) => r.string());
  r.int32(); // timeout_ms
  const results = names.map((name) => {
    if (!mayTopic(ctx, h, 'delete', name)) return { name, error: ErrorCode.TopicAuthorizationFailed };
    const error = ctx.topics.delete(name);
    if (error === ErrorCode.None) ctx.offsets.deleteTopic(name);
    return { name, error };
  });
  const w = new Writer();
  if (v >= 1) w.int32(0);
  w.array(results, (w, t) => void w.string(t.name).int16(t.error));
  return w;
};

export const createPartitions: Handler = (ctx, h, r) => {
  const topics = r.array((r) => {
    const name = r.string();
    const count = r.int32();
    r.nullableArray((r) => r.array((r) => r.int32())); // assignments: every replica is this broker
    return { name, count };
  });
  r.int32(); // timeout_ms
  const validateOnly = r.bool();
  const results = topics.map((t) => {
    const current = ctx.topics.partitions(t.name)?.length;
    let error: number;
    if (!mayTopic(ctx, h, 'alter', t.name)) error = ErrorCode.TopicAuthorizationFailed;
    else if (current === undefined) error = ErrorCode.UnknownTopicOrPartition;
    else if (t.count <= current) error = ErrorCode.InvalidPartitions;
    else error = validateOnly ? ErrorCode.None : ctx.topics.addPartitions(t.name, t.count);
    const message = error === ErrorCode.InvalidPartitions ? `topic has ${current ?? 0} partitions; the new count must be larger` : null;
    return { name: t.name, error, message };
  });
  const w = new Writer().int32(0);
  w.array(results, (w, t) => void w.string(t.name).int16(t.error).nullableString(t.message));
  return w;
};

/** Idempotent producers only; transactional ids are refused because transactions are not implemented. */
export const initProducerId: Handler = (ctx, h, r) => {
  const transactionalId = r.nullableString();
  r.int32(); // transaction_timeout_ms
  const w = new Writer().int32(0);
  if (transactionalId !== null) return w.int16(ErrorCode.TransactionalIdAuthorizationFailed).int64(-1).int16(-1);
  // As Kafka 2.8+ (KIP-679): IDEMPOTENT_WRITE on the cluster, implied by WRITE on any topic.
  if (!mayCluster(ctx, h, 'idempotentWrite')) return w.int16(ErrorCode.ClusterAuthorizationFailed).int64(-1).int16(-1);
  return w.int16(ErrorCode.None).int64(ctx.meta.allocateProducerId()).int16(0);
};

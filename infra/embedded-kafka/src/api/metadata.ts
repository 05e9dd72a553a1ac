import { isValidTopicName } from '../log/topic-store.ts';
import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { BrokerContext, RequestHeader } from '../broker-context.ts';
import { mayCreate, mayTopic } from './authz.ts';
import type { Handler } from './handler.ts';

/** Kafka's "authorized operations not computed" value; there are no ACLs to compute them from. */
export const UNKNOWN_OPERATIONS = -2147483648;

/**
 * Returns the error code for a topic, creating it first when auto-creation applies. As Kafka: a
 * topic the principal may not describe is TOPIC_AUTHORIZATION_FAILED whether it exists or not, and
 * so is a missing one it would auto-create without CREATE permission.
 */
function ensureTopic(ctx: BrokerContext, h: RequestHeader, topic: string, allowAutoCreate: boolean): number {
  if (!mayTopic(ctx, h, 'describe', topic)) return ErrorCode.TopicAuthorizationFailed;
  if (ctx.topics.has(topic)) return ErrorCode.None;
  if (!isValidTopicName(topic)) return ErrorCode.InvalidTopic;
  if (!ctx.autoCreateTopics || !allowAutoCreate) return ErrorCode.UnknownTopicOrPartition;
  if (!mayCreate(ctx, h, topic)) return ErrorCode.TopicAuthorizationFailed;
  return ctx.topics.create(topic, ctx.defaultPartitions);
}

export const metadata: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const requested = r.nullableArray((r) => r.string());
  const allowAutoCreate = v >= 4 ? r.bool() : true;
  if (v >= 8) {
    r.bool(); // include_cluster_authorized_operations
    r.bool(); // include_topic_authorized_operations
  }
  // v0: an empty list means all topics; v1+: null means all, empty means none.
  const all = requested === null || (v === 0 && requested.length === 0);
  // Listing every topic lists only those the principal may describe.
  const names = all ? ctx.topics.names().filter((name) => mayTopic(ctx, h, 'describe', name)) : requested;
  const topics = names.map((name) => ({ name, error: all ? ErrorCode.None : ensureTopic(ctx, h, name, allowAutoCreate) }));

  const w = new Writer();
  if (v >= 3) w.int32(0);
  w.array([ctx.nodeId], (w, id) => {
    w.int32(id).string(ctx.advertisedHost).int32(ctx.advertisedPort);
    if (v >= 1) w.nullableString(null);
  });
  if (v >= 2) w.nullableString(ctx.meta.clusterId);
  if (v >= 1) w.int32(ctx.nodeId);
  w.array(topics, (w, t) => {
    w.int16(t.error).string(t.name);
    if (v >= 1) w.bool(false);
    const parts = t.error === ErrorCode.None ? (ctx.topics.partitions(t.name) ?? []) : [];
    w.array(parts, (w, p) => {
      w.int16(ErrorCode.None).int32(p.partition).int32(ctx.nodeId);
      if (v >= 7) w.int32(0); // leader_epoch: leadership never moves
      w.array([ctx.nodeId], (w, id) => void w.int32(id));
      w.array([ctx.nodeId], (w, id) => void w.int32(id));
      if (v >= 5) w.array([], () => undefined); // offline_replicas
    });
    if (v >= 8) w.int32(UNKNOWN_OPERATIONS);
  });
  if (v >= 8) w.int32(UNKNOWN_OPERATIONS);
  return w;
};

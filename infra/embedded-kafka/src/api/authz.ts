import type { ClusterOp, GroupOp, TopicOp } from '../auth/acl.ts';
import type { BrokerContext, RequestHeader } from '../broker-context.ts';

/** With SASL off every request is allowed; with it on, the connection's principal's ACLs decide. */
export function mayTopic(ctx: BrokerContext, h: RequestHeader, op: TopicOp, topic: string): boolean {
  return ctx.acl === null || ctx.acl.topic(h.session.principal, op, topic);
}

export function mayGroup(ctx: BrokerContext, h: RequestHeader, op: GroupOp, group: string): boolean {
  return ctx.acl === null || ctx.acl.group(h.session.principal, op, group);
}

export function mayCluster(ctx: BrokerContext, h: RequestHeader, op: ClusterOp): boolean {
  return ctx.acl === null || ctx.acl.cluster(h.session.principal, op);
}

/** CreateTopics and auto-creation: CREATE on the cluster or on the topic, as Kafka checks. */
export function mayCreate(ctx: BrokerContext, h: RequestHeader, topic: string): boolean {
  return mayCluster(ctx, h, 'create') || mayTopic(ctx, h, 'create', topic);
}

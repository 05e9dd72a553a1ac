import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import { mayCluster, mayGroup } from './authz.ts';
import type { Handler } from './handler.ts';
import { UNKNOWN_OPERATIONS } from './metadata.ts';

/** v1+ of these group answers start with throttle_time_ms, which is always 0 (no quotas). */
function throttled(v: number): Writer {
  const w = new Writer();
  return v >= 1 ? w.int32(0) : w;
}

/**
 * This broker is the coordinator of every group (and of every transactional id, whose
 * InitProducerId then refuses transactions with a clear error).
 */
export const findCoordinator: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const key = r.string(); // group id or transactional id
  const keyType = v >= 1 ? r.int8() : 0;
  const w = new Writer();
  if (v >= 1) w.int32(0);
  // As Kafka: DESCRIBE on the group; transactional ids have no ACLs here (transactions are not served).
  const refused = keyType === 0 ? !mayGroup(ctx, h, 'describe', key) : ctx.acl !== null && !mayCluster(ctx, h, 'alter');
  if (refused) {
    w.int16(keyType === 0 ? ErrorCode.GroupAuthorizationFailed : ErrorCode.TransactionalIdAuthorizationFailed);
    if (v >= 1) w.nullableString(null);
    return w.int32(-1).string('').int32(-1);
  }
  w.int16(ErrorCode.None);
  if (v >= 1) w.nullableString(null);
  return w.int32(ctx.nodeId).string(ctx.advertisedHost).int32(ctx.advertisedPort);
};

export const joinGroup: Handler = async (ctx, h, r) => {
  const groupId = r.string();
  const sessionTimeoutMs = r.int32();
  const rebalanceTimeoutMs = h.apiVersion >= 1 ? r.int32() : sessionTimeoutMs;
  const memberId = r.string();
  const protocolType = r.string();
  const protocols = r.array((r) => ({ name: r.string(), metadata: Buffer.from(r.bytes()) }));
  const refused = { error: ErrorCode.GroupAuthorizationFailed, generationId: -1, protocolName: '', leader: '', memberId: '', members: [] };
  const res = !mayGroup(ctx, h, 'read', groupId) ? refused : await ctx.groups.join(groupId, {
    memberId,
    clientId: h.clientId ?? '',
    clientHost: h.clientHost,
    sessionTimeoutMs,
    rebalanceTimeoutMs,
    protocolType,
    protocols,
  });
  const w = new Writer();
  if (h.apiVersion >= 2) w.int32(0);
  w.int16(res.error).int32(res.generationId).string(res.protocolName).string(res.leader).string(res.memberId);
  w.array(res.members, (w, m) => void w.string(m.memberId).nullableBytes(m.metadata));
  return w;
};

export const syncGroup: Handler = async (ctx, h, r) => {
  const v = h.apiVersion;
  const groupId = r.string();
  const generationId = r.int32();
  const memberId = r.string();
  const assignments = r.array((r) => ({ memberId: r.string(), assignment: Buffer.from(r.bytes()) }));
  if (!mayGroup(ctx, h, 'read', groupId)) return throttled(v).int16(ErrorCode.GroupAuthorizationFailed).nullableBytes(Buffer.alloc(0));
  const res = await ctx.groups.sync(groupId, memberId, generationId, assignments);
  return throttled(v).int16(res.error).nullableBytes(res.assignment);
};

export const heartbeat: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const groupId = r.string();
  const generationId = r.int32();
  const memberId = r.string();
  if (!mayGroup(ctx, h, 'read', groupId)) return throttled(v).int16(ErrorCode.GroupAuthorizationFailed);
  return throttled(v).int16(ctx.groups.heartbeat(groupId, memberId, generationId));
};

export const leaveGroup: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const groupId = r.string();
  const memberId = r.string();
  if (!mayGroup(ctx, h, 'read', groupId)) return throttled(v).int16(ErrorCode.GroupAuthorizationFailed);
  return throttled(v).int16(ctx.groups.leave(groupId, memberId));
};

export const listGroups: Handler = (ctx, h) => {
  const v = h.apiVersion;
  const known = new Map(ctx.groups.list().map((g) => [g.groupId, g.protocolType]));
  // Groups known only by their committed offsets (e.g. after a restart, or emptied) are listed as
  // consumer groups, as Kafka does: it keeps the protocol type with the offsets.
  for (const g of ctx.offsets.groups()) if (!known.get(g)) known.set(g, 'consumer');
  // As Kafka: DESCRIBE on the cluster lists every group, otherwise only those the principal may describe.
  const all = mayCluster(ctx, h, 'describe');
  const shown = [...known.entries()].filter(([id]) => all || mayGroup(ctx, h, 'describe', id));
  const w = throttled(v).int16(ErrorCode.None);
  w.array(shown, (w, [id, type]) => void w.string(id).string(type));
  return w;
};

export const describeGroups: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const ids = r.array((r) => r.string());
  if (v >= 3) r.bool(); // include_authorized_operations: no ACLs, answered as unknown
  const w = throttled(v);
  w.array(ids, (w, id) => {
    if (!mayGroup(ctx, h, 'describe', id)) {
      w.int16(ErrorCode.GroupAuthorizationFailed).string(id).string('').string('').string('').array([], () => undefined);
      if (v >= 3) w.int32(UNKNOWN_OPERATIONS);
      return;
    }
    const d = ctx.groups.describe(id);
    const state = d ? d.state : ctx.offsets.hasGroup(id) ? 'Empty' : 'Dead';
    w.int16(ErrorCode.None).string(id).string(state).string(d?.protocolType ?? '').string(d?.protocol ?? '');
    w.array(d?.members ?? [], (w, m) => {
      w.string(m.memberId);
      if (v >= 4) w.nullableString(null); // group_instance_id: no static membership
      w.string(m.clientId).string(m.clientHost).nullableBytes(m.metadata).nullableBytes(m.assignment);
    });
    if (v >= 3) w.int32(UNKNOWN_OPERATIONS);
  });
  return w;
};

export const deleteGroups: Handler = (ctx, h, r) => {
  const ids = r.array((r) => r.string());
  const results = ids.map((id) => {
    if (!mayGroup(ctx, h, 'delete', id)) return { id, error: ErrorCode.GroupAuthorizationFailed as number };
    const error = ctx.groups.delete(id, ctx.offsets.hasGroup(id));
    if (error === ErrorCode.None) ctx.offsets.deleteGroup(id);
    return { id, error };
  });
  const w = new Writer().int32(0);
  w.array(results, (w, g) => void w.string(g.id).int16(g.error));
  return w;
};

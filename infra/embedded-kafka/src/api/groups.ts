import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { Handler } from './handler.ts';

/** This broker is the coordinator of every group. */
export const findCoordinator: Handler = (ctx, _h, r) => {
  r.string(); // group id
  return new Writer().int16(ErrorCode.None).int32(ctx.nodeId).string(ctx.advertisedHost).int32(ctx.advertisedPort);
};

export const joinGroup: Handler = async (ctx, h, r) => {
  const groupId = r.string();
  const sessionTimeoutMs = r.int32();
  const rebalanceTimeoutMs = h.apiVersion >= 1 ? r.int32() : sessionTimeoutMs;
  const memberId = r.string();
  const protocolType = r.string();
  const protocols = r.array((r) => ({ name: r.string(), metadata: Buffer.from(r.bytes()) }));
  const res = await ctx.groups.join(groupId, {
    memberId,
    clientId: h.clientId ?? '',
    sessionTimeoutMs,
    rebalanceTimeoutMs,
    protocolType,
    protocols,
  });
  const w = new Writer();
  w.int16(res.error).int32(res.generationId).string(res.protocolName).string(res.leader).string(res.memberId);
  w.array(res.members, (w, m) => void w.string(m.memberId).nullableBytes(m.metadata));
  return w;
};

export const syncGroup: Handler = async (ctx, _h, r) => {
  const groupId = r.string();
  const generationId = r.int32();
  const memberId = r.string();
  const assignments = r.array((r) => ({ memberId: r.string(), assignment: Buffer.from(r.bytes()) }));
  const res = await ctx.groups.sync(groupId, memberId, generationId, assignments);
  return new Writer().int16(res.error).nullableBytes(res.assignment);
};

export const heartbeat: Handler = (ctx, _h, r) => {
  const groupId = r.string();
  const generationId = r.int32();
  const memberId = r.string();
  return new Writer().int16(ctx.groups.heartbeat(groupId, memberId, generationId));
};

export const leaveGroup: Handler = (ctx, _h, r) => {
  const groupId = r.string();
  const memberId = r.string();
  return new Writer().int16(ctx.groups.leave(groupId, memberId));
};

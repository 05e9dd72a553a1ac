import type { Logger } from 'pino';
import { ErrorCode, type ErrorCodeValue } from '../protocol/error-codes.ts';
import { Group, joinError, type GroupDescription, type JoinRequest, type JoinResult, type SyncResult } from './group.ts';

/** Kafka's defaults are 6 s .. 30 min; the floor is lower so tests can expire members quickly. */
const MIN_SESSION_TIMEOUT_MS = 100;
const MAX_SESSION_TIMEOUT_MS = 30 * 60_000;
const TICK_MS = 50;

export class GroupCoordinator {
  private readonly groups = new Map<string, Group>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly logger: Logger) {
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const g of this.groups.values()) g.tick(now);
    }, TICK_MS);
    this.timer.unref();
  }

  private group(id: string): Group {
    let g = this.groups.get(id);
    if (!g) {
      g = new Group(id, this.logger);
      this.groups.set(id, g);
    }
    return g;
  }

  join(groupId: string, req: JoinRequest): Promise<JoinResult> | JoinResult {
    if (groupId === '') return joinError(ErrorCode.InvalidGroupId, req.memberId);
    if (req.sessionTimeoutMs < MIN_SESSION_TIMEOUT_MS || req.sessionTimeoutMs > MAX_SESSION_TIMEOUT_MS) {
      return joinError(ErrorCode.InvalidSessionTimeout, req.memberId);
    }
    return this.group(groupId).join(req, Date.now());
  }

  sync(groupId: string, memberId: string, generationId: number, assignments: { memberId: string; assignment: Buffer }[]): Promise<SyncResult> | SyncResult {
    const g = this.groups.get(groupId);
    if (!g) return { error: ErrorCode.UnknownMemberId, assignment: Buffer.alloc(0) };
    return g.sync(memberId, generationId, assignments, Date.now());
  }

  heartbeat(groupId: string, memberId: string, generationId: number): ErrorCodeValue {
    return this.groups.get(groupId)?.heartbeat(memberId, generationId, Date.now()) ?? ErrorCode.UnknownMemberId;
  }

  leave(groupId: string, memberId: string): ErrorCodeValue {
    return this.groups.get(groupId)?.leave(memberId, Date.now()) ?? ErrorCode.UnknownMemberId;
  }

  canCommit(groupId: string, memberId: string, generationId: number): ErrorCodeValue {
    if (groupId === '') return ErrorCode.InvalidGroupId;
    const g = this.groups.get(groupId);
    if (!g) return generationId < 0 ? ErrorCode.None : ErrorCode.UnknownMemberId;
    return g.canCommit(memberId, generationId);
  }

  list(): { groupId: string; protocolType: string }[] {
    return [...this.groups.values()].map((g) => ({ groupId: g.id, protocolType: g.describe().protocolType }));
  }

  describe(groupId: string): GroupDescription | undefined {
    return this.groups.get(groupId)?.describe();
  }

  /** Only a group without members can be deleted, as in Kafka. */
  delete(groupId: string, hasOffsets: boolean): ErrorCodeValue {
    const g = this.groups.get(groupId);
    if (g && g.size > 0) return ErrorCode.NonEmptyGroup;
    if (!g && !hasOffsets) return ErrorCode.GroupIdNotFound;
    this.groups.delete(groupId);
    return ErrorCode.None;
  }

  close(): void {
    clearInterval(this.timer);
  }
}

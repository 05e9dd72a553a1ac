import type { Logger } from 'pino';
import { ErrorCode, type ErrorCodeValue } from '../protocol/error-codes.ts';
import { Group, joinError, type GroupDescription, type JoinRequest, type JoinResult, type SyncResult } from './group.ts';

/** Kafka's defaults are 6 s .. 30 min; the floor is lower so tests can expire members quickly. */
const MIN_SESSION_TIMEOUT_MS = 100;
const MAX_SESSION_TIMEOUT_MS = 30 * 60_000;

/**
 * The groups' timeouts (session ends, rebalance deadlines). Nothing polls them: a timer is set for
 * the soonest one and set again after every request that moves a deadline, so a broker whose groups
 * are stable sleeps until a member's session could actually run out (it used to tick every 50 ms).
 */
export class GroupCoordinator {
  private readonly groups = new Map<string, Group>();
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (epoch ms); undefined while none is set. */
  private timerAt: number | undefined;
  private closed = false;

  constructor(private readonly logger: Logger) {}

  /** Whether a timer is set for a group timeout (tests: an idle coordinator sets none). */
  get sleeping(): boolean {
    return this.timer === undefined;
  }

  /** Runs what is due, then sets the timer for the soonest deadline of any group (or none). */
  private tick(): void {
    this.timer = undefined;
    this.timerAt = undefined;
    const now = Date.now();
    for (const g of this.groups.values()) g.tick(now);
    this.schedule();
  }

  /** After anything that can move a deadline: the timer follows the soonest one. */
  private schedule(): void {
    if (this.closed) return;
    let soonest: number | undefined;
    for (const g of this.groups.values()) {
      const due = g.nextDue();
      if (due !== undefined && (soonest === undefined || due < soonest)) soonest = due;
    }
    if (soonest === this.timerAt) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = soonest;
    if (soonest === undefined) return;
    this.timer = setTimeout(() => this.tick(), Math.max(0, soonest - Date.now()));
    this.timer.unref();
  }

  /** Runs a group request, then follows the deadlines it moved (also once a waiting join or sync is answered). */
  private scheduled<T>(result: Promise<T> | T): Promise<T> | T {
    this.schedule();
    if (result instanceof Promise) void result.finally(() => this.schedule()).catch(() => undefined);
    return result;
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
    return this.scheduled(this.group(groupId).join(req, Date.now()));
  }

  sync(groupId: string, memberId: string, generationId: number, assignments: { memberId: string; assignment: Buffer }[]): Promise<SyncResult> | SyncResult {
    const g = this.groups.get(groupId);
    if (!g) return { error: ErrorCode.UnknownMemberId, assignment: Buffer.alloc(0) };
    return this.scheduled(g.sync(memberId, generationId, assignments, Date.now()));
  }

  heartbeat(groupId: string, memberId: string, generationId: number): ErrorCodeValue {
    const result = this.groups.get(groupId)?.heartbeat(memberId, generationId, Date.now()) ?? ErrorCode.UnknownMemberId;
    this.schedule();
    return result;
  }

  leave(groupId: string, memberId: string): ErrorCodeValue {
    const result = this.groups.get(groupId)?.leave(memberId, Date.now()) ?? ErrorCode.UnknownMemberId;
    this.schedule();
    return result;
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
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

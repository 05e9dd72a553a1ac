import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ErrorCode, type ErrorCodeValue } from '../protocol/error-codes.ts';

export interface Protocol {
  name: string;
  metadata: Buffer;
}

export interface JoinRequest {
  memberId: string;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: Protocol[];
}

export interface JoinResult {
  error: ErrorCodeValue;
  generationId: number;
  protocolName: string;
  leader: string;
  memberId: string;
  members: { memberId: string; metadata: Buffer }[];
}

export interface SyncResult {
  error: ErrorCodeValue;
  assignment: Buffer;
}

type State = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable';

export interface GroupDescription {
  state: State;
  protocolType: string;
  protocol: string;
  members: { memberId: string; clientId: string; clientHost: string; metadata: Buffer; assignment: Buffer }[];
}

interface Member {
  id: string;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocols: Protocol[];
  assignment: Buffer;
  joinWaiter: ((r: JoinResult) => void) | null;
  syncWaiter: ((r: SyncResult) => void) | null;
  deadline: number;
}

const EMPTY = Buffer.alloc(0);

export function joinError(error: ErrorCodeValue, memberId = ''): JoinResult {
  return { error, generationId: -1, protocolName: '', leader: '', memberId, members: [] };
}

function sameProtocols(a: Protocol[], b: Protocol[]): boolean {
  return a.length === b.length && a.every((p, i) => p.name === b[i]?.name && p.metadata.equals(b[i].metadata));
}

/**
 * One consumer group, following Kafka's classic coordinator state machine:
 * Empty → PreparingRebalance (wait for every member to rejoin, bounded by the rebalance timeout)
 * → CompletingRebalance (wait for the leader's assignment) → Stable.
 */
export class Group {
  state: State = 'Empty';
  generation = 0;
  private protocolType: string | null = null;
  private protocol: string | null = null;
  private leaderId: string | null = null;
  private readonly members = new Map<string, Member>();
  private rebalanceDeadline = 0;

  constructor(
    readonly id: string,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.members.size;
  }

  join(req: JoinRequest, now: number): Promise<JoinResult> | JoinResult {
    if (this.state !== 'Empty') {
      if (req.protocolType !== this.protocolType) return joinError(ErrorCode.InconsistentGroupProtocol, req.memberId);
      const supported = req.protocols.some((p) => [...this.members.values()].every((m) => m.id === req.memberId || m.protocols.some((q) => q.name === p.name)));
      if (!supported) return joinError(ErrorCode.InconsistentGroupProtocol, req.memberId);
    }
    let member: Member;
    if (req.memberId === '') {
      member = {
        id: `${req.clientId || 'member'}-${randomUUID()}`,
        clientId: req.clientId,
        clientHost: req.clientHost,
        sessionTimeoutMs: req.sessionTimeoutMs,
        rebalanceTimeoutMs: req.rebalanceTimeoutMs,
        protocols: req.protocols,
        assignment: EMPTY,
        joinWaiter: null,
        syncWaiter: null,
        deadline: now + req.sessionTimeoutMs,
      };
      this.members.set(member.id, member);
      if (this.protocolType === null) this.protocolType = req.protocolType;
      this.logger.info({ group: this.id, memberId: member.id }, 'member joined');
      return this.awaitJoin(member, now);
    }
    const existing = this.members.get(req.memberId);
    if (!existing) return joinError(ErrorCode.UnknownMemberId, req.memberId);
    member = existing;
    const changed = !sameProtocols(member.protocols, req.protocols);
    member.protocols = req.protocols;
    member.sessionTimeoutMs = req.sessionTimeoutMs;
    member.rebalanceTimeoutMs = req.rebalanceTimeoutMs;
    member.deadline = now + member.sessionTimeoutMs;
    // A follower rejoining with unchanged metadata outside a rebalance just learns the current generation.
    if ((this.state === 'CompletingRebalance' || this.state === 'Stable') && !changed && (this.state === 'CompletingRebalance' || member.id !== this.leaderId)) {
      return this.joinResultFor(member);
    }
    return this.awaitJoin(member, now);
  }

  private awaitJoin(member: Member, now: number): Promise<JoinResult> {
    return new Promise<JoinResult>((resolve) => {
      // A second join from the same member replaces the first; the old call learns it lost.
      member.joinWaiter?.(joinError(ErrorCode.RebalanceInProgress, member.id));
      member.joinWaiter = resolve;
      if (this.state !== 'PreparingRebalance') this.prepareRebalance(now, 'member join');
      this.maybeCompleteJoin();
    });
  }

  private prepareRebalance(now: number, reason: string): void {
    if (this.state === 'CompletingRebalance') {
      for (const m of this.members.values()) {
        m.syncWaiter?.({ error: ErrorCode.RebalanceInProgress, assignment: EMPTY });
        m.syncWaiter = null;
      }
    }
    let timeout = 0;
    for (const m of this.members.values()) timeout = Math.max(timeout, m.rebalanceTimeoutMs);
    this.state = 'PreparingRebalance';
    this.rebalanceDeadline = now + timeout;
    this.logger.info({ group: this.id, generation: this.generation, reason }, 'rebalance started');
  }

  private maybeCompleteJoin(): void {
    if (this.state !== 'PreparingRebalance') return;
    for (const m of this.members.values()) if (!m.joinWaiter) return;
    this.completeJoin();
  }

  private completeJoin(): void {
    for (const m of [...this.members.values()]) {
      if (!m.joinWaiter) {
        this.members.delete(m.id);
        this.logger.info({ group: this.id, memberId: m.id }, 'member removed: did not rejoin in time');
      }
    }
    this.generation++;
    if (this.members.size === 0) {
      this.state = 'Empty';
      this.protocol = null;
      this.protocolType = null;
      this.leaderId = null;
      this.logger.info({ group: this.id, generation: this.generation }, 'group empty');
      return;
    }
    const all = [...this.members.values()];
    if (this.leaderId === null || !this.members.has(this.leaderId)) this.leaderId = (all[0] as Member).id;
    const leader = this.members.get(this.leaderId) as Member;
    const chosen = leader.protocols.find((p) => all.every((m) => m.protocols.some((q) => q.name === p.name)));
    this.protocol = chosen?.name ?? (leader.protocols[0]?.name ?? '');
    this.state = 'CompletingRebalance';
    this.logger.info({ group: this.id, generation: this.generation, members: all.length, leader: this.leaderId }, 'rebalance joined');
    const now = Date.now();
    for (const m of all) {
      const resolve = m.joinWaiter;
      m.joinWaiter = null;
      m.assignment = EMPTY;
      m.deadline = now + m.sessionTimeoutMs;
      resolve?.(this.joinResultFor(m));
    }
  }

  private joinResultFor(m: Member): JoinResult {
    const isLeader = m.id === this.leaderId;
    return {
      error: ErrorCode.None,
      generationId: this.generation,
      protocolName: this.protocol ?? '',
      leader: this.leaderId ?? '',
      memberId: m.id,
      members: isLeader
        ? [...this.members.values()].map((x) => ({
            memberId: x.id,
            metadata: x.protocols.find((p) => p.name === this.protocol)?.metadata ?? EMPTY,
          }))
        : [],
    };
  }

  sync(memberId: string, generationId: number, assignments: { memberId: string; assignment: Buffer }[], now: number): Promise<SyncResult> | SyncResult {
    const member = this.members.get(memberId);
    if (!member) return { error: ErrorCode.UnknownMemberId, assignment: EMPTY };
    if (generationId !== this.generation) return { error: ErrorCode.IllegalGeneration, assignment: EMPTY };
    member.deadline = now + member.sessionTimeoutMs;
    if (this.state === 'PreparingRebalance') return { error: ErrorCode.RebalanceInProgress, assignment: EMPTY };
    if (this.state === 'Stable') return { error: ErrorCode.None, assignment: member.assignment };
    return new Promise<SyncResult>((resolve) => {
      member.syncWaiter?.({ error: ErrorCode.RebalanceInProgress, assignment: EMPTY });
      member.syncWaiter = resolve;
      if (memberId !== this.leaderId) return;
      for (const a of assignments) {
        const m = this.members.get(a.memberId);
        if (m) m.assignment = a.assignment;
      }
      this.state = 'Stable';
      this.logger.info({ group: this.id, generation: this.generation }, 'group stable');
      for (const m of this.members.values()) {
        m.syncWaiter?.({ error: ErrorCode.None, assignment: m.assignment });
        m.syncWaiter = null;
        m.deadline = now + m.sessionTimeoutMs;
      }
    });
  }

  heartbeat(memberId: string, generationId: number, now: number): ErrorCodeValue {
    const member = this.members.get(memberId);
    if (!member) return ErrorCode.UnknownMemberId;
    if (generationId !== this.generation) return ErrorCode.IllegalGeneration;
    member.deadline = now + member.sessionTimeoutMs;
    return this.state === 'PreparingRebalance' ? ErrorCode.RebalanceInProgress : ErrorCode.None;
  }

  leave(memberId: string, now: number): ErrorCodeValue {
    const member = this.members.get(memberId);
    if (!member) return ErrorCode.UnknownMemberId;
    this.logger.info({ group: this.id, memberId }, 'member left');
    this.remove(member, now, 'member left');
    return ErrorCode.None;
  }

  private remove(member: Member, now: number, reason: string): void {
    this.members.delete(member.id);
    member.joinWaiter?.(joinError(ErrorCode.UnknownMemberId, member.id));
    member.syncWaiter?.({ error: ErrorCode.UnknownMemberId, assignment: EMPTY });
    if (this.state !== 'PreparingRebalance') this.prepareRebalance(now, reason);
    this.maybeCompleteJoin();
  }

  describe(): GroupDescription {
    return {
      state: this.state,
      protocolType: this.protocolType ?? '',
      protocol: this.state === 'Stable' || this.state === 'CompletingRebalance' ? (this.protocol ?? '') : '',
      members: [...this.members.values()].map((m) => ({
        memberId: m.id,
        clientId: m.clientId,
        clientHost: m.clientHost,
        metadata: m.protocols.find((p) => p.name === this.protocol)?.metadata ?? EMPTY,
        assignment: m.assignment,
      })),
    };
  }

  /** Offsets may be committed by the current generation, also while a rebalance is being prepared. */
  canCommit(memberId: string, generationId: number): ErrorCodeValue {
    if (generationId < 0 && this.state === 'Empty') return ErrorCode.None;
    if (this.state === 'CompletingRebalance') return ErrorCode.RebalanceInProgress;
    if (!this.members.has(memberId)) return ErrorCode.UnknownMemberId;
    if (generationId !== this.generation) return ErrorCode.IllegalGeneration;
    return ErrorCode.None;
  }

  /**
   * When `tick` next has something to do (epoch ms): the soonest session end of a member not
   * waiting in a join or sync, or the end of a rebalance being prepared; undefined when nothing is due.
   */
  nextDue(): number | undefined {
    let soonest = Number.POSITIVE_INFINITY;
    for (const m of this.members.values()) if (!m.joinWaiter && !m.syncWaiter) soonest = Math.min(soonest, m.deadline + 1);
    if (this.state === 'PreparingRebalance') soonest = Math.min(soonest, this.rebalanceDeadline);
    return soonest === Number.POSITIVE_INFINITY ? undefined : soonest;
  }

  /** Expels members whose session ran out and ends a rebalance whose timeout passed. */
  tick(now: number): void {
    for (const m of [...this.members.values()]) {
      if (!m.joinWaiter && !m.syncWaiter && now > m.deadline) {
        this.logger.warn({ group: this.id, memberId: m.id, sessionTimeoutMs: m.sessionTimeoutMs }, 'member expired');
        this.remove(m, now, 'session timeout');
      }
    }
    if (this.state === 'PreparingRebalance' && now >= this.rebalanceDeadline) this.completeJoin();
  }
}

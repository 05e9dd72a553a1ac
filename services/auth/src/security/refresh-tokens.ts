import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * What a refresh token stands for: the member, the token version it was issued under, and the
 * session (one log-in on one device) whose chain of refresh tokens it belongs to. Tokens issued
 * before sessions had ids carry none.
 */
export type RefreshGrant = { userId: string; version: number; sid?: string; until?: number };

/** What spending a refresh token found. */
export type Taken = { kind: 'grant'; grant: RefreshGrant } | { kind: 'reused'; grant: RefreshGrant; spentMsAgo: number } | { kind: 'unknown' };

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');
const live = (h: string) => `auth:refresh:${h}`;
const spent = (h: string) => `auth:refresh-spent:${h}`;
const current = (sid: string) => `auth:session-token:${sid}`;
const ended = (sid: string) => `auth:session-ended:${sid}`;
const endedOf = (userId: string) => `auth:ended-sessions:${userId}`;

const parseGrant = (stored: string): RefreshGrant | null => {
  const grant = JSON.parse(stored) as RefreshGrant;
  return typeof grant.userId === 'string' &&
    Number.isInteger(grant.version) &&
    (grant.sid === undefined || typeof grant.sid === 'string') &&
    (grant.until === undefined || typeof grant.until === 'number')
    ? grant
    : null;
};

/**
 * Opaque refresh tokens kept in Redis under their SHA-256 (a leaked Redis dump holds no usable
 * token), each usable once: using one deletes it, and the caller gets the next one of the same
 * session. A spent token is remembered for the refresh lifetime, so presenting it again is seen
 * for what it is — a copy in someone else's hands, or the owner's stale one — and ends the whole
 * session (`endSession`): its live token is deleted and its access tokens are listed as ended for
 * as long as one can be valid. Losing Redis ends every session (members log in again); it never
 * loses money or orders.
 */
export class RefreshTokens {
  constructor(
    private readonly redis: Redis,
    readonly ttlSeconds: number,
    /** How long an access token lives: how long an ended session must stay listed. */
    private readonly accessTtlSeconds: number,
  ) {}

  /**
   * `grant.until` (ms): an operator's session ends then, however it is used (issue 41); the token
   * lives only until then.
   */
  async issue(grant: RefreshGrant): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const h = hash(token);
    const ttl = this.ttlFor(grant);
    const write = this.redis.multi().set(live(h), JSON.stringify(grant), 'EX', ttl);
    if (grant.sid !== undefined) write.set(current(grant.sid), h, 'EX', ttl);
    await write.exec();
    return token;
  }

  /** Seconds a token of this grant lives: the refresh lifetime, or what is left of an operator's session. */
  ttlFor(grant: RefreshGrant, now = Date.now()): number {
    if (grant.until === undefined) return this.ttlSeconds;
    return Math.max(1, Math.min(this.ttlSeconds, Math.ceil((grant.until - now) / 1000)));
  }

  /** The grant, consumed; a spent token found again is `reused`; anything else `unknown`. */
  async take(token: string): Promise<Taken> {
    const h = hash(token);
    const stored = await this.redis.getdel(live(h));
    if (stored !== null) {
      const grant = parseGrant(stored);
      if (grant === null) return { kind: 'unknown' };
      await this.redis.set(spent(h), JSON.stringify({ ...grant, spentAt: Date.now() }), 'EX', this.ttlSeconds);
      return { kind: 'grant', grant };
    }
    const before = await this.redis.get(spent(h));
    if (before === null) return { kind: 'unknown' };
    const grant = parseGrant(before);
    const spentAt = (JSON.parse(before) as { spentAt?: unknown }).spentAt;
    return grant === null ? { kind: 'unknown' } : { kind: 'reused', grant, spentMsAgo: Date.now() - (typeof spentAt === 'number' ? spentAt : 0) };
  }

  /** Ends one session: its live refresh token goes, and its access tokens are refused until they expire. */
  async endSession(userId: string, sid: string): Promise<void> {
    const h = await this.redis.get(current(sid));
    const until = Date.now() + this.accessTtlSeconds * 1000;
    const write = this.redis
      .multi()
      .set(ended(sid), '1', 'EX', this.ttlSeconds)
      .zadd(endedOf(userId), until, sid)
      .zremrangebyscore(endedOf(userId), '-inf', Date.now())
      .expire(endedOf(userId), this.accessTtlSeconds)
      .del(current(sid));
    if (h !== null) write.del(live(h));
    await write.exec();
  }

  async sessionEnded(sid: string): Promise<boolean> {
    return (await this.redis.exists(ended(sid))) === 1;
  }

  /** The member's sessions ended within an access token's lifetime: their access tokens must be refused. */
  async endedSessions(userId: string): Promise<string[]> {
    return this.redis.zrangebyscore(endedOf(userId), Date.now(), '+inf');
  }
}

import type { Redis } from 'ioredis';
import type { Restriction } from '@smm/contracts';
import { sessionState } from '@smm/contracts/http';
import { readAnswer } from '../upstream/read-answer.ts';
import { type CallContext, type ServiceClient, ServiceUnavailable } from '../upstream/service-client.ts';

/**
 * What auth says about a member's sessions: `deleted` when the member no longer exists; the
 * restriction in force (issue 12), whose `until` the BFF compares with its own clock, so a
 * suspension ends on time even while this answer is kept.
 */
export type SessionState = {
  status: 'active' | 'suspended' | 'banned' | 'deleted' | 'disabled';
  version: number | null;
  restriction: Restriction | null;
  endedSessions?: string[];
  /** Issue 41: the account's role now and a staff member's console areas. */
  role?: string;
  areas?: string[];
};


const key = (userId: string) => `bff:session-state:${userId}`;
const epochKey = (userId: string) => `bff:session-state-epoch:${userId}`;

/**
 * Stores a state read from auth only if no change was relayed while it was being read (the epoch
 * is what it was before the read): otherwise a request that read the state just before an
 * operator disabled the account could put the old state back for the cache time, right after
 * `forget` dropped it.
 */
const storeIfUnchanged = `
if (redis.call('GET', KEYS[2]) or '') == ARGV[2] then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
end
return 1`;

/**
 * The member's current token version and status, which every verified access token is checked
 * against (so a password change, "log out everywhere", a suspension, a ban or a deletion ends its sessions).
 * Kept in Redis briefly so a page of requests asks auth once; the BFF drops the entry itself when
 * it relays a change (a password change, an operator's restriction), and other changes take effect
 * within `ttlSeconds`.
 */
export class SessionStates {
  constructor(
    private readonly redis: Redis,
    private readonly auth: ServiceClient,
    private readonly ttlSeconds: number,
  ) {}

  async get(ctx: CallContext, userId: string): Promise<SessionState> {
    const [cached, epoch] = await this.redis.mget(key(userId), epochKey(userId)).catch(() => [null, null]);
    if (cached !== null && cached !== undefined) return JSON.parse(cached) as SessionState;
    // Asked by the BFF for itself: no member in the credential.
    const answer = await this.auth.call({ ...ctx, caller: undefined }, 'GET', `/members/${encodeURIComponent(userId)}/session-state`);
    if (answer.status !== 200) {
      ctx.log.error({ status: answer.status }, 'auth did not answer the session state');
      throw new ServiceUnavailable('auth', false);
    }
    const body = readAnswer(ctx, answer, sessionState);
    const state: SessionState = {
      status: body.status,
      version: body.version,
      restriction: body.restriction,
      endedSessions: body.endedSessions,
      ...(body.role !== undefined && { role: body.role }),
      ...(body.areas !== undefined && { areas: body.areas }),
    };
    await this.redis.eval(storeIfUnchanged, 2, key(userId), epochKey(userId), JSON.stringify(state), epoch ?? '', this.ttlSeconds).catch(() => undefined);
    return state;
  }

  /** After a change the BFF relayed: the next request asks auth again. */
  async forget(userId: string): Promise<void> {
    await this.redis
      .multi()
      .incr(epochKey(userId))
      .expire(epochKey(userId), Math.max(60, this.ttlSeconds * 4))
      .del(key(userId))
      .exec()
      .catch(() => undefined);
  }
}

import type { Redis } from 'ioredis';
import type { LimitDecision, RateLimiter } from './rate-limiter.ts';

export type LoginGuardOptions = {
  /** Guesses per (login id, address) in the window: a stranger exhausts only their own pair. */
  byPair: RateLimiter;
  /** Guesses per login id from all addresses together; addresses the member logged in from before pass it. */
  byId: RateLimiter;
  /** Guesses per address across ids; addresses the member logged in from before pass it too. */
  byIp: RateLimiter;
  /** First delay after the third failure of a pair; it doubles with each further failure. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long an address a member logged in from stays "known". */
  knownAddressSeconds: number;
};

const FREE_FAILURES = 2;

/**
 * Limits password guessing without letting a stranger lock the owner out (audit: ten wrong
 * passwords from anywhere used to lock any account, the admin's included, for 15 minutes):
 * - per (id, address) pair: a hard limit, and growing delays after the second failure;
 * - per id across addresses, and per address across ids: limits that an address the member has
 *   logged in from before passes, so neither a distributed guesser nor a busy shared proxy
 *   locks out the owner at their usual address.
 */
export class LoginGuard {
  constructor(
    private readonly redis: Redis,
    private readonly options: LoginGuardOptions,
  ) {}

  private pair(loginKey: string, ip: string | null): string {
    return `${loginKey}|${ip ?? 'unknown'}`;
  }

  private delayKey(pair: string): string {
    return `auth:login-delay:${pair}`;
  }

  private knownKey(loginKey: string): string {
    return `auth:login-known:${loginKey}`;
  }

  /** Counts the attempt before the password is checked, so parallel guesses cannot overshoot. */
  async admit(loginKey: string, ip: string | null): Promise<LimitDecision> {
    const pair = this.pair(loginKey, ip);
    const waitMs = await this.redis.pttl(this.delayKey(pair));
    if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
    const byPair = await this.options.byPair.hit(pair);
    if (!byPair.allowed) return byPair;
    const known = ip !== null && (await this.redis.sismember(this.knownKey(loginKey), ip)) === 1;
    if (known) return { allowed: true };
    const byId = await this.options.byId.hit(loginKey);
    if (!byId.allowed) return byId;
    if (ip !== null) return this.options.byIp.hit(ip);
    return { allowed: true };
  }

  /** A wrong password: the pair waits longer before its next try. */
  async failed(loginKey: string, ip: string | null): Promise<void> {
    const pair = this.pair(loginKey, ip);
    const failures = await this.redis.incr(`auth:login-failures:${pair}`);
    await this.redis.expire(`auth:login-failures:${pair}`, this.options.backoffMaxMs / 1000 + 3600);
    if (failures <= FREE_FAILURES) return;
    const delay = Math.min(this.options.backoffBaseMs * 2 ** (failures - FREE_FAILURES - 1), this.options.backoffMaxMs);
    await this.redis.set(this.delayKey(pair), '1', 'PX', delay);
  }

  /** The right password: the pair starts afresh and the address becomes known for this id. */
  async succeeded(loginKey: string, ip: string | null): Promise<void> {
    const pair = this.pair(loginKey, ip);
    await this.options.byPair.reset(pair);
    await this.redis.del(`auth:login-failures:${pair}`, this.delayKey(pair));
    await this.options.byId.forgive(loginKey);
    if (ip === null) return;
    await this.options.byIp.forgive(ip);
    await this.redis.multi().sadd(this.knownKey(loginKey), ip).expire(this.knownKey(loginKey), this.options.knownAddressSeconds).exec();
  }
}

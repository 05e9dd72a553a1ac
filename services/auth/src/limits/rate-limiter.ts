import type { Redis } from 'ioredis';

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window counters in Redis. `hit` counts an attempt before the work is done, so concurrent
 * attempts cannot all slip under the limit; `forgive` takes one back (a successful login).
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly max: number,
    private readonly windowSeconds: number,
  ) {}

  private key(subject: string): string {
    return `auth:rl:${this.name}:${subject}`;
  }

  async hit(subject: string): Promise<LimitDecision> {
    const key = this.key(subject);
    const results = await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').ttl(key).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const ttl = Number(results?.[2]?.[1] ?? this.windowSeconds);
    if (count > this.max) return { allowed: false, retryAfterSeconds: ttl > 0 ? ttl : this.windowSeconds };
    return { allowed: true };
  }

  async reset(subject: string): Promise<void> {
    await this.redis.del(this.key(subject));
  }

  async forgive(subject: string): Promise<void> {
    const key = this.key(subject);
    const left = await this.redis.decr(key);
    if (left <= 0) await this.redis.del(key);
  }
}

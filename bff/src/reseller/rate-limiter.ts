import type { Redis } from 'ioredis';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';

/**
 * Requests per member per fixed window, counted in Redis (INCR + PEXPIRE in one MULTI: the embedded
 * Redis has no Lua). A fixed window admits at most twice the limit across a window edge, which is
 * acceptable for abuse protection. While Redis is down requests are let through (logged).
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  get perWindow(): { limit: number; windowSeconds: number } {
    return { limit: this.limit, windowSeconds: this.windowMs / 1000 };
  }

  /** Throws 429 RATE_LIMITED (with retryAfterSeconds) when the member's window is used up. */
  async take(subject: string, onRedisError: (error: Error) => void): Promise<void> {
    const now = Date.now();
    const window = Math.floor(now / this.windowMs);
    const key = `bff:rate:${subject}:${window}`;
    let count: number;
    try {
      const results = await this.redis.multi().incr(key).pexpire(key, this.windowMs + 1000).exec();
      count = Number(results?.[0]?.[1] ?? 0);
    } catch (error) {
      onRedisError(error as Error);
      return;
    }
    if (count > this.limit) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
      throw new RateLimited(retryAfter);
    }
  }
}

export class RateLimited extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', messages.rateLimited);
  }
}

import type { Redis } from 'ioredis';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';

/**
 * Requests per member per fixed window, counted in Redis: the window's key is created with its
 * expiry (SET NX PX) and counted (INCR), two commands that travel in one write with whatever else
 * the request asks Redis at that moment (auto-pipelining; a MULTI would go alone). A fixed window
 * admits at most twice the limit across a window edge, which is acceptable for abuse protection.
 * While Redis is down requests are let through (logged).
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

  /** The Redis key counting the subject's current window (for callers that read it with other keys). */
  windowKey(subject: string): string {
    return `bff:rate:${subject}:${Math.floor(Date.now() / this.windowMs)}`;
  }

  /** Whether a window's count (as read from `windowKey`) is used up. */
  usedUp(count: string | null | undefined): boolean {
    return Number(count ?? 0) >= this.limit;
  }

  /** Whether the subject's window is already used up, without counting this request. */
  async exceeded(subject: string, onRedisError: (error: Error) => void): Promise<boolean> {
    try {
      return this.usedUp(await this.redis.get(this.windowKey(subject)));
    } catch (error) {
      onRedisError(error as Error);
      return false;
    }
  }

  /** Throws 429 RATE_LIMITED (with retryAfterSeconds) when the member's window is used up. */
  async take(subject: string, onRedisError: (error: Error) => void): Promise<void> {
    const now = Date.now();
    const window = Math.floor(now / this.windowMs);
    const key = `bff:rate:${subject}:${window}`;
    let count: number;
    try {
      // Sent in this order on one connection: the INCR always finds the key with its expiry.
      const [, counted] = await Promise.all([this.redis.set(key, '0', 'PX', this.windowMs + 1000, 'NX'), this.redis.incr(key)]);
      count = counted;
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

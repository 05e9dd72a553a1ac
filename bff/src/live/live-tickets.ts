import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * One-time tickets that open the live channel. EventSource cannot send an authorization header,
 * and an access token in a URL ends up in logs and history; so an authenticated POST buys a random
 * ticket that is good for one connection within a few seconds. Kept in Redis, so a ticket bought
 * through one BFF replica opens the stream on another.
 */
export class LiveTickets {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  async issue(userId: string): Promise<string> {
    const ticket = randomBytes(24).toString('base64url');
    await this.redis.set(key(ticket), userId, 'EX', this.ttlSeconds);
    return ticket;
  }

  /** The member the ticket was issued to, once; null for an unknown, used or expired ticket. */
  async redeem(ticket: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(ticket)) return null;
    return this.redis.getdel(key(ticket));
  }
}

const key = (ticket: string) => `live:ticket:${ticket}`;

import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** What a refresh token stands for: the member, and the token version it was issued under. */
export type RefreshGrant = { userId: string; version: number };

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Opaque refresh tokens kept in Redis under their SHA-256 (a leaked Redis dump holds no usable
 * token), each usable once: using one deletes it, and the caller gets a new one. Losing Redis
 * ends every session (members log in again); it never loses money or orders.
 */
export class RefreshTokens {
  constructor(
    private readonly redis: Redis,
    readonly ttlSeconds: number,
  ) {}

  async issue(grant: RefreshGrant): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(`auth:refresh:${hash(token)}`, JSON.stringify(grant), 'EX', this.ttlSeconds);
    return token;
  }

  /** The grant, consumed; null for an unknown, used or expired token. */
  async take(token: string): Promise<RefreshGrant | null> {
    const stored = await this.redis.getdel(`auth:refresh:${hash(token)}`);
    if (stored === null) return null;
    const grant = JSON.parse(stored) as RefreshGrant;
    return typeof grant.userId === 'string' && Number.isInteger(grant.version) ? grant : null;
  }
}

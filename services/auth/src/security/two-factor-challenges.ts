import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SealedSecret } from './secret-box.ts';

/**
 * The step between an operator's password and their second factor (issue 41): `verify` a code of
 * an enrolled operator, or `enrol` one who has none while the setting requires it. `pending` is the
 * sealed secret an enrolment offered, until its first code confirms it.
 */
export type Challenge = { userId: string; version: number; purpose: 'verify' | 'enrol'; pending?: SealedSecret };

const key = (token: string) => `auth:two-factor:${createHash('sha256').update(token).digest('base64url')}`;

/** Opaque one-sign-in tokens kept in Redis under their SHA-256, for `ttlSeconds`. */
export class TwoFactorChallenges {
  constructor(
    private readonly redis: Redis,
    readonly ttlSeconds: number,
  ) {}

  async open(challenge: Challenge): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(key(token), JSON.stringify(challenge), 'EX', this.ttlSeconds);
    return token;
  }

  async read(token: string): Promise<Challenge | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const stored = await this.redis.get(key(token));
    return stored === null ? null : (JSON.parse(stored) as Challenge);
  }

  /** Keeps the challenge's remaining lifetime. */
  async update(token: string, challenge: Challenge): Promise<void> {
    await this.redis.set(key(token), JSON.stringify(challenge), 'KEEPTTL');
  }

  /** Spent by the sign-in it opened: true only for the one caller that deleted it. */
  async close(token: string): Promise<boolean> {
    return (await this.redis.del(key(token))) === 1;
  }
}

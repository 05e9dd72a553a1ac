import type { Redis } from 'ioredis';
import { timingSafeEqual } from 'node:crypto';

export type CodeCheck = 'ok' | 'not-sent' | 'mismatch' | 'attempts-exceeded';

export type PhoneCodeOptions = { ttlSeconds: number; resendSeconds: number; maxAttempts: number };

/**
 * Verification codes live only in Redis, with their expiry: a hash `{code, attempts}` per phone
 * number. A wrong guess counts; past the limit the code is deleted and a new one must be sent.
 */
export class PhoneCodes {
  constructor(
    private readonly redis: Redis,
    private readonly options: PhoneCodeOptions,
  ) {}

  private key = (phone: string) => `auth:phone-code:${phone}`;
  private cooldownKey = (phone: string) => `auth:phone-code-cooldown:${phone}`;

  /** Claims the resend cooldown; returns seconds left when a code was sent too recently. */
  async claimCooldown(phone: string): Promise<number | null> {
    const set = await this.redis.set(this.cooldownKey(phone), '1', 'EX', this.options.resendSeconds, 'NX');
    if (set === 'OK') return null;
    const ttl = await this.redis.ttl(this.cooldownKey(phone));
    return ttl > 0 ? ttl : 1;
  }

  async releaseCooldown(phone: string): Promise<void> {
    await this.redis.del(this.cooldownKey(phone));
  }

  /** Stores a new code, replacing any earlier one and its attempt count. */
  async store(phone: string, code: string): Promise<void> {
    const key = this.key(phone);
    await this.redis.multi().del(key).hset(key, 'code', code, 'attempts', '0').expire(key, this.options.ttlSeconds).exec();
  }

  async check(phone: string, typed: string): Promise<CodeCheck> {
    const key = this.key(phone);
    const stored = await this.redis.hget(key, 'code');
    if (stored === null) return 'not-sent';
    const a = Buffer.from(stored);
    const b = Buffer.from(typed);
    if (a.length === b.length && timingSafeEqual(a, b)) return 'ok';
    const attempts = await this.redis.hincrby(key, 'attempts', 1);
    if (attempts >= this.options.maxAttempts) {
      await this.redis.del(key);
      return 'attempts-exceeded';
    }
    return 'mismatch';
  }

  /** A code is good for one registration. */
  async consume(phone: string): Promise<void> {
    await this.redis.del(this.key(phone));
  }
}

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HttpError } from '@smm/platform';
import type { Caller } from '../domain/caller.ts';
import { messages } from '../messages.ts';
import { isErrorBody } from '../upstream/relay.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';

const rotationCounter = 'bff:apikey:rotations';
const entryKey = (hash: string) => `bff:apikey:${hash}`;
const rotatedKey = (userId: string) => `bff:apikey:rotated:${userId}`;

type Entry = { userId: string; loginId: string; at: number };

export const apiKeyInvalid = () => new HttpError(401, 'API_KEY_INVALID', messages.apiKeyInvalid);

/**
 * API key → member, through auth's `/api-keys/resolve`. Resolutions may be kept in Redis (keyed by
 * the key's SHA-256, never the key) for `ttlSeconds`; a rotation through the BFF makes every earlier
 * resolution of that member stale at once:
 *
 * - before asking auth, the resolver reads a global rotation counter R0 and stores it with the entry;
 * - after auth rotated a key, `rotated()` increments the counter and marks the member with the new
 *   value;
 * - an entry is used only while its R0 is at least the member's mark.
 *
 * A resolve that saw the old key as valid read R0 before auth rotated, so R0 is below the mark set
 * after the rotation: even an entry written after the mark is never used. Only unknown keys go to
 * auth every time (a brand-new key must work at once, so no negative caching).
 */
export class ApiKeyResolver {
  constructor(
    private readonly auth: ServiceClient,
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  async resolve(ctx: CallContext, apiKey: string | undefined): Promise<Caller> {
    if (apiKey === undefined || apiKey.trim() === '' || apiKey.length > 200) throw apiKeyInvalid();
    const key = apiKey.trim();
    if (this.ttlSeconds === 0) return this.ask(ctx, key);
    const hash = createHash('sha256').update(key).digest('base64url');

    let counter = 0;
    try {
      const [cached, current] = await this.redis.mget(entryKey(hash), rotationCounter);
      counter = Number(current ?? 0);
      if (cached) {
        const entry = JSON.parse(cached) as Entry;
        const mark = await this.redis.get(rotatedKey(entry.userId));
        if (mark === null || entry.at >= Number(mark)) return { userId: entry.userId, loginId: entry.loginId, role: 'member' };
      }
    } catch (error) {
      ctx.log.warn({ err: (error as Error).message }, 'api key cache unavailable');
      return this.ask(ctx, key);
    }

    const caller = await this.ask(ctx, key);
    const entry: Entry = { userId: caller.userId, loginId: caller.loginId, at: counter };
    await this.redis.set(entryKey(hash), JSON.stringify(entry), 'EX', this.ttlSeconds).catch(() => undefined);
    return caller;
  }

  /** Call after auth rotated the member's key: earlier resolutions stop counting. */
  async rotated(ctx: CallContext, userId: string): Promise<void> {
    if (this.ttlSeconds === 0) return;
    try {
      const value = await this.redis.incr(rotationCounter);
      // The mark must outlive every entry written before it.
      await this.redis.set(rotatedKey(userId), String(value), 'EX', this.ttlSeconds * 2 + 60);
    } catch (error) {
      // Entries expire by themselves; while Redis is away none can be read either.
      ctx.log.error({ err: (error as Error).message, userId }, 'api key cache not invalidated after rotation');
    }
  }

  private async ask(ctx: CallContext, apiKey: string): Promise<Caller> {
    const answer = await this.auth.call({ ...ctx, caller: undefined }, 'POST', '/api-keys/resolve', { body: { apiKey } });
    if (answer.status === 404 || answer.status === 400) throw apiKeyInvalid();
    const body = answer.body as Partial<{ userId: string; loginId: string }> | null;
    if (answer.status !== 200 || !body || typeof body.userId !== 'string') {
      if (answer.status >= 400 && answer.status < 500 && isErrorBody(answer.body)) throw apiKeyInvalid();
      throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    }
    // The public API always acts as a member, whatever role the key's owner has on the web.
    return { userId: body.userId, loginId: body.loginId ?? body.userId, role: 'member' };
  }
}

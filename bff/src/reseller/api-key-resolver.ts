import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { restrictionBlocks, restrictionMessage } from '@smm/contracts';
import { type ResolveApiKeyRequest, resolvedApiKey } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import type { Caller } from '../domain/caller.ts';
import { messages } from '../messages.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { isErrorBody } from '../upstream/relay.ts';
import type { SessionStates } from '../security/session-states.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';
import { RateLimited, RateLimiter } from './rate-limiter.ts';

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
  private readonly invalidByAddress: RateLimiter;

  constructor(
    private readonly auth: ServiceClient,
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    /** The member's restriction, checked on every request like a web token's (issue 12). */
    private readonly sessions: SessionStates,
    /** Wrong keys one client address may send per minute before it gets 429 (key guessing). */
    invalidPerMinute = 30,
  ) {
    this.invalidByAddress = new RateLimiter(redis, invalidPerMinute);
  }

  /**
   * Like `lookUp`, but an address that sent too many wrong keys this minute is refused with 429
   * before any lookup, and every wrong key counts against its address. `alongside` (the member's
   * rate limit) runs at the same time as the restriction check, one Redis round trip instead of
   * two in a row; a restriction is still the answer when both refuse.
   */
  async resolve(ctx: CallContext, apiKey: string | undefined, alongside?: (caller: Caller) => Promise<void>): Promise<Caller> {
    const subject = `apikey-invalid:${ctx.clientIp ?? 'unknown'}`;
    const onRedisError = (error: Error) => ctx.log.warn({ err: error.message }, 'invalid-key limit not counted: redis unavailable');
    let caller: Caller;
    try {
      caller = await this.lookUp(ctx, apiKey, subject, onRedisError);
    } catch (error) {
      if (error instanceof HttpError && error.code === 'API_KEY_INVALID') await this.invalidByAddress.take(subject, onRedisError).catch(() => undefined);
      throw error;
    }
    const [restriction, other] = await Promise.allSettled([this.requireUnrestricted(ctx, caller.userId), alongside?.(caller)]);
    if (restriction.status === 'rejected') throw restriction.reason;
    if (other.status === 'rejected') throw other.reason;
    return caller;
  }

  /**
   * A suspended or banned member's key is refused (403 MEMBER_SUSPENDED / MEMBER_BANNED with the
   * Korean message); a deleted member's key is invalid. Read through the same short cache as web
   * tokens, which an operator's change through the BFF clears.
   */
  private async requireUnrestricted(ctx: CallContext, userId: string): Promise<void> {
    const state = await this.sessions.get(ctx, userId);
    if (state.status === 'deleted') throw apiKeyInvalid();
    if (state.restriction && restrictionBlocks(state.restriction, new Date())) {
      throw new HttpError(403, state.restriction.level === 'banned' ? 'MEMBER_BANNED' : 'MEMBER_SUSPENDED', restrictionMessage(state.restriction));
    }
  }

  /** The key's member; first refuses (429) an address whose wrong keys used up its window. */
  private async lookUp(ctx: CallContext, apiKey: string | undefined, limited: string, onRedisError: (error: Error) => void): Promise<Caller> {
    const key = apiKey?.trim() ?? '';
    const usable = key !== '' && (apiKey?.length ?? 0) <= 200;
    if (!usable || this.ttlSeconds === 0) {
      if (await this.invalidByAddress.exceeded(limited, onRedisError)) throw new RateLimited(60);
      if (!usable) throw apiKeyInvalid();
      return this.ask(ctx, key);
    }
    const hash = createHash('sha256').update(key).digest('base64url');

    let counter = 0;
    let cached: string | null | undefined;
    try {
      // The address's wrong-key count comes in the same round trip as the cached resolution.
      const [count, entry, current] = await this.redis.mget(this.invalidByAddress.windowKey(limited), entryKey(hash), rotationCounter);
      if (this.invalidByAddress.usedUp(count)) throw new RateLimited(60);
      cached = entry;
      counter = Number(current ?? 0);
    } catch (error) {
      if (error instanceof RateLimited) throw error;
      onRedisError(error as Error);
      ctx.log.warn({ err: (error as Error).message }, 'api key cache unavailable');
      return this.ask(ctx, key);
    }
    try {
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
    const answer = await this.auth.call({ ...ctx, caller: undefined }, 'POST', '/api-keys/resolve', { body: { apiKey } satisfies ResolveApiKeyRequest });
    if (answer.status === 404 || answer.status === 400) throw apiKeyInvalid();
    if (answer.status !== 200) {
      if (answer.status >= 400 && answer.status < 500 && isErrorBody(answer.body)) throw apiKeyInvalid();
      throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    }
    const body = readAnswer(ctx, answer, resolvedApiKey);
    // The public API always acts as a member, whatever role the key's owner has on the web.
    return { userId: body.userId, loginId: body.loginId ?? body.userId, role: 'member' };
  }
}

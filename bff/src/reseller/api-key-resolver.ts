import { createHash, randomUUID } from 'node:crypto';
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
/** Random, written once (NX); gone when Redis loses its data, which makes every kept resolution stale. */
const generationKey = 'bff:apikey:generation';
const entryKey = (hash: string) => `bff:apikey:${hash}`;
const rotatedKey = (userId: string) => `bff:apikey:rotated:${userId}`;

type Entry = { userId: string; loginId: string; at: number };
/** A resolution this process keeps in memory: Redis's generation when it was read, and until when. */
type Kept = { entry: Entry; generation: string; until: number };
/**
 * A key's member as looked up. One taken from a cache comes with `current` (whether no rotation of
 * its key happened since it was cached) and `ask` (auth's answer, cached anew) for when it did; one
 * kept in memory also with `limited` (the address's wrong-key check, asked in the same round trip).
 */
type Found = { caller: Caller; cached?: { current: Promise<boolean>; ask: () => Promise<Caller> }; limited?: Promise<boolean> };

/** Resolutions kept in memory at most (oldest dropped first). */
const keptMax = 10_000;

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
 *
 * Each process also keeps the entries it read or wrote in memory for the same `ttlSeconds`, so a
 * known key costs one Redis round trip (the mark, the address's wrong-key count and the caller's
 * other checks together) instead of two. The mark is still checked on every request, so a rotation
 * through any replica is seen at once; and the kept entry names Redis's generation key, so if Redis
 * loses its data (and with it the counter and the marks) nothing kept from before is trusted.
 */
export class ApiKeyResolver {
  private readonly invalidByAddress: RateLimiter;
  private readonly kept = new Map<string, Kept>();

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
   * rate limit), the restriction check and the check that a cached resolution outlived no rotation
   * are asked of Redis together: one round trip and one write (auto-pipelining) instead of three in
   * a row. A restriction is still the answer when several refuse.
   */
  async resolve(ctx: CallContext, apiKey: string | undefined, alongside?: (caller: Caller) => Promise<void>): Promise<Caller> {
    const subject = `apikey-invalid:${ctx.clientIp ?? 'unknown'}`;
    const onRedisError = (error: Error) => ctx.log.warn({ err: error.message }, 'invalid-key limit not counted: redis unavailable');
    const refused = async (error: unknown): Promise<never> => {
      if (error instanceof HttpError && error.code === 'API_KEY_INVALID') await this.invalidByAddress.take(subject, onRedisError).catch(() => undefined);
      throw error;
    };
    let found: Found;
    try {
      found = await this.lookUp(ctx, apiKey, subject, onRedisError);
    } catch (error) {
      return refused(error);
    }
    const checks = (caller: Caller) => [this.requireUnrestricted(ctx, caller.userId), alongside?.(caller)] as const;
    const [limited, current, ...settled] = await Promise.allSettled([found.limited ?? false, found.cached?.current ?? true, ...checks(found.caller)]);
    if (limited.status === 'fulfilled' && limited.value) throw new RateLimited(60);
    let [restriction, other] = settled;
    let caller = found.caller;
    if (found.cached && (current.status === 'rejected' || current.value === false)) {
      // The cached resolution predates a rotation of the member's key (or could not be checked): auth decides.
      if (current.status === 'rejected') ctx.log.warn({ err: (current.reason as Error).message }, 'api key cache unavailable');
      try {
        caller = await found.cached.ask();
      } catch (error) {
        return refused(error);
      }
      if (caller.userId !== found.caller.userId) [restriction, other] = await Promise.allSettled(checks(caller));
    }
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

  /**
   * The key's member; first refuses (429) an address whose wrong keys used up its window. For a
   * member taken from the cache, the rotation check is asked of Redis in the same tick as the
   * caller's other checks (see Found).
   */
  private async lookUp(ctx: CallContext, apiKey: string | undefined, limited: string, onRedisError: (error: Error) => void): Promise<Found> {
    const key = apiKey?.trim() ?? '';
    const usable = key !== '' && (apiKey?.length ?? 0) <= 200;
    if (!usable || this.ttlSeconds === 0) {
      if (await this.invalidByAddress.exceeded(limited, onRedisError)) throw new RateLimited(60);
      if (!usable) throw apiKeyInvalid();
      return { caller: await this.ask(ctx, key) };
    }
    const hash = createHash('sha256').update(key).digest('base64url');

    const kept = this.kept.get(hash);
    if (kept && kept.until > Date.now()) {
      // Asked in the same tick as resolve's other checks: one round trip in all.
      const read = this.redis.mget(this.invalidByAddress.windowKey(limited), rotatedKey(kept.entry.userId), generationKey);
      const current = read.then(([, mark, generation]) => generation === kept.generation && (mark === null || kept.entry.at >= Number(mark)));
      const refused = read.then(([count]) => this.invalidByAddress.usedUp(count));
      refused.catch(onRedisError);
      const ask = async () => {
        // Redis away: auth answers, and nothing is cached or kept.
        const counter = await this.redis.get(rotationCounter).then((value) => Number(value ?? 0), () => undefined);
        if (counter !== undefined) return this.askAndKeep(ctx, key, hash, counter);
        this.kept.delete(hash);
        return this.ask(ctx, key);
      };
      return { caller: callerOf(kept.entry), cached: { current, ask }, limited: refused };
    }
    if (kept) this.kept.delete(hash);

    let counter = 0;
    let cached: string | null | undefined;
    let generation: string | null = null;
    try {
      // The address's wrong-key count comes in the same round trip as the cached resolution.
      const [count, entry, current, gen] = await this.redis.mget(this.invalidByAddress.windowKey(limited), entryKey(hash), rotationCounter, generationKey);
      if (this.invalidByAddress.usedUp(count)) throw new RateLimited(60);
      cached = entry;
      counter = Number(current ?? 0);
      generation = gen ?? null;
      if (generation === null) await this.redis.set(generationKey, randomUUID(), 'NX');
    } catch (error) {
      if (error instanceof RateLimited) throw error;
      onRedisError(error as Error);
      ctx.log.warn({ err: (error as Error).message }, 'api key cache unavailable');
      return { caller: await this.ask(ctx, key) };
    }
    if (cached) {
      let entry: Entry | undefined;
      try {
        entry = JSON.parse(cached) as Entry;
      } catch (error) {
        ctx.log.warn({ err: (error as Error).message }, 'api key cache entry unreadable');
      }
      if (entry) {
        const at = entry.at;
        const current = this.redis.get(rotatedKey(entry.userId)).then((mark) => mark === null || at >= Number(mark));
        current.catch(() => undefined); // read by resolve, which logs a failure
        // Kept only once it proved current: a stale entry must not be trusted from memory either.
        if (generation !== null) void current.then((yes) => yes && this.keep(hash, entry, generation), () => undefined);
        return { caller: callerOf(entry), cached: { current, ask: () => this.askAndKeep(ctx, key, hash, counter, generation) } };
      }
    }
    return { caller: await this.askAndKeep(ctx, key, hash, counter, generation) };
  }

  /**
   * Asks auth and caches the answer with the rotation counter read before asking (and keeps it in
   * memory under the generation read with that counter, when there was one).
   */
  private async askAndKeep(ctx: CallContext, key: string, hash: string, counter: number, generation?: string | null): Promise<Caller> {
    let caller: Caller;
    try {
      caller = await this.ask(ctx, key);
    } catch (error) {
      this.kept.delete(hash);
      throw error;
    }
    const entry: Entry = { userId: caller.userId, loginId: caller.loginId, at: counter };
    await this.redis.set(entryKey(hash), JSON.stringify(entry), 'EX', this.ttlSeconds).catch(() => undefined);
    if (generation) this.keep(hash, entry, generation);
    else this.kept.delete(hash);
    return caller;
  }

  private keep(hash: string, entry: Entry, generation: string): void {
    this.kept.delete(hash);
    if (this.kept.size >= keptMax) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(hash, { entry, generation, until: Date.now() + this.ttlSeconds * 1000 });
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

function callerOf(entry: Entry): Caller {
  return { userId: entry.userId, loginId: entry.loginId, role: 'member' };
}

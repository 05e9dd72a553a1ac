import type { Redis } from 'ioredis';
import { z } from 'zod';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import { ServiceUnavailable } from '../upstream/service-client.ts';
import type { CallContext, ServiceAnswer, ServiceClient } from '../upstream/service-client.ts';

export type SettingItem = { key: string; value: string };
/** How the answer was obtained, for the `x-cache` header and the tests. */
export type CacheOutcome = 'hit' | 'revalidated' | 'miss' | 'stale';

const cachedSchema = z.object({ etag: z.string(), items: z.array(z.object({ key: z.string(), value: z.string() })) });
type Cached = z.infer<typeof cachedSchema>;
const catalogSettings = z.object({ etag: z.string().optional(), items: z.array(z.object({ key: z.string(), value: z.string() })) });

const VALUE_KEY = 'bff:settings:v1';
/** Present while the cached value counts as fresh enough not to ask catalog at all. */
const FRESH_KEY = 'bff:settings:v1:fresh';
const REDIS_TIMEOUT_MS = 500;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Site settings, kept in Redis for an hour (spec §7, §9). Catalog versions its settings and answers
 * a conditional GET with 304, so every `revalidateSeconds` the BFF asks cheaply whether they
 * changed; admin writes through the BFF drop the cache at once. Redis trouble never fails the
 * request (catalog is asked directly), and when catalog is down a cached copy is still served.
 */
export class SettingsCache {
  constructor(
    private readonly redis: Redis,
    private readonly catalog: ServiceClient,
    private readonly options: { ttlSeconds: number; revalidateSeconds: number },
  ) {}

  async get(ctx: CallContext): Promise<{ items: SettingItem[]; outcome: CacheOutcome }> {
    const { cached, fresh } = await this.read(ctx);
    if (cached && fresh) return { items: cached.items, outcome: 'hit' };

    let answer: ServiceAnswer;
    try {
      answer = await this.catalog.call(ctx, 'GET', '/settings', cached ? { headers: { 'if-none-match': cached.etag } } : {});
    } catch (error) {
      if (cached && error instanceof ServiceUnavailable) {
        ctx.log.warn('catalog unavailable; serving cached settings');
        return { items: cached.items, outcome: 'stale' };
      }
      throw error;
    }
    if (answer.status === 304 && cached) {
      await this.markFresh(ctx);
      return { items: cached.items, outcome: 'revalidated' };
    }
    const parsed = answer.status === 200 ? catalogSettings.safeParse(answer.body) : undefined;
    if (!parsed?.success) {
      ctx.log.error({ status: answer.status }, 'catalog settings answer not understood');
      if (cached) return { items: cached.items, outcome: 'stale' };
      throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    }
    const etag = parsed.data.etag ?? answer.headers.get('etag') ?? '';
    await this.store(ctx, { etag, items: parsed.data.items });
    return { items: parsed.data.items, outcome: 'miss' };
  }

  /** Called after an admin changed settings through the BFF. */
  async invalidate(ctx: CallContext): Promise<void> {
    try {
      await withTimeout(this.redis.del(VALUE_KEY, FRESH_KEY), REDIS_TIMEOUT_MS);
    } catch (error) {
      ctx.log.warn({ err: String(error) }, 'settings cache not invalidated');
    }
  }

  private async read(ctx: CallContext): Promise<{ cached: Cached | null; fresh: boolean }> {
    try {
      const [value, fresh] = await withTimeout(Promise.all([this.redis.get(VALUE_KEY), this.redis.exists(FRESH_KEY)]), REDIS_TIMEOUT_MS);
      if (value === null) return { cached: null, fresh: false };
      const parsed = cachedSchema.safeParse(JSON.parse(value));
      return parsed.success ? { cached: parsed.data, fresh: fresh === 1 } : { cached: null, fresh: false };
    } catch (error) {
      ctx.log.warn({ err: String(error) }, 'settings cache unreadable');
      return { cached: null, fresh: false };
    }
  }

  private async store(ctx: CallContext, value: Cached): Promise<void> {
    try {
      const write = this.redis.multi().set(VALUE_KEY, JSON.stringify(value), 'EX', this.options.ttlSeconds);
      if (this.options.revalidateSeconds > 0) write.set(FRESH_KEY, '1', 'EX', this.options.revalidateSeconds);
      await withTimeout(write.exec(), REDIS_TIMEOUT_MS);
    } catch (error) {
      ctx.log.warn({ err: String(error) }, 'settings cache not written');
    }
  }

  private async markFresh(ctx: CallContext): Promise<void> {
    if (this.options.revalidateSeconds === 0) return;
    try {
      await withTimeout(this.redis.set(FRESH_KEY, '1', 'EX', this.options.revalidateSeconds), REDIS_TIMEOUT_MS);
    } catch (error) {
      ctx.log.warn({ err: String(error) }, 'settings cache not marked fresh');
    }
  }
}

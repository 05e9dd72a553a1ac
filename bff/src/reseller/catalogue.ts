import type { ServiceType } from '@smm/contracts';
import { categoryList, platformList, serviceList } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { failed } from '../upstream/relay.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';

/** One orderable product with its category and platform names (catalog's public reads, joined). */
export type CatalogueItem = {
  id: number;
  text: string;
  min: number;
  max: number;
  point: number;
  unitPriceDeci: number;
  enableAuto: boolean;
  isReadOnly: boolean;
  type: ServiceType;
  category: string;
  platform: string;
};


/**
 * The visible products as the reseller API lists them. Catalog is asked for services, categories
 * and platforms in parallel; the joined list is kept in memory for `ttlMs` (resellers poll the list,
 * and one second of staleness only delays a listing — orders are checked by the order service
 * against its own replica). Concurrent misses share one fetch.
 */
export class ResellerCatalogue {
  private cached: { at: number; items: CatalogueItem[] } | undefined;
  private inFlight: Promise<CatalogueItem[]> | undefined;

  constructor(
    private readonly catalog: ServiceClient,
    private readonly ttlMs: number,
  ) {}

  async items(ctx: CallContext): Promise<CatalogueItem[]> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached.items;
    this.inFlight ??= this.fetch(ctx).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  async find(ctx: CallContext, id: number): Promise<CatalogueItem | undefined> {
    return (await this.items(ctx)).find((item) => item.id === id);
  }

  private async fetch(ctx: CallContext): Promise<CatalogueItem[]> {
    // Stamped when the question was asked: a slow answer is no fresher than its question.
    const askedAt = Date.now();
    const plain = { ...ctx, caller: undefined };
    const [services, categories, platforms] = await Promise.all([
      this.catalog.call(plain, 'GET', '/services'),
      this.catalog.call(plain, 'GET', '/categories'),
      this.catalog.call(plain, 'GET', '/platforms'),
    ]);
    for (const answer of [services, categories, platforms]) {
      if (failed(answer)) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    }
    const categoryNames = new Map(readAnswer(ctx, categories, categoryList).map((c) => [c.id, c.text]));
    const platformNames = new Map(readAnswer(ctx, platforms, platformList).map((p) => [p.id, p.text]));
    const items = readAnswer(ctx, services, serviceList).map((s) => ({
      id: s.id,
      text: s.text,
      min: s.min,
      max: s.max,
      point: s.point,
      unitPriceDeci: s.unitPriceDeci,
      enableAuto: s.enableAuto,
      isReadOnly: s.isReadOnly,
      type: s.type ?? 'default',
      category: categoryNames.get(s.categoryId) ?? '',
      platform: platformNames.get(s.platformId) ?? '',
    }));
    this.cached = { at: askedAt, items };
    return items;
  }
}

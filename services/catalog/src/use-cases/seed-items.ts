import type { ClientSession } from 'mongoose';
import { parseUnitPrice } from '../domain/price.ts';
import { checkQuantityRange } from '../domain/quantity.ts';
import { normalizeSetting } from '../domain/setting-rules.ts';
import { serviceUpserted, settingChanged } from '../events/catalog-events.ts';
import type { SeedPlatform } from '../seed/catalogue.ts';
import type { SeedData } from '../seed/seed-data.ts';
import type { Service } from '../store/catalog.models.ts';
import { sequences } from '../store/store.ts';
import type { Actor, CatalogDeps, Emit } from './context.ts';
import type { claimPlacement } from './placement.ts';

/**
 * What a seed item's create step gets: the group's transaction, the ids of items already seeded
 * (by seed key, including those created earlier in this group), and ids handed out from blocks
 * reserved once per group — start-up waits for the seed, so round trips are kept few.
 */
export type SeedContext = {
  session: ClientSession;
  emit: Emit;
  seededId(key: string): number | undefined;
  next(sequence: string): Promise<number>;
  placement(categoryId: number): ReturnType<typeof claimPlacement>;
};

/** One seed item: its key, and how to create it (answering its id, or 'no-parent' when it cannot be placed). */
export type SeedItem = { key: string; entity: string; create: (ctx: SeedContext) => Promise<string | 'no-parent'> };
/** Items committed together; `afterCreate` runs once in the same transaction when any was created. */
export type SeedGroup = { name: string; items: SeedItem[]; afterCreate?: (session: ClientSession) => Promise<unknown> };

async function positions(ctx: SeedContext, entity: string) {
  return [await ctx.next(sequences.id(entity)), await ctx.next(sequences.sort(entity))] as const;
}

/** A platform with its categories and products. Children find their parent through its seed record. */
function platformGroup(deps: CatalogDeps, platform: SeedPlatform, actor: Actor): SeedGroup {
  const items: SeedItem[] = [];
  items.push({
    key: `platform:${platform.key}`,
    entity: 'platform',
    create: async ({ session, next }) => {
      // A platform the operator created under this id before seeding ran stays as it is.
      if (!(await deps.store.platforms.exists({ _id: platform.id }).session(session))) {
        const sortOrder = await next(sequences.sort('platform'));
        await deps.store.platforms.create([{ _id: platform.id, text: platform.text, background: platform.background, visible: platform.visible, sortOrder }], { session });
      }
      return String(platform.id);
    },
  });
  for (const category of platform.categories) {
    items.push({
      key: `category:${category.key}`,
      entity: 'category',
      create: async (ctx) => {
        const { session } = ctx;
        const platformId = ctx.seededId(`platform:${platform.key}`);
        if (platformId === undefined || !(await deps.store.platforms.exists({ _id: platformId }).session(session))) return 'no-parent';
        const [id, sortOrder] = await positions(ctx, 'category');
        await deps.store.categories.create([{ _id: id, text: category.text, platformId, sortOrder }], { session });
        return String(id);
      },
    });
    for (const service of category.services) {
      items.push({
        key: `service:${service.key}`,
        entity: 'service',
        create: async (ctx) => {
          const { session, emit } = ctx;
          const categoryId = ctx.seededId(`category:${category.key}`);
          const placement = categoryId === undefined ? undefined : await ctx.placement(categoryId);
          if (categoryId === undefined || !placement) return 'no-parent';
          const price = parseUnitPrice(service.price);
          const range = checkQuantityRange(service.min, service.max);
          if (!price.ok || range) throw new Error(`seed service ${service.key} is invalid: ${price.ok ? range?.message : price.problem.message}`);
          const [id, sortOrder] = await positions(ctx, 'service');
          const doc: Service = {
            _id: id,
            text: service.text,
            categoryId,
            min: service.min,
            max: service.max,
            unitPriceDeci: price.deci,
            notice: service.notice,
            enableAuto: service.enableAuto ?? false,
            isReadOnly: service.isReadOnly ?? false,
            visible: service.visible ?? true,
            sortOrder,
            type: service.type ?? 'default',
          };
          await deps.store.services.create([doc], { session });
          emit(serviceUpserted(doc, placement.category, placement.platform, actor));
          return String(id);
        },
      });
    }
  }
  return { name: `platform:${platform.key}`, items };
}

function contentGroups(deps: CatalogDeps, data: SeedData): SeedGroup[] {
  const item = (entity: string, key: string, insert: (id: number, sortOrder: number, session: ClientSession) => Promise<unknown>): SeedItem => ({
    key: `${entity}:${key}`,
    entity,
    create: async (ctx) => {
      const [id, sortOrder] = await positions(ctx, entity);
      await insert(id, sortOrder, ctx.session);
      return String(id);
    },
  });
  return [
    {
      name: 'notices',
      items: data.notices.map((n) => item('notice', n.key, (_id, sortOrder, session) => deps.store.notices.create([{ _id, content: n.content, isTop: n.isTop, sortOrder }], { session }))),
    },
    {
      name: 'faqs',
      items: data.faqs.map((f) => item('faq', f.key, (_id, sortOrder, session) => deps.store.faqs.create([{ _id, title: f.title, answer: f.answer, sortOrder }], { session }))),
    },
    {
      name: 'register-where',
      items: data.registerWhere.map((r) => item('register-where', r.key, (_id, sortOrder, session) => deps.store.registerWhere.create([{ _id, text: r.text, sortOrder }], { session }))),
    },
  ];
}

function settingsGroup(deps: CatalogDeps, data: SeedData, actor: Actor): SeedGroup {
  const items = Object.entries(data.settings).map(([key, value]): SeedItem => {
    const setting = normalizeSetting(key, value);
    if (!setting.ok) throw new Error(`seed setting ${key} is invalid: ${setting.problem.message}`);
    return {
      key: `setting:${key}`,
      entity: 'setting',
      create: async ({ session, emit }) => {
        // A value the operator set before seeding ran is theirs: insert only if absent.
        const written = await deps.store.settings.updateOne({ _id: key }, { $setOnInsert: { value: setting.value } }, { upsert: true, session });
        if (written.upsertedCount === 1) emit(settingChanged(key, setting.value, actor));
        return key;
      },
    };
  });
  // One settings change, one new version, as for an operator's bulk write.
  return { name: 'settings', items, afterCreate: (session) => deps.store.nextSeq(sequences.settingsVersion, session) };
}

/** Everything the seed data describes, in dependency order, grouped into transactions. */
export function seedGroups(deps: CatalogDeps, data: SeedData, actor: Actor): SeedGroup[] {
  return [...data.platforms.map((p) => platformGroup(deps, p, actor)), ...contentGroups(deps, data), settingsGroup(deps, data, actor)];
}

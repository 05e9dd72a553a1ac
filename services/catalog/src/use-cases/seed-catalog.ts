import { randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongoose';
import { isDuplicateKeyError } from '@smm/platform';
import { parseUnitPrice } from '../domain/price.ts';
import { checkQuantityRange } from '../domain/quantity.ts';
import { normalizeSetting } from '../domain/setting-rules.ts';
import { serviceUpserted, settingChanged } from '../events/catalog-events.ts';
import type { SeedData } from '../seed/seed-data.ts';
import type { Service } from '../store/catalog.models.ts';
import { sequences } from '../store/store.ts';
import { type Actor, type CatalogDeps, type Emit, commit } from './context.ts';
import { claimPlacement } from './placement.ts';

export type SeedReport = { created: number; skipped: number };

/** What seeding one item did: created it (with this id), found it already seeded, or could not place it. */
type Outcome = { created: string } | 'seeded-before' | 'no-parent';

/**
 * Loads the starting catalogue, each item at most once ever: an item is created together with a
 * seed record of its key, in one transaction with its events. A later start finds the record and
 * leaves the item alone — edited, hidden or deleted by the operator — so seeding never overwrites
 * an operator's work. Two processes seeding at once collide on the record's key; one wins.
 */
export async function seedCatalog(deps: CatalogDeps, data: SeedData): Promise<SeedReport> {
  const actor: Actor = { correlationId: `seed-${randomUUID()}`, causationId: null };
  const report: SeedReport = { created: 0, skipped: 0 };
  const once = async (key: string, entity: string, create: (session: ClientSession, emit: Emit) => Promise<string | 'no-parent'>) => {
    let outcome: Outcome;
    try {
      outcome = await commit(deps, async (session, emit): Promise<Outcome> => {
        if (await deps.store.seedRecords.exists({ _id: key }).session(session)) return 'seeded-before';
        const id = await create(session, emit);
        if (id === 'no-parent') return 'no-parent';
        await deps.store.seedRecords.create([{ _id: key, entity, entityId: id, seededAt: new Date() }], { session });
        return { created: id };
      });
    } catch (error) {
      if (!isDuplicateKeyError(error, 'seed_records')) throw error;
      outcome = 'seeded-before';
    }
    if (typeof outcome === 'object') report.created++;
    else report.skipped++;
    if (outcome === 'no-parent') deps.logger.info({ seedKey: key }, 'seed item skipped: its parent was removed');
  };
  const positions = async (entity: string, session: ClientSession) =>
    [await deps.store.nextSeq(sequences.id(entity), session), await deps.store.nextSeq(sequences.sort(entity), session)] as const;
  const seededId = async (key: string, session: ClientSession) => {
    const record = await deps.store.seedRecords.findById(key).session(session).lean();
    return record ? Number(record.entityId) : undefined;
  };

  for (const platform of data.platforms) {
    await once(`platform:${platform.key}`, 'platform', async (session) => {
      // A platform the operator created under this id before seeding ran stays as it is.
      if (!(await deps.store.platforms.exists({ _id: platform.id }).session(session))) {
        const sortOrder = await deps.store.nextSeq(sequences.sort('platform'), session);
        await deps.store.platforms.create([{ _id: platform.id, text: platform.text, background: platform.background, visible: platform.visible, sortOrder }], { session });
      }
      return String(platform.id);
    });
    for (const category of platform.categories) {
      await once(`category:${category.key}`, 'category', async (session) => {
        const platformId = await seededId(`platform:${platform.key}`, session);
        if (platformId === undefined || !(await deps.store.platforms.exists({ _id: platformId }).session(session))) return 'no-parent';
        const [id, sortOrder] = await positions('category', session);
        await deps.store.categories.create([{ _id: id, text: category.text, platformId, sortOrder }], { session });
        return String(id);
      });
      for (const service of category.services) {
        await once(`service:${service.key}`, 'service', async (session, emit) => {
          const categoryId = await seededId(`category:${category.key}`, session);
          const placement = categoryId === undefined ? undefined : await claimPlacement(deps.store, categoryId, session);
          if (categoryId === undefined || !placement) return 'no-parent';
          const price = parseUnitPrice(service.price);
          const range = checkQuantityRange(service.min, service.max);
          if (!price.ok || range) throw new Error(`seed service ${service.key} is invalid: ${price.ok ? range?.message : price.problem.message}`);
          const [id, sortOrder] = await positions('service', session);
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
          };
          await deps.store.services.create([doc], { session });
          emit(serviceUpserted(doc, placement.category, placement.platform, actor));
          return String(id);
        });
      }
    }
  }

  for (const notice of data.notices) {
    await once(`notice:${notice.key}`, 'notice', async (session) => {
      const [id, sortOrder] = await positions('notice', session);
      await deps.store.notices.create([{ _id: id, content: notice.content, isTop: notice.isTop, sortOrder }], { session });
      return String(id);
    });
  }
  for (const faq of data.faqs) {
    await once(`faq:${faq.key}`, 'faq', async (session) => {
      const [id, sortOrder] = await positions('faq', session);
      await deps.store.faqs.create([{ _id: id, title: faq.title, answer: faq.answer, sortOrder }], { session });
      return String(id);
    });
  }
  for (const option of data.registerWhere) {
    await once(`register-where:${option.key}`, 'register-where', async (session) => {
      const [id, sortOrder] = await positions('register-where', session);
      await deps.store.registerWhere.create([{ _id: id, text: option.text, sortOrder }], { session });
      return String(id);
    });
  }

  for (const [key, value] of Object.entries(data.settings)) {
    const setting = normalizeSetting(key, value);
    if (!setting.ok) throw new Error(`seed setting ${key} is invalid: ${setting.problem.message}`);
    await once(`setting:${key}`, 'setting', async (session, emit) => {
      // A value the operator set before seeding ran is theirs.
      if (!(await deps.store.settings.exists({ _id: key }).session(session))) {
        await deps.store.settings.create([{ _id: key, value: setting.value }], { session });
        await deps.store.nextSeq(sequences.settingsVersion, session);
        emit(settingChanged(key, setting.value, actor));
      }
      return key;
    });
  }
  deps.logger.info(report, 'seed finished');
  return report;
}

import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn, outboxModel } from '@smm/platform';
import { type Category, type Platform, type Service, categorySchema, platformSchema, serviceSchema } from './catalog.models.ts';
import { type Faq, type Notice, type RegisterWhere, type Setting, faqSchema, noticeSchema, registerWhereSchema, settingSchema } from './content.models.ts';
import { type Counter, type SeedRecord, counterSchema, seedRecordSchema } from './meta.models.ts';

/** What every ordered collection shares: a numeric id and a position. */
export type SortableDoc = { _id: number; sortOrder: number };
export type SortableEntity = 'platform' | 'category' | 'service' | 'notice' | 'faq' | 'register-where';

export type Store = {
  connection: Connection;
  platforms: Model<Platform>;
  categories: Model<Category>;
  services: Model<Service>;
  notices: Model<Notice>;
  faqs: Model<Faq>;
  registerWhere: Model<RegisterWhere>;
  settings: Model<Setting>;
  counters: Model<Counter>;
  seedRecords: Model<SeedRecord>;
  /** An ordered collection seen only through what all of them share (reordering, generic content). */
  sortable(entity: SortableEntity): Model<SortableDoc>;
  /** Next value of a named sequence, inside the caller's transaction (so an aborted write leaves no gap). */
  nextSeq(name: string, session: ClientSession): Promise<number>;
  /** Advances a sequence by `count` at once and answers the last value of the block. */
  reserveSeq(name: string, count: number, session: ClientSession): Promise<number>;
  /** Current value of a sequence, 0 when it was never advanced. */
  currentSeq(name: string): Promise<number>;
};

/** Sequence names; `sort:` sequences give new items the last position. */
export const sequences = {
  id: (entity: string) => `id:${entity}`,
  sort: (entity: string) => `sort:${entity}`,
  settingsVersion: 'settings-version',
  /** Moves with every committed write; public reads are cached per value. */
  catalogVersion: 'catalog-version',
} as const;

export async function createStore(connection: Connection): Promise<Store> {
  const store: Store = {
    connection,
    platforms: modelOn(connection, 'Platform', platformSchema),
    categories: modelOn(connection, 'Category', categorySchema),
    services: modelOn(connection, 'Service', serviceSchema),
    notices: modelOn(connection, 'Notice', noticeSchema),
    faqs: modelOn(connection, 'Faq', faqSchema),
    registerWhere: modelOn(connection, 'RegisterWhere', registerWhereSchema),
    settings: modelOn(connection, 'Setting', settingSchema),
    counters: modelOn(connection, 'Counter', counterSchema),
    seedRecords: modelOn(connection, 'SeedRecord', seedRecordSchema),
    sortable(entity) {
      const models = {
        platform: store.platforms,
        category: store.categories,
        service: store.services,
        notice: store.notices,
        faq: store.faqs,
        'register-where': store.registerWhere,
      };
      // Mongoose model types are invariant in their document type; every one of these has _id and sortOrder.
      return models[entity] as unknown as Model<SortableDoc>;
    },
    nextSeq(name, session) {
      return store.reserveSeq(name, 1, session);
    },
    async reserveSeq(name, count, session) {
      const counter = await store.counters.findOneAndUpdate({ _id: name }, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after', session }).lean();
      if (!counter) throw new Error(`sequence ${name} did not advance`);
      return counter.seq;
    },
    async currentSeq(name) {
      const counter = await store.counters.findById(name).lean();
      return counter?.seq ?? 0;
    },
  };
  // Collections and indexes exist before the first transaction: DDL is not transactional.
  const models = [store.platforms, store.categories, store.services, store.notices, store.faqs, store.registerWhere, store.settings, store.counters, store.seedRecords];
  for (const model of [...models, outboxModel(connection)]) {
    await model.createCollection().catch(() => undefined);
    await model.init();
  }
  return store;
}

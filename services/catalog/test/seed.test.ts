import { afterAll, describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { outboxModel } from '@smm/platform';
import { type SeedData, defaultSeed } from '../src/seed/seed-data.ts';
import { type Catalog, client, collectEvents, startCatalog, catalogSuite } from './support.ts';

type Service = { id: number; text: string; point: number; categoryId: number };

const seedServices = defaultSeed.platforms.flatMap((p) => p.categories.flatMap((c) => c.services));
const seedCategories = defaultSeed.platforms.flatMap((p) => p.categories);
const seedItemCount =
  defaultSeed.platforms.length + seedCategories.length + seedServices.length + defaultSeed.notices.length + defaultSeed.faqs.length + defaultSeed.registerWhere.length + Object.keys(defaultSeed.settings).length;

const suite = catalogSuite();

const outboxCount = () => outboxModel(suite.catalog.connection).countDocuments({ topic: Topics.catalog });

describe('seeding', () => {
  it('loads the starting catalogue once, announcing every product and setting', async () => {
    expect(await suite.catalog.seed()).toEqual({ created: seedItemCount, skipped: 0 });
    const events = await outboxModel(suite.catalog.connection).find({ topic: Topics.catalog }).lean();
    expect(events.filter((e) => e.event.type === 'ServiceUpserted')).toHaveLength(seedServices.length);
    expect(events.filter((e) => e.event.type === 'SettingChanged')).toHaveLength(Object.keys(defaultSeed.settings).length);
    const upserted = (text: string) => events.find((e) => e.event.type === 'ServiceUpserted' && (e.event.data as { text: string }).text === text)?.event.data;
    expect(upserted('인스타그램 한국인 좋아요')).toMatchObject({ platformId: 1, min: 10, max: 10000, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, visible: true });
    expect(upserted('유튜브 시청 시간 (수익 창출 조건)')).toMatchObject({ isReadOnly: true, visible: true });
    // 카카오스토리 is seeded hidden, so its products are announced as not orderable.
    expect(upserted('카카오스토리 느낌(좋아요)')).toMatchObject({ platformId: 8, visible: false });
    expect(events.find((e) => e.event.aggregateId === 'setting-ENABLE_REFERRAL')?.event.data).toEqual({ key: 'ENABLE_REFERRAL', value: 'true' });

    const received = await collectEvents(suite.catalog.kafka);
    try {
      await suite.catalog.flush();
      const deadline = Date.now() + 15_000;
      while (received.events.length < events.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(received.events.map((e) => e.eventId).sort()).toEqual(events.map((e) => e.eventId).sort());
    } finally {
      await received.stop();
    }

    expect((await suite.admin.get<Service[]>('/admin/services')).body).toHaveLength(seedServices.length);
    expect(await suite.catalog.seed()).toEqual({ created: 0, skipped: seedItemCount });
    expect(await outboxCount()).toBe(events.length);
  });

  it('never overwrites or re-creates what the operator changed or deleted', async () => {
    const services = (await suite.admin.get<Service[]>('/admin/services')).body;
    const likes = services.find((s) => s.text === '인스타그램 한국인 좋아요')!;
    const gone = services.find((s) => s.text === '틱톡 팔로워')!;
    await suite.admin.patch(`/admin/services/${likes.id}`, { point: '3.5', text: '인스타 한국인 좋아요 (프리미엄)' });
    expect((await suite.admin.del(`/admin/services/${gone.id}`)).status).toBe(204);
    const notices = (await suite.admin.get<Array<{ id: number; content: string }>>('/admin/notices')).body;
    expect((await suite.admin.del(`/admin/notices/${notices[0]!.id}`)).status).toBe(204);
    await suite.admin.put('/admin/settings/MAIN_COLOR', { value: '#000000' });
    await suite.admin.patch('/admin/platforms/8', { visible: true });
    const events = await outboxCount();

    expect(await suite.catalog.seed()).toEqual({ created: 0, skipped: seedItemCount });

    const after = (await suite.admin.get<Service[]>('/admin/services')).body;
    expect(after.find((s) => s.id === likes.id)).toMatchObject({ text: '인스타 한국인 좋아요 (프리미엄)', point: 3.5 });
    expect(after.some((s) => s.text === '틱톡 팔로워')).toBe(false);
    expect(after).toHaveLength(seedServices.length - 1);
    const noticesAfter = (await suite.admin.get<Array<{ id: number }>>('/admin/notices')).body;
    expect(noticesAfter.map((n) => n.id)).toEqual(notices.slice(1).map((n) => n.id));
    const settings = (await client(suite.catalog.base).get<{ items: Array<{ key: string; value: string }> }>('/settings')).body;
    expect(settings.items.find((i) => i.key === 'MAIN_COLOR')?.value).toBe('#000000');
    expect((await suite.admin.get<Array<{ id: number; visible: boolean }>>('/admin/platforms')).body.find((p) => p.id === 8)?.visible).toBe(true);
    expect(await outboxCount()).toBe(events);
  });

  it('adds items new to a later seed, but not under a category the operator deleted', async () => {
    const categories = (await suite.admin.get<Array<{ id: number; text: string; platform: number }>>('/admin/categories')).body;
    const facebookPostLikes = categories.find((c) => c.platform === 4 && c.text === '게시물 좋아요')!;
    for (const s of (await suite.admin.get<Service[]>('/admin/services')).body.filter((s) => s.categoryId === facebookPostLikes.id)) await suite.admin.del(`/admin/services/${s.id}`);
    expect((await suite.admin.del(`/admin/categories/${facebookPostLikes.id}`)).status).toBe(204);

    const later: SeedData = structuredClone(defaultSeed);
    const instagram = later.platforms.find((p) => p.key === 'instagram')!;
    instagram.categories[0]!.services.push({ key: 'instagram/likes/fast', text: '인스타그램 초고속 좋아요', min: 100, max: 20000, price: '1.5', notice: '빠른 작업' });
    later.platforms.find((p) => p.key === 'facebook')!.categories.find((c) => c.key === 'facebook/post-likes')!.services.push({ key: 'facebook/post-likes/global', text: '페이스북 외국인 게시물 좋아요', min: 100, max: 5000, price: '5', notice: '해외 계정' });
    later.faqs.push({ key: 'night', title: '밤에도 작업되나요?', answer: '네, 자동 주문은 밤에도 정해 둔 간격마다 진행됩니다.' });

    expect(await suite.catalog.seed(later)).toEqual({ created: 2, skipped: seedItemCount + 1 });
    const services = (await suite.admin.get<Service[]>('/admin/services')).body;
    expect(services.find((s) => s.text === '인스타그램 초고속 좋아요')).toMatchObject({ point: 1.5 });
    expect(services.some((s) => s.text === '페이스북 외국인 게시물 좋아요')).toBe(false);
    expect((await suite.admin.get<Array<{ id: number; text: string }>>('/admin/categories')).body.some((c) => c.text === '게시물 좋아요' && c.id === facebookPostLikes.id)).toBe(false);
    expect((await client(suite.catalog.base).get<Array<{ title: string }>>('/faqs')).body.at(-1)?.title).toBe('밤에도 작업되나요?');
  });
});

describe('seeding a fresh database', () => {
  let fresh: Catalog;
  afterAll(async () => {
    await fresh?.close();
  });

  it('keeps a setting the operator wrote before the seed ran, and survives two seeders at once', async () => {
    fresh = await startCatalog(suite.infra);
    await client(fresh.base, 'admin').put('/admin/settings/ENABLE_QNA', { value: false });
    const [a, b] = await Promise.all([fresh.seed(), fresh.seed()]);
    expect(a.created + b.created).toBe(seedItemCount);
    const services = (await client(fresh.base, 'admin').get<Service[]>('/admin/services')).body;
    expect(services).toHaveLength(seedServices.length);
    expect(new Set(services.map((s) => s.text)).size).toBe(seedServices.length);
    const settings = (await client(fresh.base).get<{ flags: Record<string, boolean> }>('/settings')).body;
    expect(settings.flags.ENABLE_QNA).toBe(false);
    const upserts = await outboxModel(fresh.connection).countDocuments({ 'event.type': 'ServiceUpserted' });
    expect(upserts).toBe(seedServices.length);
  });
});
